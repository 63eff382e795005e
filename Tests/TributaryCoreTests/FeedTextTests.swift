import Testing
import TributaryCore

@Suite struct FeedTextTests {
    @Test(arguments: [
        ("  Hello,\n\tworld  ", "Hello, world"), ("<b>Bold</b> &amp; <i>italic</i>", "Bold & italic"),
        ("a < b &lt; c", "a < b < c"), ("caf&eacute; &#233; &#xE9;", "café é é"), ("x&nbsp;&nbsp;y", "x\u{A0}\u{A0}y"),
        // A no-break space is a character (French `Bonjour&nbsp;!`), trimmed only at either end.
        ("&#160; Bonjour&nbsp;! &nbsp;", "Bonjour\u{A0}!"), ("testing &#160; entity", "testing \u{A0} entity"),
        ("<p>one</p><p>two</p>", "one two"), ("<script>alert(1)</script>shown", "shown"),
        ("&bogus; &amp", "&bogus; &"), ("<a href=\"x>y\">link</a>", "link"), ("plain", "plain"), ("", ""),
        ("x<3", "x<3"), ("<b>Bo</b>ld<br>next</p><p>para", "Bold next para"), ("<a href=\"/x\">link</a>ed", "linked"),
        ("a</script>b", "a b"), ("a<style>p{}</style>b<!-- c > d -->d<SCRIPT>x()</script>e", "a bd e"),
        // An unclosed `<` is text: nothing is lost.
        ("Title <span class=", "Title <span class="),
        // A reference to a control character is left out; one to a tab or a line break is white space.
        ("o&#x1F;ffre t&#7;i&#127;t", "offre tit"), ("a&#9;b&#x0A;&#13;c", "a b c"),
        // A reference to a C1 control is the windows-1252 character it stands for, as HTML reads it (RSSOwl's saved
        // feeds: `Wavesat&amp;#146;s`); the five positions windows-1252 leaves empty stay controls.
        ("Wavesat&#146;s Feud&#153; &#x80;5 &#147;q&#148;", "Wavesat’s Feud™ €5 “q”"), ("a&#129;b", "a\u{81}b"),
    ])
    func plainTextStripsTagsDecodesEntitiesAndCollapsesWhitespace(_ input: String, _ expected: String) {
        #expect(FeedText.plainText(Array(input.utf8)) == expected)
        #expect(FeedText.plainText(input) == expected)
    }

    /// Runs of plain bytes are copied sixteen bytes at a time: markup, references and white space at any place in
    /// and around a run longer than one step are read as they are alone.
    @Test(arguments: [
        ("<b>", ""), ("&amp;", "&"), (" \t\n ", " "), ("&#160;", "\u{A0}"), ("\u{A0}", "\u{A0}"), ("<br>", " "),
        ("a < b", "a < b"), ("&bogus;", "&bogus;"), ("é", "é"), ("©", "©"), ("\u{1}", "\u{1}"), ("<!-- c -->", ""),
    ])
    func plainRunsAroundMarkupAtAnyPlace(_ inserted: String, _ reading: String) {
        for before in 0...40 {
            let head = String(repeating: "x", count: before)
            let tail = String(repeating: "y", count: 40 - before)
            var expected = head + reading + tail
            // White space (and a no-break space) at either end is trimmed.
            while let first = expected.first, first == " " || first == "\u{A0}" { expected.removeFirst() }
            while let last = expected.last, last == " " || last == "\u{A0}" { expected.removeLast() }
            #expect(FeedText.plainText(head + inserted + tail) == expected, "\(before) bytes before \(inserted)")
        }
    }

    /// Every block and the line break separate words; every other element does not, whatever the length of its name.
    @Test func separatingWordsFollowsTheListOfBlocks() {
        for name in HTMLElements.blocks { #expect(HTMLElements.separatesWords(name), "\(name)") }
        #expect(HTMLElements.separatesWords("br"))
        for name in ["a", "b", "i", "q", "s", "u", "em", "tt", "span", "strong", "sup", "x", "blockquotes"] {
            #expect(!HTMLElements.separatesWords(name), "\(name)")
        }
    }

    /// In text, HTML reads a legacy name (`&amp`, `&copy`, `&eacute`: HTML 4's Latin-1 ones) without its `;`, the
    /// longest that starts the name, as browsers and Python's `html.unescape` (feedparser's reading) do; other names
    /// need theirs.
    @Test(arguments: [
        ("AT&amp T", "AT& T"), ("?page=1&copy=2;mode=x &amp; done", "?page=1©=2;mode=x & done"),
        ("caf&eacute au lait", "café au lait"), ("&ampx &notit; &AMP &COPY2026", "&x ¬it; & ©2026"),
        ("&hellip &apos &bogus &Amp", "&hellip &apos &bogus &Amp"), ("a &lt b &gt c", "a < b > c"),
    ])
    func legacyNamesWithoutASemicolonAreDecodedInText(_ input: String, _ expected: String) {
        #expect(FeedText.plainText(input) == expected)
    }

    @Test func legacyNamesWithoutASemicolonAreLeftInHTMLKeptAsHTML() {
        #expect(FeedText.decodeEntities("<a href=\"?a=1&copy=2\">&amp;copy</a>") == "<a href=\"?a=1&copy=2\">&copy</a>")
    }

    @Test func decodesEntitiesOnce() {
        #expect(FeedText.decodeEntities("&amp;lt;b&amp;gt;") == "&lt;b&gt;")
        #expect(FeedText.decodeEntities("&#65;&#x42;&#X43;") == "ABC")
        #expect(FeedText.decodeEntities("it&#146;s &#x9D;") == "it’s \u{9D}")
        #expect(FeedText.decodeEntities("&#xZZ; &copy; &Eacute;&hellip;&apos;") == "&#xZZ; \u{00A9} É…'")
    }

    @Test func plainTextWithoutStrippingKeepsLiteralMarkup() {
        #expect(FeedText.plainText("Using &lt;dialog&gt; in  2026", stripTags: false) == "Using <dialog> in 2026")
        #expect(FeedText.plainText("History of the <blink> tag", stripTags: false) == "History of the <blink> tag")
    }

    /// The Unicode spaces Python's `str.strip` trims are trimmed at either end of plain text, as feedparser trims a
    /// title (habr.com ends titles with U+2028, Japanese feeds with U+3000); inside the text they stay.
    @Test(arguments: [
        ("Title\u{2028}", "Title"), ("\u{3000}旅行記\u{3000}京都編\u{3000}", "旅行記\u{3000}京都編"),
        (" a \u{2029}\u{00A0} ", "a"), ("\u{2003}\u{200A}x\u{202F}\u{205F}\u{1680}\u{0085}", "x"),
        ("a\u{2028}b", "a\u{2028}b"), ("\u{2028}", ""), ("&#8232;Title&#x3000;", "Title"),
        ("\u{200B}zero width", "\u{200B}zero width"), ("café\u{00E9}", "café\u{00E9}"),
    ])
    func unicodeSpacesAreTrimmedAtTheEnds(_ input: String, _ expected: String) {
        #expect(FeedText.plainText(input) == expected)
    }

    @Test func collapsingWhitespaceChangesNothingElse() {
        #expect(
            FeedText.collapseWhitespace("  <script> considered\u{00A0} harmful\r\n")
                == "<script> considered\u{00A0} harmful"
        )
        // The parser's rule: an ideographic space is part of a Japanese title, not white space to fold.
        #expect(FeedText.collapseWhitespace("旅行記\u{3000}京都編") == "旅行記\u{3000}京都編")
        #expect(FeedText.collapseWhitespace("AT&amp;T") == "AT&amp;T")
    }

    @Test func decodingEntitiesOnceTurnsEscapedMarkupIntoMarkup() {
        let twice = Array("&lt;p&gt;Hi&lt;/p&gt;".utf8)
        twice.withUnsafeBufferPointer { #expect(FeedText.decodeEntities($0) == Array("<p>Hi</p>".utf8)) }
    }

    /// feedparser's guess for a field that is plain text by its format: an end tag or a reference (or a line break
    /// or image tag), every tag an HTML element's, every named reference an HTML one.
    @Test(arguments: [
        ("<p>Show notes</p>", true), ("Tom &amp; Jerry", true), ("<b>bold</B> text", true), ("caf&#233;", true),
        ("line<br>break", true), ("<img src=\"x.png\"> cover", true), ("fscklog <http://www.fscklog.com/>", false),
        ("a < b", false),
        ("<p>notes</p> <madeup>x</madeup>", false), ("&bogus; and </p>", false), ("just text", false),
        ("Links: <http://a.example/> and <a href=\"x\">b</a>", false),
    ])
    func plainTextLooksLikeHTMLAsFeedparserGuesses(text: String, html: Bool) {
        Array(text.utf8).withUnsafeBufferPointer { #expect(FeedText.looksLikeHTML($0) == html, "\(text)") }
    }

    @Test(arguments: [
        ("BrÃ¸ndby", "Brøndby"),  // UTF-8 read as Latin-1 on its way into the feed
        ("\u{E2}\u{80}\u{A6}", "…"),  // &#226;&#128;&#166;
        ("don\u{92}t", "don’t"),  // a C1 control for windows-1252's quote
        ("\u{80}5 and \u{96} dash", "€5 and – dash"),
        ("Ã©tÃ© \u{E2}\u{80}\u{99}", "été ’"),
        // Judged without the white space at its ends (feedparser strips first), which stays as it was.
        (" BrÃ¸ndby\u{A0}", " Brøndby\u{A0}"),
        ("BrÃ¸ndby airport\u{C2}\u{A0}x", "Brøndby airport\u{A0}x"),
    ])
    func mixedUpEncodingsAreRepaired(_ broken: String, _ repaired: String) {
        var broken = broken
        let result = broken.withUTF8 { FeedText.repairedEncoding($0) }
        #expect(result.map { String(decoding: $0, as: UTF8.self) } == repaired)
    }

    @Test(arguments: [
        "plain ASCII", "café au lait", "Ünïcödé ✓ 日本語", "naïve Ã alone", "\u{81} is unmapped", "",
        // `Â` then a no-break space at the end: without the space, `Â` alone is no UTF-8 (feedparser keeps it).
        "airport\u{C2}\u{A0}", "\u{A0}\u{A0}",
    ])
    func textThatIsNotMixedUpIsLeftAlone(_ text: String) {
        var text = text
        #expect(text.withUTF8 { FeedText.repairedEncoding($0) } == nil)
    }

    /// Text cut inside a UTF-8 sequence (a lone 0xC2 before an ASCII byte, as a truncated document leaves it) is
    /// not a C1 control: found by the parser's fuzz target, which trapped on it.
    @Test(arguments: [[0xC2, 0x41] as [UInt8], [0x41, 0xC2, 0x41], [0xC2, 0x92, 0xE2, 0x80, 0xA6, 0xC2, 0x41]])
    func aCutSequenceIsNotAC1Control(_ bytes: [UInt8]) {
        let result = bytes.withUnsafeBufferPointer { FeedText.repairedEncoding($0) }
        if bytes.count == 7 {
            // The real C1 control (0x92) is still repaired; the cut one is left as it is.
            #expect(result == [0xE2, 0x80, 0x99, 0xE2, 0x80, 0xA6, 0xC2, 0x41])
        } else {
            #expect(result == nil)
        }
    }

    /// Bidi overrides leave titles; C1 controls stay as written (feedparser keeps them; every output removes or
    /// escapes them itself).
    @Test func bidiOverridesLeaveTitlesAndC1ControlsStay() {
        #expect(FeedText.withoutFormatControls("invoice\u{202E}gpj.exe") == "invoicegpj.exe")
        #expect(FeedText.withoutFormatControls("\u{2066}a\u{2069} \u{85}b\u{9D}") == "a \u{85}b\u{9D}")
        #expect(FeedText.withoutFormatControls("שלום \u{200F}world – ok") == "שלום \u{200F}world – ok")
        #expect(FeedText.withoutFormatControls("plain") == "plain")
    }

    @Test(arguments: [
        ("https://user:s3cret@feeds.example/a.xml: HTTP status 401", "https://feeds.example/a.xml: HTTP status 401"),
        ("see http://a@b.example/x and https://u:p@c.example?q=1", "see http://b.example/x and https://c.example?q=1"),
        ("mail me@example.com about https://example.com/a@b", "mail me@example.com about https://example.com/a@b"),
        ("no url here", "no url here"),
    ])
    func credentialsInURLsAreLeftOut(_ text: String, _ expected: String) {
        #expect(URLCredentials.redacted(text) == expected)
        let error = SourceError(
            sourceID: "s",
            reason: .httpStatus(url: "https://user:s3cret@feeds.example/a", status: 401)
        )
        #expect(error.description == "source 's': https://feeds.example/a: HTTP status 401")
        #expect(SourceWarning(text).message == expected)
    }
}
