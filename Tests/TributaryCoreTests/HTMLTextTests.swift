import Testing
import TributaryCore

@Suite struct HTMLTextTests {
    @Test func stripsTagsButKeepsLessThanInText() {
        #expect(HTMLText.stripTags("<p>a < b</p>") == " a < b ")
        #expect(HTMLText.stripTags("x<3") == "x<3")
    }

    @Test func inlineTagsJoinWordsAndOtherTagsSeparateThem() {
        #expect(HTMLText.stripTags("<b>Bo</b>ld<br>next</p><p>para") == "Bold next  para")
        #expect(HTMLText.stripTags("<a href=\"/x\">link</a>ed") == "linked")
    }

    @Test func aStrayClosingScriptTagRemovesOnlyItself() {
        #expect(HTMLText.stripTags("a</script>b") == "a b")
    }

    @Test func dropsAnUnclosedTrailingTag() {
        #expect(HTMLText.stripTags("Title <span class=") == "Title ")
    }

    @Test func stripsStyleBodiesAndComments() {
        #expect(HTMLText.stripTags("a<style>p{}</style>b<!-- c -->d<SCRIPT>x()</script>e") == "a bd e")
    }

    @Test func decodesEntitiesOnce() {
        #expect(HTMLText.decodeEntities("&amp;lt;b&amp;gt;") == "&lt;b&gt;")
        #expect(HTMLText.decodeEntities("&#65;&#x42;&#X43;") == "ABC")
        #expect(HTMLText.decodeEntities("&#xZZ; &copy;") == "&#xZZ; \u{00A9}")
    }
}
