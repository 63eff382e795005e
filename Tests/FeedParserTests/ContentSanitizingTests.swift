import FeedParser
import Foundation
import HTMLSanitizer
import Testing
import TributaryCore

/// By default the parser hands out `content_html` only through the HTML sanitizer (SRC-7). Relative URLs in it are
/// resolved against the `xml:base` chain, then the feed's URL, as feedparser does.
@Suite struct ContentSanitizingTests {
    static let feed = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>
        <item xml:base="https://blog.example.org/posts/one/"><title>based</title><link>https://blog.example.org/p/1</link>
        <guid>one</guid>
        <content:encoded><![CDATA[<p onclick="steal()">Hi <a href="../two/">next</a>\
        <script>document.title='pwned'</script><img src="chart.png" onerror="x()"></p>\
        <a href="javascript:alert(1)">bad</a><iframe src="https://evil.example/"></iframe>]]></content:encoded></item>
        <item><title>unbased</title><link>https://elsewhere.example/p/2</link><guid isPermaLink="false">two</guid>
        <description>&lt;a href="about.html"&gt;About&lt;/a&gt;&lt;style&gt;body{}&lt;/style&gt;</description></item>
        </channel></rss>
        """

    private static func parse(_ options: FeedParserOptions) throws -> [FeedItem] {
        let parser = try StreamingFeedParser(options: options)
        return try parser.parse(Array(feed.utf8)) + parser.finish()
    }

    @Test func theDefaultOptionsSanitizeContentHTML() throws {
        let items = try Self.parse(
            FeedParserOptions(baseURL: URL(string: "https://feeds.example.org/feed.xml"), sourceID: "s")
        )
        let based = try #require(items.first?.contentHTML)
        #expect(
            based
                == #"<p>Hi <a href="https://blog.example.org/posts/two/">next</a><img src="https://blog.example.org/posts/one/chart.png" /></p><a>bad</a>"#
        )
        // Without an xml:base, relative URLs resolve against the feed's URL.
        let unbased = try #require(items.last?.contentHTML)
        #expect(
            unbased
                == #"<a href="https://feeds.example.org/about.html">About</a>"#
        )
    }

    @Test func withoutASanitizerTheHTMLIsKeptAsTheFeedWroteIt() throws {
        let items = try Self.parse(FeedParserOptions(sourceID: "s", sanitizer: nil))
        #expect(items.first?.contentHTML?.contains("<script>") == true)
        #expect(items.last?.contentHTML == #"<a href="about.html">About</a><style>body{}</style>"#)
    }
}
