import FeedParser
import Foundation
import Testing
import TributaryCore

/// `tributary parse` on feeds long enough that the parsing thread hands its items to the writer thread in many
/// batches and waits for it (the queue between them holds two), compared with the parser library itself.
///
/// Serialized for the reason ``EndToEndTests`` is: each test blocks a thread while the child process runs.
@Suite(.serialized) struct ParseCommandTests {
    private static let baseURL = URL(string: "https://example.org/news/feed.xml")!

    /// An RSS feed of `count` items whose descriptions hold what the sanitizer must take out (script, an event
    /// handler, a `javascript:` image) and a relative link it must resolve; `item` replaces the item at a position.
    private static func feed(items count: Int, prolog: String = "", item: (Int) -> String? = { _ in nil }) -> Data {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(prolog)<rss version=\"2.0\"><channel><title>Long</title>"
        for index in 0..<count {
            if let replacement = item(index) {
                xml += replacement
                continue
            }
            let description =
                "<p>Story \(index) <script>alert(\(index))</script><a href=\"/story/\(index)?a=1&b=2\" "
                + "onclick=\"steal()\">more</a> &amp; <img src=\"javascript:alert(1)\"> "
                + "<font color=\"#6f6f6f\">Wire</font></p>"
            xml +=
                "<item><title>Story \(index)</title><link>https://example.org/story/\(index)</link>"
                + "<guid>story-\(index)</guid><pubDate>Sun, 22 Nov 2026 05:38:02 GMT</pubDate>"
                + "<description>\(escaped(description))</description></item>\n"
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func items(in output: String) throws -> [FeedItem] {
        try JSONDecoder().decode(JSONFeed.self, from: Data(output.utf8)).items
    }

    @Test func aLongFeedComesOutWholeInOrderAndSanitizedAsByTheParser() throws {
        let workspace = try Workspace()
        let data = Self.feed(items: 2_000)
        try data.write(to: workspace.url.appendingPathComponent("long.xml"))
        let result = try TributaryProcess.run(
            ["parse", "long.xml", "--base-url", Self.baseURL.absoluteString],
            in: workspace.url
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try JSONFeedValidator.problems(in: result.standardOutput) == [])
        let printed = try Self.items(in: result.standardOutput)
        // The library sanitizes inside the parser, on one thread: `parse` must print exactly what it returns.
        let parsed = try FeedParser.parse(
            data: data,
            options: FeedParserOptions(baseURL: Self.baseURL, sourceID: "input")
        )
        // Relative permalink guids, resolved against the base URL for the id (the guid stays as written).
        #expect(printed.map(\.id) == (0..<2_000).map { "https://example.org/news/story-\($0)" })
        #expect(printed.map { $0.tributary?.guid } == (0..<2_000).map { "story-\($0)" })
        #expect(printed.map(\.id) == parsed.items.map(\.id))
        // Items are built on either thread, batch by batch, as the threads keep pace: every field must be the same.
        #expect(printed.map(\.url) == parsed.items.map(\.url))
        #expect(printed.map(\.title) == parsed.items.map(\.title))
        #expect(printed.map(\.datePublished) == parsed.items.map(\.datePublished))
        #expect(printed.map(\.tributary) == parsed.items.map(\.tributary))
        let mismatch = zip(printed, parsed.items).first { $0.contentHTML != $1.contentHTML }
        #expect(mismatch == nil, "first item sanitized differently: \(String(describing: mismatch))")
        let first = try #require(printed.first?.contentHTML)
        #expect(
            first
                == "<p>Story 0 <a href=\"https://example.org/story/0?a=1&amp;b=2\">"
                + "more</a> &amp;  Wire</p>"
        )
    }

    /// Long content keeps the writer behind the parser, so the parsing thread builds batches too (when the queue is
    /// full, and at the end): whichever thread builds an item, `parse` prints what the library returns. Entries
    /// without an id or a link get an id made from their safe content.
    @Test func aFeedWithLongContentPrintsTheParsersItemsWhicheverThreadBuildsThem() throws {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        xml += "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"https://blog.example.org/posts/\">"
        xml += "<title>Blog</title>"
        let paragraph =
            "<p>Text with <a href=\"../about\" onclick=\"steal()\">a relative link</a>, <code>code()</code>, "
            + "<img src=\"img/a.png\" alt=\"an image\"> and 日本語のテキスト.</p><script>alert(1)</script>"
        for index in 0..<600 {
            // Every tenth entry has neither id nor link, nor a date.
            let identity =
                index % 10 == 0
                ? ""
                : "<id>tag:blog.example.org,2026:\(index)</id><link href=\"\(index)/\"/>"
                    + "<updated>2026-11-22T05:41:40Z</updated>"
            xml +=
                "<entry>\(identity)<title type=\"html\">Post &lt;b&gt;\(index)&lt;/b&gt;</title>"
                + "<summary>Summary \(index)</summary><content type=\"html\">"
                + Self.escaped(String(repeating: paragraph, count: 12)) + "</content></entry>\n"
        }
        let data = Data((xml + "</feed>").utf8)
        let workspace = try Workspace()
        try data.write(to: workspace.url.appendingPathComponent("blog.xml"))
        let result = try TributaryProcess.run(
            ["parse", "blog.xml", "--base-url", Self.baseURL.absoluteString],
            in: workspace.url
        )
        #expect(result.status == 0, "\(result.standardError)")
        let printed = try Self.items(in: result.standardOutput)
        let parsed = try FeedParser.parse(
            data: data,
            options: FeedParserOptions(baseURL: Self.baseURL, sourceID: "input")
        ).items
        #expect(printed.count == 600)
        #expect(printed.filter { $0.id.hasPrefix("tributary:") }.count == 60)
        #expect(printed.map(\.id) == parsed.map(\.id))
        let mismatch = zip(printed, parsed).first { $0 != $1 }
        #expect(mismatch == nil, "first item printed differently: \(String(describing: mismatch))")
        let content = try #require(printed.last?.contentHTML)
        #expect(content.contains("<a href=\"https://blog.example.org/about\">"))
        #expect(content.contains("<img src=\"https://blog.example.org/posts/img/a.png\""))
        #expect(!content.contains("script") && !content.contains("onclick"))
    }

    @Test func aFailureAfterManyItemsStillPrintsACompleteDocumentOfTheItemsBefore() throws {
        var prolog = "<!DOCTYPE rss [<!ENTITY lol0 \"lollollollollollollollollollol\">"
        for level in 1...12 {
            prolog += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level - 1);", count: 10))\">"
        }
        prolog += "]>"
        // The bomb goes off well after the first chunks of 64 KiB, whose items are printed by then.
        let data = Self.feed(items: 1_000, prolog: prolog) { index in
            index == 900 ? "<item><title>&lol12;</title><guid>bomb</guid></item>" : nil
        }
        let workspace = try Workspace()
        try data.write(to: workspace.url.appendingPathComponent("bomb.xml"))
        let result = try TributaryProcess.run(["parse", "bomb.xml"], in: workspace.url)
        #expect(result.status == 1)
        #expect(result.standardError.contains("entity expansion limit exceeded"), "\(result.standardError)")
        #expect(try JSONFeedValidator.problems(in: result.standardOutput) == [])
        let printed = try Self.items(in: result.standardOutput)
        #expect(printed.count >= 100)
        #expect(printed.map(\.id) == (0..<printed.count).map { "story-\($0)" })
    }
}
