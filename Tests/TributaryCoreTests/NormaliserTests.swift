import Foundation
import Testing

@testable import TributaryCore

@Suite struct NormaliserTests {
    private let normaliser = Normaliser()

    /// Text is made plain once, where a feed is read; the normaliser passes it through exactly as the source gave
    /// it. Stripping tags a second time cut `History of the <blink> tag` to `History of the tag`, and decoding
    /// references a second time turned a literal `&amp;` into `&`.
    @Test(arguments: [
        "History of the <blink> tag", "<script> considered harmful", "Using <dialog> in 2026", "Fish &amp; chips",
        "AT&T &unknown; &", "1 < 2 and 3 > 2", "日本語の タイトル",
    ])
    func titlesAndSummariesPassThroughExactly(_ text: String) {
        let item = FeedItem(id: "x", url: "https://example.org/x", title: text, summary: text)
        let output = normaliser.normalise(item, from: "src").item
        #expect(output.title == text)
        #expect(output.summary == text)
    }

    @Test func contentIsLeftAlone() {
        let item = FeedItem(id: "x", contentHTML: "<p>Hi  there</p>", contentText: " raw  text ")
        let output = normaliser.normalise(item, from: "src").item
        #expect(output.contentHTML == "<p>Hi  there</p>")
        #expect(output.contentText == " raw  text ")
    }

    @Test func relativeURLsResolveAgainstTheItemURL() {
        let item = FeedItem(
            id: "x",
            url: "https://blog.example/posts/2026/hello.html",
            externalURL: "../other.html",
            image: "/img/cover.png",
            authors: [FeedItem.Author(name: "Ann", url: "/ann", avatar: "//cdn.example/ann.png")],
            attachments: [FeedItem.Attachment(url: "audio.mp3")]
        )
        let output = normaliser.normalise(item, from: "src")
        #expect(output.warnings.isEmpty)
        #expect(output.item.externalURL == "https://blog.example/posts/other.html")
        #expect(output.item.image == "https://blog.example/img/cover.png")
        #expect(output.item.authors.first?.url == "https://blog.example/ann")
        #expect(output.item.authors.first?.avatar == "https://cdn.example/ann.png")
        #expect(output.item.attachments.map(\.url) == ["https://blog.example/posts/2026/audio.mp3"])
    }

    @Test func aRelativeItemURLResolvesAgainstTheBaseURL() {
        let item = FeedItem(id: "x", url: "posts/a.html", image: "cover.png")
        let output = normaliser.normalise(item, from: "src", baseURL: URL(string: "https://blog.example/feed/atom.xml"))
        #expect(output.item.url == "https://blog.example/feed/posts/a.html")
        #expect(output.item.image == "https://blog.example/feed/posts/cover.png")
    }

    @Test func unresolvableRelativeURLsAreDroppedWithWarnings() {
        let item = FeedItem(
            id: "x",
            url: "/posts/a",
            image: "cover.png",
            attachments: [
                FeedItem.Attachment(url: "ep.mp3"), FeedItem.Attachment(url: "https://cdn.example/ep2.mp3"),
            ]
        )
        let output = normaliser.normalise(item, from: "src")
        #expect(output.item.url == nil)
        #expect(output.item.image == nil)
        #expect(output.item.attachments.map(\.url) == ["https://cdn.example/ep2.mp3"])
        #expect(output.warnings.count == 3)
        #expect(output.warnings.allSatisfy { $0.location == "item x" })
        #expect(output.warnings.first?.message.contains("'/posts/a'") == true)
    }

    @Test func unsafeLinksAreDroppedWithWarnings() {
        let item = FeedItem(
            id: "x",
            url: "javascript:alert(1)",
            externalURL: "data:text/html,<script>x</script>",
            image: "vbscript:msgbox(1)",
            authors: [FeedItem.Author(name: "A", url: "mailto:a@example.com", avatar: "javascript:x")],
            attachments: [FeedItem.Attachment(url: "file:///etc/passwd"), FeedItem.Attachment(url: "https://c/e.mp3")]
        )
        let output = normaliser.normalise(item, from: "src")
        #expect(output.item.url == nil)
        #expect(output.item.externalURL == nil)
        #expect(output.item.image == nil)
        #expect(output.item.authors.first?.url == "mailto:a@example.com")
        #expect(output.item.authors.first?.avatar == nil)
        #expect(output.item.attachments.map(\.url) == ["https://c/e.mp3"])
        #expect(output.warnings.count == 5)
        #expect(output.warnings.allSatisfy { $0.message.contains("javascript:, data:, file: and like URLs") })
    }

    /// A `tag:` or `urn:` address (an item whose guid is its only address) is kept as written: only unsafe schemes go.
    @Test func anAbsoluteURIWithASafeSchemeIsKept() {
        let item = FeedItem(
            id: "x",
            url: "tag:example.com,2005:post-1",
            externalURL: "urn:isbn:0451450523",
            attachments: [FeedItem.Attachment(url: "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a")]
        )
        let output = normaliser.normalise(item, from: "src")
        #expect(output.item.url == "tag:example.com,2005:post-1")
        #expect(output.item.externalURL == "urn:isbn:0451450523")
        #expect(output.item.attachments.count == 1)
        #expect(output.warnings.isEmpty)
    }

    @Test func absoluteURLsAreKeptAsWritten() {
        let item = FeedItem(id: "x", url: "https://Example.org/a?utm_source=x#frag")
        #expect(normaliser.normalise(item, from: "src").item.url == "https://Example.org/a?utm_source=x#frag")
    }

    @Test func tributaryURLsAreNormalisedAndTheirTitlesKept() {
        let item = FeedItem(
            id: "x",
            url: "https://news.example/a",
            tributary: TributaryExtension(
                origin: .init(title: "The <Times>", url: "/"),
                related: [.init(title: "Other take", url: "/b")]
            )
        )
        let tributary = normaliser.normalise(item, from: "src").item.tributary
        #expect(tributary?.origin == .init(title: "The <Times>", url: "https://news.example/"))
        #expect(tributary?.related == [.init(title: "Other take", url: "https://news.example/b")])
    }

    @Test func emptyIDsAreDerivedAndTheSourceIsStamped() {
        let withURL = normaliser.normalise(FeedItem(id: "  ", url: "https://example.org/a"), from: "blog").item
        #expect(withURL.id == "https://example.org/a")
        #expect(withURL.sourceID == "blog")
        let bare = normaliser.normalise(FeedItem(id: "", title: "Hello"), from: "blog").item
        #expect(bare.id == FeedItem(id: "", title: "Hello").derivedID())
        #expect(bare.id.hasPrefix("tributary:"))
    }

    @Test func stampingTheSourceReplacesAWrongOne() {
        let item = FeedItem(id: "x", tributary: TributaryExtension(source: "other", guid: "g"))
        let output = normaliser.normalise(item, from: "mine").item
        #expect(output.sourceID == "mine")
        #expect(output.tributary?.guid == "g")
    }

    @Test func datesPassThroughUnchanged() {
        let date = Date(timeIntervalSince1970: 1_795_326_100.5)
        let item = FeedItem(id: "x", datePublished: date, dateModified: date)
        let output = normaliser.normalise(item, from: "src").item
        #expect(output.datePublished == date)
        #expect(output.dateModified == date)
    }

    @Test(arguments: [
        ("https://a.example/x", nil as String?, "https://a.example/x" as String?),
        ("/x", "https://a.example/feed", "https://a.example/x"),
        ("x y", "https://a.example/dir/", "https://a.example/dir/x%20y"),
        ("//cdn.example/x", nil, "https://cdn.example/x"),
        ("//cdn.example/x", "http://a.example/", "http://cdn.example/x"),
        ("/x", nil, nil),
        ("", "https://a.example/", nil),
        ("mailto:ann@example.org", nil, "mailto:ann@example.org"),
    ])
    func makesURLsAbsolute(text: String, base: String?, expected: String?) {
        #expect(Normaliser.absoluteURL(text, base: base.flatMap { URL(string: $0) }) == expected)
    }

    /// URLs taken without parsing are exactly those parsing keeps as they are.
    @Test(arguments: [
        "https://example.org/a", "http://example.org", "https://example.org/a%20b?q=1&r=%E6%97%A5#frag",
        "https://ex_ample.org/a", "https://example.org:8080/a;b", "https://user:pw@example.org/", "http://",
        "https://example.org/%zz", "https://example.org/a b", "https://example.org/a|b", "https://example.org/[x]",
        "https://example.org/日本", "HTTPS://EXAMPLE.ORG/", "https://example.org/a\\b", " https://example.org/",
        "https://example.org/a%2", "https://example.org/~a/!$&'()*+,;=:@/", "https://a.example/?x=\"y\"",
    ])
    func plainWebURLsNeedNoParsing(_ url: String) {
        if Normaliser.isPlainWebURL(url) {
            #expect(Normaliser.parsedAbsoluteURL(url, base: nil) == url, "\(url)")
        }
        #expect(
            Normaliser.absoluteURL(url, base: URL(string: "https://base.example/dir/"))
                == Normaliser.parsedAbsoluteURL(url, base: URL(string: "https://base.example/dir/")),
            "\(url)"
        )
    }
}
