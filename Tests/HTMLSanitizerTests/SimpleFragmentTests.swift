import Foundation
import Testing

@testable import HTMLSanitizer

/// The directly read subset (``SimpleFragmentReader``) against libxml2: whenever a fragment is read directly, the
/// output must be exactly the one libxml2's tree gives.
@Suite struct SimpleFragmentTests {
    private static let direct = HTMLSanitizer()
    private static let libxml2 = HTMLSanitizer(options: .init(readsSimpleFragmentsDirectly: false))
    private static let base = URL(string: "https://example.org/posts/item.html")

    /// Whether the reader takes `html` (as the sanitizer's first pass sees it).
    private static func isReadDirectly(_ html: String, base: URL? = base) -> Bool {
        let walker = TreeWalker(options: direct.options, base: URLPolicy.usableBase(base))
        return SimpleFragmentReader.render(InputBounds.prepare(html, maximumBytes: 1 << 20), walker: walker) != nil
    }

    private static func expectSameAsLibxml2(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for base in [base, nil] {
            let fast = direct.sanitize(html, baseURL: base)
            let reference = libxml2.sanitize(html, baseURL: base)
            #expect(fast == reference, "\(html.debugDescription)", sourceLocation: sourceLocation)
            // A fragment read directly skips the settling re-parse: its output must be stable all the same.
            #expect(
                direct.sanitize(fast, baseURL: base) == fast,
                "\(html.debugDescription)",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test func googleNewsDescriptionsAreReadDirectly() {
        let single =
            "<a href=\"https://news.google.com/rss/articles/CBMiX?oc=5\" target=\"_blank\">Title &amp; more</a>"
            + "&nbsp;&nbsp;<font color=\"#6f6f6f\">Reuters</font>"
        let cluster =
            "<ol><li><a href=\"https://news.google.com/rss/articles/A?oc=5\" target=\"_blank\">一つ目</a>&nbsp;&nbsp;"
            + "<font color=\"#6f6f6f\">朝日新聞</font></li><li><a href=\"https://news.google.com/rss/articles/B?oc=5\" "
            + "target=\"_blank\">Two</a>&nbsp;&nbsp;<font color=\"#6f6f6f\">CNN</font></li></ol>"
        for html in [single, cluster] {
            #expect(Self.isReadDirectly(html))
            Self.expectSameAsLibxml2(html)
        }
        #expect(
            Self.direct.sanitize(single, baseURL: nil)
                == "<a href=\"https://news.google.com/rss/articles/CBMiX?oc=5\">"
                + "Title &amp; more</a>\u{A0}\u{A0}Reuters"
        )
    }

    /// HTML reads a legacy name written without its `;` (`&copy 2005`, `&quotHi`: rome's `at.xml`, `&amp;quotEdward`
    /// in an iTunes summary) as its character, the longest that starts the run of letters and digits; libxml2 keeps
    /// it as written (`&amp;quotHi` in the output, shown as `&quotHi`). In an attribute value it is read only when no
    /// letter, digit or `=` follows (`?a=1&copy=2` is a query string). Both readers read them alike.
    @Test func legacyReferencesWithoutSemicolonAreReadAsHTMLReadsThem() {
        let cases: [(html: String, expected: String)] = [
            ("<p>She said &quotHi&quot &copy 2005</p>", "<p>She said \"Hi\" © 2005</p>"),
            (
                "<p>&copy2026 &notit &frac12 caf&eacute &AMP &ltb&gt &nbspx</p>",
                "<p>©2026 ¬it ½ café &amp; &lt;b&gt; \u{A0}x</p>"
            ),
            ("<p>AT&T &bogus &amp;amp</p>", "<p>AT&amp;T &amp;bogus &amp;amp</p>"),
            (
                "<a href=\"https://e.example/?a=1&copy=2&reg3&amp x\" title=\"&copy 2005 &quotq\">l</a>",
                "<a href=\"https://e.example/?a=1&amp;copy=2&amp;reg3&amp;%20x\" title=\"© 2005 &amp;quotq\">l</a>"
            ),
        ]
        let walker = TreeWalker(options: Self.direct.options, base: nil)
        for (html, expected) in cases {
            // The direct reader takes them as the sanitizer hands them to it (not through `InputBounds.cut`).
            #expect(SimpleFragmentReader.render(InputBounds.clean(html, maximumBytes: 1 << 20), walker: walker) != nil)
            Self.expectSameAsLibxml2(html)
            #expect(Self.direct.sanitize(html, baseURL: nil) == expected)
        }
        // Where the direct reader gives up (a table without its end tags), libxml2's path reads them the same way.
        let table = "<table><tr><td>&copy 2005 &quotq</table><a href=\"/?a=1&copy=2\" title=\"&reg x\">l</a>"
        #expect(!Self.isReadDirectly(table))
        #expect(
            Self.direct.sanitize(table, baseURL: nil)
                == "<table><tr><td>© 2005 \"q</td></tr></table><a href=\"/?a=1&amp;copy=2\" title=\"® x\">l</a>"
        )
    }

    /// `</` followed by anything but a letter opens a bogus comment to the next `>` in HTML (`</>` is nothing):
    /// lowendbox.com's `</ br>` showed `br>` through libxml2, which drops the `</` and keeps the rest as text.
    @Test func anEndTagWithoutANameIsABogusComment() {
        for html in ["<p>two</ p>three</ >four</1>five</></p>", "<p>a</ br>b</p>"] {
            Self.expectSameAsLibxml2(html)
        }
        #expect(
            Self.direct.sanitize("<p>two</ p>three</ >four</1>five</></p>", baseURL: nil) == "<p>twothreefourfive</p>"
        )
        #expect(Self.direct.sanitize("<p>a</ br>b</p>", baseURL: nil) == "<p>ab</p>")
        #expect(Self.direct.sanitize("<p>a &lt;/ b</p>", baseURL: nil) == "<p>a &lt;/ b</p>")
    }

    /// `&#` without digits is text in HTML (a post's JavaScript, `` `&#${code};` ``), where libxml2 dropped the `&#`;
    /// read directly or through libxml2, in text and in attribute values, alike.
    @Test func anAmpersandAndHashWithoutDigitsIsText() {
        for html in [
            "<p>map(c => `&#${c.charCodeAt(0)};`)</p>", "a &#; b &#x; c &#xZ d &# e &#65; f &#x41;",
            "<p title=\"&#x &#; &#66;\">t</p>", "<table><tr><td>a &#; b</td></tr></table>",
        ] {
            Self.expectSameAsLibxml2(html)
        }
        #expect(
            Self.direct.sanitize("a &#; b &#x; c &#xZ d &# e &#65; f", baseURL: nil)
                == "a &amp;#; b &amp;#x; c &amp;#xZ d &amp;# e A f"
        )
        #expect(
            Self.libxml2.sanitize("<p title=\"&#x &#66;\">a &#; b &#xZ c &#x41;</p>", baseURL: nil)
                == "<p title=\"&amp;#x B\">a &amp;#; b &amp;#xZ c A</p>"
        )
    }

    /// `<!` followed by anything but `--` or `DOCTYPE` opens a bogus comment to the next `>` in HTML: an escaped
    /// CDATA wrapper or Word's `<![if !supportLists]>` markers are hidden, where libxml2 showed them as text.
    @Test func aMarkupDeclarationIsABogusComment() {
        #expect(Self.libxml2.sanitize("<p>a</p><![CDATA[inner]]> tail", baseURL: nil) == "<p>a</p> tail")
        #expect(
            Self.libxml2.sanitize(
                "<p class=\"MsoListParagraph\"><![if !supportLists]>· <![endif]>One</p>",
                baseURL: nil
            )
                == "<p>· One</p>"
        )
        #expect(
            Self.libxml2.sanitize("<p>x<!y>z</p><!DOCTYPE html><p>after</p>", baseURL: nil) == "<p>xz</p><p>after</p>"
        )
        #expect(Self.direct.sanitize("<p>x<!y>z</p>", baseURL: nil) == "<p>xz</p>")
    }

    /// `</br>` is a line break to HTML (an indexer's feed writes `</b></br><b>Category:`); libxml2 dropped it.
    @Test func anEndTagBRIsABreak() {
        for html in ["<b>a</b></br><b>Category:</b> Movies", "Line one</br>Line two</BR >Line three</br/>"] {
            Self.expectSameAsLibxml2(html)
        }
        #expect(
            Self.libxml2.sanitize("Line one</br>Line two</BR >Line three", baseURL: nil)
                == "Line one<br />Line two<br />Line three"
        )
        #expect(Self.libxml2.sanitize("a</brx>b</b>", baseURL: nil) == "ab")
    }

    /// `<!-->` and `<!--->` are empty comments to HTML; libxml2 read on to the next `-->` and lost the text between.
    @Test func abruptlyClosedCommentsAreEmpty() {
        #expect(
            Self.libxml2.sanitize("<p>Before <!--> kept text</p><p>More <!---> still kept</p>", baseURL: nil)
                == "<p>Before  kept text</p><p>More  still kept</p>"
        )
        #expect(Self.libxml2.sanitize("<p>a<!-- real -->b</p>", baseURL: nil) == "<p>ab</p>")
    }

    @Test func blogMarkupWithWhiteSpaceBetweenBlocksIsReadDirectly() {
        let html =
            "<p>One <a href=\"/a?x=1&amp;y=2\">link</a> and <code>f()</code>.</p>\n<ul>\n  <li>a</li>\n  <li><b>b</b></li>\n</ul>\n"
            + "<blockquote><p>q</p></blockquote>\n<p><img src=\"/i.png\" alt=\"i\"/><br>x</p>"
            + "<pre>\n<code>let x = a &lt; b &amp;&amp; c\n  f(x)</code>\n</pre><p><a href=\"https://e.example/?a=1&b=2\">q</a></p>"
        #expect(Self.isReadDirectly(html))
        Self.expectSameAsLibxml2(html)
    }

    @Test func markupLibxml2WouldRepairIsLeftToLibxml2() {
        for html in [
            "<b><p>block in inline</p></b>", "<p><div>div in p</div></p>",
            "<a href=\"/x\"><a href=\"/y\">nested</a></a>",
            "<ul>text in a list<li>x</li></ul>", "<li>item without a list</li>", "<p>unclosed",
            "<b>misnested<i></b></i>",
            "<p>a</p><!-- comment -->", "<p title=unquoted>x</p>", "<p>&bogus; reference</p>", "<p>&#0; null</p>",
            "<table><tr><td>x</td></tr></table>", "<p>a < b</p>", "<script>alert(1)</script>",
            "<p title=\"a\" title=\"b\">twice</p>", "<p>&#128; C1</p>",
        ] {
            #expect(!Self.isReadDirectly(html), "\(html)")
            Self.expectSameAsLibxml2(html)
        }
    }

    @Test func hostileAttributesInTheSubsetAreCheckedByTheSamePolicy() {
        for html in [
            "<a href=\"javascript:alert(1)\">x</a>", "<a href=\"jav&#x61;script:alert(1)\">x</a>",
            "<a href=\" \tjavascript:alert(1)\">x</a>", "<img src=\"data:image/png;base64,AAAA\" alt=\"x\">",
            "<span onclick=\"alert(1)\" style=\"color:red\">x</span>",
            "<a href='https://ok.example/\"onmouseover=\"x'>q</a>",
            "<a href=\"https://ex ample.org/a b\">spaces</a>", "<a href=\"//evil.example/\">scheme-relative</a>",
        ] {
            #expect(Self.isReadDirectly(html), "\(html)")
            Self.expectSameAsLibxml2(html)
        }
    }

    @Test func aReferenceThatResolvesToNoHostIsDropped() {
        for html in ["<img src=\"///a?x=1&y=2\" alt=\"i\">", "<p><a href=\"///a#f\">x</a></p>"] {
            #expect(Self.isReadDirectly(html))
            Self.expectSameAsLibxml2(html)
            #expect(!Self.direct.sanitize(html, baseURL: Self.base).contains("https:///"))
        }
    }

    /// The direct reader decodes five named references itself (`amp`, `lt`, `gt`, `quot`, `nbsp`) and leaves every
    /// other name to libxml2: the five and their near misses, in text and in attribute values.
    @Test func namedReferencesAndTheirNearMissesGiveTheSameOutputEitherWay() {
        let names = [
            "amp", "lt", "gt", "quot", "nbsp", "AMP", "Lt", "gT", "QUOT", "Nbsp", "am", "l", "g", "quo", "nbs", "ampx",
            "lte", "gtt", "quott", "nbspx", "qout", "nbps", "apos", "copy", "a1", "lt1",
        ]
        for name in names {
            for html in [
                "<p>a &\(name); b</p>", "<p>a&\(name)b</p>", "<a href=\"https://example.org/?q=&\(name);\">x</a>",
                "<span title=\"&\(name);&\(name);\">y</span>",
            ] {
                Self.expectSameAsLibxml2(html)
            }
        }
        #expect(Self.isReadDirectly("<p>&amp;&lt;&gt;&quot;&nbsp;</p>"))
    }

    @Test func fixtureVectorsGiveTheSameOutputEitherWay() {
        let cases = SanitizerCase.load("owasp-xss-vectors") + SanitizerCase.load("feedparser-sanitize")
        #expect(cases.count > 100)
        for testCase in cases { Self.expectSameAsLibxml2(testCase.html) }
    }

    /// Random fragments from a grammar that mixes the subset with what is outside it: every fragment read directly
    /// must give libxml2's output, and a good share of them must be read directly, or this test would prove nothing.
    @Test func randomFragmentsGiveTheSameOutputEitherWay() {
        var generator = FragmentGenerator(seed: 0x5EED_F00D)
        var readDirectly = 0
        let count = 4000
        for _ in 0..<count {
            let html = generator.fragment()
            if Self.isReadDirectly(html) { readDirectly += 1 }
            Self.expectSameAsLibxml2(html)
        }
        #expect(readDirectly > count / 4, "only \(readDirectly) of \(count) fragments were read directly")
    }

    /// `sanitizedUTF8` hands its bytes on without a `String` (the JSON of `tributary parse`), so they must be valid
    /// UTF-8: then they are exactly the bytes of `sanitize`'s `String`, which would have repaired anything else. Input
    /// limits that cut inside a character, and both ways of reading, are included.
    @Test func sanitizedUTF8IsTheBytesOfTheSanitizedString() {
        var generator = FragmentGenerator(seed: 0xB17E5)
        var inputs = (0..<1000).map { _ in generator.fragment() }
        inputs += (SanitizerCase.load("owasp-xss-vectors") + SanitizerCase.load("feedparser-sanitize")).map(\.html)
        inputs += ["<p>日本語のテキスト</p>", "é€😀 <b>x</b> 👩‍👩‍👧", "<a href=\"/日本\">リンク</a>"]
        let sanitizers = [
            HTMLSanitizer(),
            HTMLSanitizer(options: .init(readsSimpleFragmentsDirectly: false)),
            // Cuts inside multi-byte characters at a few positions.
            HTMLSanitizer(options: .init(maximumInputBytes: 9)),
            HTMLSanitizer(options: .init(maximumInputBytes: 10, readsSimpleFragmentsDirectly: false)),
            HTMLSanitizer(options: .init(maximumInputBytes: 11)),
        ]
        let base = URL(string: "https://example.org/a/b.html")
        for html in inputs {
            for sanitizer in sanitizers {
                let bytes = sanitizer.sanitizedUTF8(html, baseURL: base)
                #expect(String(validating: bytes, as: UTF8.self) != nil, "\(html)")
                #expect(bytes == Array(sanitizer.sanitize(html, baseURL: base).utf8), "\(html)")
            }
        }
    }

    @Test func plainHTTPURLsAreTheOnesFoundationReadsWithAHost() {
        var generator = FragmentGenerator(seed: 42)
        var plain = 0
        for _ in 0..<4000 {
            let url = generator.url()
            guard URLPolicy.isPlainHTTPURL(Array(url.utf8)) else { continue }
            plain += 1
            let host = URL(string: url)?.host
            #expect(host?.isEmpty == false, "\(url)")
        }
        #expect(plain > 200)
        for url in ["https://", "http://:80/", "https://a b/", "https://a/%zz", "https://a/#b#c", "https://[::1]/"] {
            #expect(!URLPolicy.isPlainHTTPURL(Array(url.utf8)), "\(url)")
        }
    }

    @Test func asciiClassesHoldExactlyTheirBytes() {
        for byte in UInt8.min...UInt8.max {
            let isUpper = (0x41...0x5A).contains(byte)
            let isLetter = isUpper || (0x61...0x7A).contains(byte)
            let isDigit = (0x30...0x39).contains(byte)
            #expect(byte.isASCIILetter == isLetter, "byte \(byte)")
            #expect(byte.isASCIIDigit == isDigit, "byte \(byte)")
            #expect(byte.isASCIIHexDigit == (isDigit || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)))
            #expect(byte.asciiLowercased == (isUpper ? byte + 0x20 : byte), "byte \(byte)")
        }
    }

    @Test func flatteningMatchesFoundationsTrimming() {
        var generator = FragmentGenerator(seed: 7)
        for _ in 0..<4000 {
            let value = generator.attributeValue()
            let expected = Self.referenceFlatten(value)
            let flattened = String(decoding: URLPolicy.flatten(Array(value.utf8)), as: UTF8.self)
            #expect(flattened == expected, "\(value.debugDescription)")
        }
    }

    /// The Foundation-based reading `URLPolicy.flatten` replaced, kept as the reference it must match.
    private static func referenceFlatten(_ value: String) -> String {
        var text = value
        for (reference, replacement) in [("&colon;", ":"), ("&tab;", ""), ("&newline;", "")] {
            text = text.replacingOccurrences(of: reference, with: replacement, options: .caseInsensitive)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
            scalars.append(scalar)
        }
        return String(scalars).trimmingCharacters(in: .whitespaces.union(.controlCharacters))
    }
}

/// A deterministic generator of HTML fragments, URLs and attribute values (SplitMix64).
private struct FragmentGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(next() % UInt64(choices.count))]
    }

    private mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }

    private static let subsetElements = [
        "a", "abbr", "b", "cite", "code", "em", "font", "i", "s", "small", "span", "strike", "strong", "sub", "sup",
        "tt", "u", "p", "div", "blockquote", "ul", "ol", "li",
    ]
    private static let otherElements = ["table", "pre", "h1", "script", "svg", "wbr", "mark", "foo", "center", "td"]
    private static let texts = [
        "a", " ", "\n", "x y", "日本語", "&amp;", "&nbsp;", "&#65;", "&#x3C;", "&#128;", "&bogus;", "&", ">", "\t",
        "&lt;b&gt;", "&quot;", "&#x1F600;", "  \n  ", "&#xD800;", "&#10;", "é",
    ]
    private static let subsetTexts = ["a", " ", "x y", "日本語", "&amp;", "&nbsp;", "&#65;", "&#x3C;", "&lt;b&gt;", "é"]
    private static let attributeNames = ["href", "title", "target", "lang", "src", "alt", "width", "onclick", "style"]

    mutating func url() -> String {
        let scheme = pick([
            "https://", "http://", "HTTPS://", "javascript:", "mailto:", "", "//", "ftp://", " https://",
        ])
        let host = pick(["example.org", "a.b-c.example", "ex ample.org", "", "[::1]", "例え.jp", "host:8080", "h:99999"])
        let path = pick(["", "/", "/a/b", "/a b", "/%41", "/%zz", "/日本", "/a?x=1&y=2", "/a#f", "/a#f#g", "/\"q\""])
        return scheme + host + path
    }

    mutating func attributeValue() -> String {
        var value = ""
        for _ in 0..<Int(next() % 5) {
            value += pick([
                " ", "\t", "\u{A0}", "\u{200B}", "\u{FEFF}", "\u{3000}", "\u{85}", "\u{1}", "&colon;", "&COLON;",
                "&tab;", "&NewLine;", "&newline;", "java", "script:", "https://x/", "日", "&amp;", "\u{7F}", "\n",
                "&ta", "b;",
            ])
        }
        return value
    }

    /// Half the time a fragment that keeps to the subset's content model (so that most are read directly), else
    /// tags and text in any order.
    mutating func fragment() -> String {
        chance(50) ? flow(depth: 0) : soup()
    }

    private static let phrasingElements = [
        "a", "abbr", "b", "cite", "code", "em", "font", "i", "s", "small", "span", "strike", "strong", "sub", "sup",
        "tt", "u",
    ]

    private mutating func attributes() -> String {
        var html = ""
        for _ in 0..<Int(next() % 3) {
            let attribute = pick(Self.attributeNames)
            let value = attribute == "href" || attribute == "src" ? url() : pick(["x", "en", "10", "a&amp;b", " 7 "])
            html += chance(90) ? " \(attribute)=\"\(value)\"" : " \(attribute)='\(value)'"
        }
        return html
    }

    private mutating func phrasing(depth: Int, insideLink: Bool) -> String {
        var html = ""
        for _ in 0..<Int(next() % 4) {
            switch next() % 6 {
            case 0...2:
                html += chance(90) ? pick(Self.subsetTexts) : pick(Self.texts)
            case 3:
                html += pick(["<br>", "<br />", "<img src=\"\(url())\" alt=\"i\"\(attributes())>"])
            default:
                guard depth < 6 else { continue }
                var name = pick(Self.phrasingElements)
                if insideLink, name == "a" { name = "b" }
                html += "<\(name)\(attributes())>"
                html += phrasing(depth: depth + 1, insideLink: insideLink || name == "a") + "</\(name)>"
            }
        }
        return html
    }

    private mutating func flow(depth: Int) -> String {
        var html = ""
        for _ in 0..<Int(1 + next() % 4) {
            if chance(20) { html += pick(["\n", " ", "\n  "]) }
            switch next() % 5 {
            case 0:
                html += phrasing(depth: depth + 1, insideLink: false)
            case 1:
                let name = chance(80) ? "p" : "pre"
                let start = name == "pre" ? pick(["", "\n", "\n\n"]) : ""
                html +=
                    "<\(name)\(attributes())>" + start + phrasing(depth: depth + 1, insideLink: false) + "</\(name)>"
            case 2 where depth < 4:
                let name = pick(["ul", "ol"])
                html += "<\(name)>"
                for _ in 0..<Int(next() % 3) {
                    if chance(30) { html += "\n" }
                    html += "<li>" + flow(depth: depth + 1) + "</li>"
                }
                html += "</\(name)>"
            case 3 where depth < 4:
                let name = pick(["div", "blockquote"])
                html += "<\(name)\(attributes())>" + flow(depth: depth + 1) + "</\(name)>"
            default:
                html += pick(Self.texts)
            }
        }
        return html
    }

    private mutating func soup() -> String {
        var html = ""
        var open: [String] = []
        for _ in 0..<Int(1 + next() % 12) {
            switch next() % 10 {
            case 0...3:
                let name = chance(85) ? pick(Self.subsetElements) : pick(Self.otherElements)
                html += "<" + (chance(10) ? name.uppercased() : name)
                for _ in 0..<Int(next() % 3) {
                    let attribute = pick(Self.attributeNames)
                    let value = attribute == "href" || attribute == "src" ? url() : pick(["x", "en", "10", "a&amp;b"])
                    html += chance(90) ? " \(attribute)=\"\(value)\"" : " \(attribute)='\(value)'"
                }
                html += ">"
                open.append(name)
            case 4...5:
                if chance(90), let name = open.popLast() { html += "</\(name)>" } else { html += "</b>" }
            case 6:
                html += pick(["<br>", "<br/>", "<img src=\"\(url())\" alt=\"i\">", "<!-- c -->", "<"])
            default:
                html += pick(Self.texts)
            }
        }
        if chance(80) { for name in open.reversed() { html += "</\(name)>" } }
        return html
    }
}
