import Testing

@testable import TributaryCore

@Suite struct CanonicalURLTests {
    @Test(arguments: [
        ("https://example.org/a", "https://example.org/a"),
        ("HTTPS://Example.ORG/Path/Keeps/Case", "https://example.org/Path/Keeps/Case"),
        ("https://example.org:443/a", "https://example.org/a"),
        ("http://example.org:80/a", "http://example.org/a"),
        ("https://example.org:8443/a", "https://example.org:8443/a"),
        ("http://example.org:443/a", "http://example.org:443/a"),
        ("https://example.org/a#section", "https://example.org/a"),
        ("https://example.org/a?utm_source=rss&utm_medium=feed", "https://example.org/a"),
        ("https://example.org/a?b=2&utm_campaign=x&a=1", "https://example.org/a?b=2&a=1"),
        ("https://example.org/a?UTM_Source=x&id=3#top", "https://example.org/a?id=3"),
        ("https://example.org/a?", "https://example.org/a"),
        ("https://example.org/a?utmost=1", "https://example.org/a?utmost=1"),
        ("https://example.org", "https://example.org/"),
        ("https://example.org/search?q=a%20b&utm_term=x", "https://example.org/search?q=a%20b"),
    ])
    func canonicalisesURLs(input: String, expected: String) {
        #expect(CanonicalURL.string(for: input) == expected)
    }

    @Test(arguments: ["", "/relative/path", "not a url", "mailto:ann@example.org"])
    func rejectsURLsWithoutAHost(input: String) {
        #expect(CanonicalURL.string(for: input) == nil)
    }

    /// The shortcut for URLs that are already canonical gives what parsing gives, and stands aside otherwise.
    @Test(arguments: [
        "https://example.org/a", "http://example.org", "https://a-b.example.org/x/y.html", "https://example.org/a%20b",
        "https://example.org/%E6%97%A5", "https://example.org/a;b=c/d,e!f'g(h)*i+j$k@l", "https://EXAMPLE.org/a",
        "https://example.org:443/a", "https://example.org/a?b", "https://example.org/a#b", "https://user@example.org/",
        "https://example.org/a b", "https://example.org/日本", "https://example.org/a|b", "https://[::1]/a",
        "https:///a", "http://", "https://example.org/a\\b", "ftp://example.org/a", " https://example.org/a",
        "https://example.org/~user/_x-y.z", "https://example.org//double//", "https://xn--nxasmq6b.example/a",
    ])
    func theShortcutAgreesWithParsing(_ url: String) {
        if let fast = CanonicalURL.alreadyCanonical(url) {
            #expect(fast == CanonicalURL.parsed(url), "\(url)")
        }
        #expect(CanonicalURL.string(for: url) == CanonicalURL.parsed(url), "\(url)")
    }
}
