import Testing

@testable import FeedParser

@Suite struct FeedTextTests {
    private func resolve(_ html: String) -> String {
        FeedText.resolvingRelativeURLs(html) {
            URLResolver.resolve($0, against: "https://example.com/blog/post/") ?? $0
        }
    }

    @Test func relativeLinksInContentBecomeAbsolute() {
        #expect(resolve("<a href=\"/x\">x</a>") == "<a href=\"https://example.com/x\">x</a>")
        #expect(resolve("<img src='a.png' alt=\"\">") == "<img src='https://example.com/blog/post/a.png' alt=\"\">")
        #expect(resolve("<A HREF=\"../up\">") == "<A HREF=\"https://example.com/blog/up\">")
        #expect(resolve("<a\nhref=\"y\">") == "<a\nhref=\"https://example.com/blog/post/y\">")
    }

    @Test func absoluteFragmentAndOtherAttributesAreLeftAlone() {
        let unchanged = [
            "<a href=\"https://news.google.com/rss/articles/CBMi?oc=5\">x</a>", "<a href=\"#top\">",
            "<a href=\"mailto:a@b.c\">",
            "<a data-href=\"x\">", "<p>href=\"x\"</p>", "no links at all", "<a href=\"unterminated", "",
        ]
        for html in unchanged { #expect(resolve(html) == html) }
    }

    @Test(arguments: [
        ("  Hello,\n\tworld  ", "Hello, world"), ("<b>Bold</b> &amp; <i>italic</i>", "Bold & italic"),
        ("a < b &lt; c", "a < b < c"), ("caf&eacute; &#233; &#xE9;", "café é é"), ("x&nbsp;&nbsp;y", "x y"),
        ("<p>one</p><p>two</p>", "one two"), ("<script>alert(1)</script>shown", "shown"),
        ("&bogus; &amp", "&bogus; &amp"),
        ("<a href=\"x>y\">link</a>", "link"), ("plain", "plain"), ("", ""),
    ])
    func plainTextStripsTagsDecodesEntitiesAndCollapsesWhitespace(_ input: String, _ expected: String) {
        #expect(FeedText.plainText(Array(input.utf8)) == expected)
    }

    @Test func doubleEscapedHTMLIsDetected() {
        let twice = Array("&lt;p&gt;Hi&lt;/p&gt;".utf8)
        let once = Array("<p>Hi &lt; there</p>".utf8)
        twice.withUnsafeBufferPointer { #expect(FeedText.isDoubleEscaped($0)) }
        once.withUnsafeBufferPointer { #expect(!FeedText.isDoubleEscaped($0)) }
        twice.withUnsafeBufferPointer { #expect(FeedText.decodeEntities($0) == Array("<p>Hi</p>".utf8)) }
    }
}
