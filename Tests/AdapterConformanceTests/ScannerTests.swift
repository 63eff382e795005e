import Testing

@testable import AdapterConformance

@Suite struct ScannerTests {
    @Test(arguments: [
        #"<p>Hello <a href="https://example.org/" title="x">world</a></p>"#,
        #"<img src="https://example.org/a.png" alt="data: none">"#,
        "<p>5 < 6 and <em>emphasis</em></p><!-- <script> in a comment -->",
        #"<a href="/relative">relative links are for SRC-5</a>"#,
    ])
    func acceptsSafeHTML(_ html: String) {
        #expect(HTMLSafetyScanner.findings(in: html).isEmpty)
    }

    @Test(arguments: [
        ("<script>alert(1)</script>", "<script>"),
        ("<STYLE>body{}</STYLE>", "<style>"),
        (#"<iframe src="https://example.org"></iframe>"#, "<iframe>"),
        ("<object data=x></object><embed src=y>", "<object>"),
        (#"<form action="https://example.org"><input></form>"#, "<form>"),
        ("<img src=x onerror=alert(1)>", "onerror"),
        (#"<div OnMouseOver = "x">"#, "onmouseover"),
        (#"<a href="javascript:alert(1)">"#, "javascript:"),
        (#"<a href=" JaVa&#x53;cript&colon;alert(1)">"#, "javascript:"),
        ("<a href='java\tscript:x'>", "javascript:"),
        (#"<img src="data:image/svg+xml;base64,AAAA">"#, "data:"),
        (#"<a href="vbscript:msgbox">"#, "vbscript:"),
        (#"<img srcset="https://a/1.png 1x, javascript:x 2x">"#, "javascript:"),
        (#"<p style="width: expression(alert(1))">"#, "style"),
    ])
    func flagsUnsafeHTML(_ html: String, _ expected: String) {
        let findings = HTMLSafetyScanner.findings(in: html)
        #expect(findings.contains { $0.contains(expected) }, "\(findings)")
    }

    @Test(arguments: [
        "a < b", "x<3", "AT&T", "Q&A; more", "Tom & Jerry", "<- arrow", "price: 5 & up;", "日本語",
        "&bogus; is not a name HTML defines",
    ])
    func acceptsPlainText(_ text: String) {
        #expect(PlainTextScanner.findings(in: text).isEmpty)
    }

    @Test(arguments: ["<b>bold</b>", "line<br/>break", "</p>", "<!-- c -->", "Fish &amp; chips", "&#8217;", "&#x2019;"])
    func flagsMarkupInText(_ text: String) {
        #expect(!PlainTextScanner.findings(in: text).isEmpty)
    }

    @Test(arguments: [
        ("https://example.org/a", true), ("mailto:a@example.org", true), ("urn:isbn:123", true),
        ("/a", false), ("//cdn.example.org/a", false), ("a/b", false), ("https:///nohost", false), ("", false),
    ])
    func tellsAbsoluteURLs(_ url: String, _ absolute: Bool) {
        #expect(ItemInspector.isAbsoluteURL(url) == absolute)
    }
}
