import Foundation
import HTMLSanitizer
import Testing

@testable import AdapterConformance

/// The OWASP XSS filter-evasion cheat sheet vectors and feedparser's sanitizer cases.
@Suite struct FixtureTests {
    static let owasp = SanitizerCase.load("owasp-xss-vectors")
    static let feedparser = SanitizerCase.load("feedparser-sanitize")
    private let sanitizer = HTMLSanitizer()
    private let base = URL(string: "https://example.org/a/b.html")

    @Test func fixturesAreLoaded() {
        #expect(Self.owasp.count >= 100)
        #expect(Self.feedparser.count >= 15)
    }

    @Test(arguments: owasp)
    func owaspVectorLeavesNoScriptCapableConstruct(_ vector: SanitizerCase) {
        for baseURL in [base, nil] {
            let output = sanitizer.sanitize(vector.html, baseURL: baseURL)
            #expect(HTMLSafetyScanner.findings(in: output).isEmpty, "\(output)")
            let lowered = output.lowercased()
            for construct in ["<script", "<style", "<iframe", "<svg", "<object", "<embed", "<meta", "<link", "<base"] {
                #expect(!lowered.contains(construct), "\(construct) in \(output)")
            }
            // Such text may remain as text (or inside a relative URL's path); never as an attribute's scheme.
            for scheme in ["javascript:", "vbscript:", "data:", "livescript:"] {
                #expect(!lowered.contains("=\"\(scheme)"), "\(output)")
            }
            #expect(!Self.hasUnsafeAttribute(output), "\(output)")
            #expect(sanitizer.sanitize(output, baseURL: baseURL) == output)
        }
    }

    @Test(arguments: feedparser)
    func feedparserCaseGivesExpectedOutput(_ testCase: SanitizerCase) throws {
        let expected = try #require(testCase.expected)
        let output = sanitizer.sanitize(testCase.html, baseURL: base)
        #expect(output == expected)
        #expect(HTMLSafetyScanner.findings(in: output).isEmpty)
        #expect(sanitizer.sanitize(output, baseURL: base) == output)
    }

    /// Where the policy is stricter than feedparser's (no `style`, no `border`, content of an unclosed `object`
    /// dropped, links get `rel` and `target`), the text a reader sees is still the same.
    @Test(arguments: feedparser)
    func feedparserCaseKeepsFeedparsersText(_ testCase: SanitizerCase) throws {
        let reference = try #require(testCase.feedparser)
        let ours = sanitizer.plainText(sanitizer.sanitize(testCase.html, baseURL: base))
        let theirs = sanitizer.plainText(reference)
        let stricter = ["entry_content_object", "entry_content_crazy"]
        if stricter.contains(testCase.name) {
            // Fallback content of `object`, `<title>` and script text are dropped, nothing is added.
            #expect(!ours.isEmpty)
            for line in ours.split(separator: "\n") {
                #expect(theirs.contains(line), "\(line)")
            }
        } else {
            #expect(ours == theirs)
        }
    }

    @Test func specificVectorsGiveExactOutput() {
        let cases: [(String, String)] = [
            ("<IMG SRC=\"javascript:alert('XSS');\">", ""),
            ("<a onmouseover=\"alert(document.cookie)\">xxs link</a>", "<a>xxs link</a>"),
            ("<A HREF=\"javascript:document.location='http://www.google.com/'\">XSS</A>", "<a>XSS</a>"),
            ("<a href=\"java&#x09;script:alert(1)\">t</a>", "<a>t</a>"),
            ("<a href=\"&#106;avascript:alert(1)\">t</a>", "<a>t</a>"),
            ("<a href=\"JaVaScRiPt:alert(1)\">t</a>", "<a>t</a>"),
            ("<a href=\"javascript&colon;alert(1)\">t</a>", "<a>t</a>"),
            ("<p onclick=\"alert(1)\" style=\"color:red\">para</p>", "<p>para</p>"),
            ("<svg/onload=alert('XSS')></svg>after", "after"),
            ("<svg/onload=alert('XSS')>unclosed foreign content", "unclosed foreign content"),
            ("safe<script>alert(1)</script> text", "safe text"),
            ("<IMG SRC=/ onerror=\"alert(1)\"></img>", "<img src=\"https://example.org/\" />"),
            (
                // `</br>` is a line break to HTML.
                "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br>",
                "<ul><li>XSS<br /></li></ul>"
            ),
            ("<DIV STYLE=\"width: expression(alert('XSS'));\">d</DIV>", "<div>d</div>"),
            ("<textarea><script>alert(1)</script></textarea>t", "t"),
            (
                "<a href=\"http://x.example/\" title=\"<script>\">t</a>",
                "<a href=\"http://x.example/\" title=\"&lt;script&gt;\">t</a>"
            ),
        ]
        for (input, expected) in cases {
            #expect(sanitizer.sanitize(input, baseURL: base) == expected, "\(input)")
        }
    }

    /// Inputs the fuzzer (`scripts/fuzz.sh`) found a failure with, one file each.
    static let fuzzRegressions: [String] = {
        guard let directory = Bundle.module.url(forResource: "Fixtures/fuzz-regressions", withExtension: nil),
            let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        else { return [] }
        return files.map(\.lastPathComponent).sorted()
    }()

    @Test func fuzzRegressionsAreLoaded() {
        #expect(!Self.fuzzRegressions.isEmpty)
    }

    @Test(arguments: fuzzRegressions)
    func fuzzRegressionIsSafeAndStable(_ name: String) throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/fuzz-regressions/\(name)", withExtension: nil))
        let html = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        for baseURL in [base, nil] {
            let output = sanitizer.sanitize(html, baseURL: baseURL)
            #expect(HTMLSafetyScanner.findings(in: output).isEmpty)
            #expect(sanitizer.sanitize(output, baseURL: baseURL) == output)
            #expect(output == Self.libxml2Only.sanitize(html, baseURL: baseURL))
        }
    }

    private static let libxml2Only = HTMLSanitizer(options: .init(readsSimpleFragmentsDirectly: false))

    // MARK: - Private

    /// Whether a tag of `html` has an attribute the sanitizer never writes (one that can run script or load more than
    /// an image). Only the attributes' names count: a quoted value is text (`title="&lt;img src=x onerror=...&gt;"`
    /// runs nothing).
    private static func hasUnsafeAttribute(_ html: String) -> Bool {
        let lowered = html.lowercased().replacingOccurrences(
            of: "\"[^\"]*\"",
            with: "\"\"",
            options: .regularExpression
        )
        return [" on", " style=", " srcset=", " formaction=", " xlink:", " background="].contains {
            lowered.contains($0) && lowered.range(of: "<[^>]*\($0)", options: .regularExpression) != nil
        }
    }
}
