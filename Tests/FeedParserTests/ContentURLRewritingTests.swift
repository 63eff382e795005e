import Testing
import TributaryCore

@testable import FeedParser

/// FeedText's URL rewriting with the parser's resolver; its text rules are tested in TributaryCoreTests.
@Suite struct ContentURLRewritingTests {
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
        // After a link shown as text, a real one is still rewritten.
        #expect(
            resolve("<p>&lt;a href=\"z\"&gt;</p><a class=\"c\" href=\"/real\">r</a>")
                == "<p>&lt;a href=\"z\"&gt;</p><a class=\"c\" href=\"https://example.com/real\">r</a>"
        )
    }

    @Test func absoluteFragmentAndOtherAttributesAreLeftAlone() {
        let unchanged = [
            "<a href=\"https://news.google.com/rss/articles/CBMi?oc=5\">x</a>", "<a href=\"#top\">",
            "<a href=\"mailto:a@b.c\">",
            "<a data-href=\"x\">", "<p>href=\"x\"</p>", "no links at all", "<a href=\"unterminated", "",
            // Markup shown as text (a code sample): not a link (enekoalonso.com's post printing an issue's link).
            "<p>&lt;a href=\"issues/1\"&gt;x&lt;/a&gt; and <code>see src=\"foo.png\"</code></p>",
            "<pre>(see &lt;a target=\"</span>_blank\" href=\"</span><span>https</span>://github.com/x\"&gt;</pre>",
        ]
        for html in unchanged { #expect(resolve(html) == html) }
    }
}
