import FeedParser
import Foundation
import Testing
import TributaryCore

@Suite struct ChunkBoundaryTests {
    static let fixtures = [
        "google-news-top-stories-en.xml", "google-news-top-stories-ja.xml", "google-news-search-en.xml",
        "atom-blog-xml-base-xhtml.xml", "podcast-itunes-enclosures.xml", "rdf-rss10-dublin-core.xml",
        "rss090-netscape.xml", "rss091-doctype-html-entities.xml", "rss092-relative-links-no-guid.xml",
        "atom03-escaped-mode.xml", "double-escaped-description-cdata-title.xml", "broken-truncated.xml",
        "broken-unclosed-tags.xml", "broken-bad-entities.xml", "broken-trailing-junk.xml", "encoding-iso-8859-1.xml",
        "encoding-windows-1252.xml", "encoding-shift-jis.xml", "encoding-euc-jp.xml", "encoding-utf-16le-bom.xml",
        "encoding-utf-16be-bom.xml", "encoding-utf-8-bom.xml", "broken-stray-end-tag-atom.xml",
        "broken-invalid-character-references.xml", "encoding-undeclared-shift-jis-ascii-first-kib.xml",
        "encoding-undeclared-euc-jp-ascii-first-kib.xml", "encoding-utf-8-declared-iso-8859-1.xml",
    ]

    /// Every split position of every fixture (all are under 8 KB) gives the same items and header.
    @Test(arguments: fixtures)
    func everySplitPositionGivesIdenticalOutput(_ name: String) throws {
        let bytes = try FixtureSupport.bytes(name)
        #expect(bytes.count < 8192)
        let expected = try FixtureSupport.parse(bytes)
        #expect(!expected.items.isEmpty)
        for position in 1..<bytes.count {
            let split = try FixtureSupport.parse(bytes, splitAt: [position])
            guard split.items == expected.items, split.metadata == expected.metadata else {
                Issue.record("\(name): output differs when split at byte \(position)")
                return
            }
        }
    }

    /// One byte at a time puts a boundary everywhere at once, also inside multi-byte characters and entities.
    @Test(arguments: fixtures)
    func oneByteChunksGiveIdenticalOutput(_ name: String) throws {
        let bytes = try FixtureSupport.bytes(name)
        let expected = try FixtureSupport.parse(bytes)
        let bytewise = try FixtureSupport.parse(bytes, splitAt: Array(1..<bytes.count))
        #expect(bytewise.items == expected.items)
        #expect(bytewise.metadata == expected.metadata)
        let uneven = try FixtureSupport.parse(bytes, splitAt: Array(stride(from: 7, to: bytes.count, by: 7)))
        #expect(uneven.items == expected.items)
    }

    /// A large generated feed, split at a sample of positions and in chunks larger than the 1 MiB libxml2 limit.
    @Test func largeFeedSplitAtSampledPositions() throws {
        let bytes = GeneratedFeed.googleNewsLike(items: 3000)
        #expect(bytes.count > 2_000_000)
        let expected = try FixtureSupport.parse(bytes)
        #expect(expected.items.count == 3000)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<12 {
            let positions = (0..<5).map { _ in Int.random(in: 1..<bytes.count, using: &generator) }.sorted()
            let split = try FixtureSupport.parse(bytes, splitAt: positions)
            #expect(split.items == expected.items, "split at \(positions)")
        }
    }
}

/// Feeds generated in tests.
enum GeneratedFeed {
    /// A Google-News-like RSS document with `items` items.
    static func googleNewsLike(items: Int) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><rss xmlns:media="http://search.yahoo.com/mrss/" \
            version="2.0"><channel><generator>NFE/5.0</generator><title>Top stories - Google News</title>\
            <link>https://news.google.com/?hl=en-US&amp;gl=US&amp;ceid=US:en</link><language>en-US</language>\
            <lastBuildDate>Sun, 22 Nov 2026 05:44:12 GMT</lastBuildDate><description>Google News</description>

            """
        for index in 0..<items {
            let token = "CBMi\(String(index, radix: 16))QWh0dHBzOi8vd3d3LmV4YW1wbGUuY29tL2FydGljbGU"
            let link = "https://news.google.com/rss/articles/\(token)?oc=5"
            let cluster = (0..<3).map { related in
                "&lt;li&gt;&lt;a href=\"\(link)&amp;r=\(related)\" target=\"_blank\"&gt;Story \(index) — 記事 \(related)&lt;/a&gt;"
                    + "&amp;nbsp;&amp;nbsp;&lt;font color=\"#6f6f6f\"&gt;Publisher \(related)&lt;/font&gt;&lt;/li&gt;"
            }.joined()
            text += "<item><title>Story \(index): markets &amp; weather 天気 - Publisher \(index % 7)</title>"
            text += "<link>\(link)</link><guid isPermaLink=\"false\">\(token)</guid>"
            text += "<pubDate>Sun, \(index % 28 + 1) Nov 2026 \(index % 24):\(index % 60):07 GMT</pubDate>"
            text += "<description>&lt;ol&gt;\(cluster)&lt;/ol&gt;" + String(repeating: " padding", count: 60)
            text +=
                "</description><source url=\"https://publisher\(index % 7).example.com\">Publisher \(index % 7)</source>"
            text += "</item>\n"
        }
        text += "</channel></rss>\n"
        return Array(text.utf8)
    }
}
