import FeedParser
import Foundation
import Testing
import TributaryCore

/// The adapters that read `content_html` pass it through the sanitizer (JSON Feed files here; the exec and push
/// sources use the same call on their items).
@Suite struct AdapterSanitizingTests {
    @Test func jsonFeedReaderSanitizesContentHTMLAgainstTheItemsPage() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "t", "home_page_url": "https://site.example/",
             "items": [
               {"id": "1", "url": "https://site.example/posts/1.html",
                "content_html": "<p onclick=\\"x()\\">Hi <a href=\\"more.html\\">more</a><script>bad()</script></p>"},
               {"id": "2", "content_html": "<img src=\\"/i.png\\"><a href=\\"javascript:alert(1)\\">x</a>"},
               {"id": "3", "content_text": "plain <b>text</b> stays"}
             ]}
            """
        let (feed, _) = try JSONFeedDocumentReader.read(data: Data(json.utf8), path: nil, sourceID: "t")
        try #require(feed.items.count == 3)
        #expect(
            feed.items[0].contentHTML
                == "<p>Hi <a href=\"https://site.example/posts/more.html\">more</a></p>"
        )
        #expect(feed.items[1].contentHTML == "<img src=\"https://site.example/i.png\" /><a>x</a>")
        #expect(feed.items[2].contentHTML == nil)
        #expect(feed.items[2].contentText == "plain <b>text</b> stays")
    }
}
