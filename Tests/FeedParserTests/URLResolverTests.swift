import Testing

@testable import FeedParser

@Suite struct URLResolverTests {
    /// RFC 3986 section 5.4: normal and abnormal examples against `http://a/b/c/d;p?q`.
    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
    ])
    func resolvesTheRFC3986Examples(_ reference: String, _ expected: String) {
        #expect(URLResolver.resolve(reference, against: "http://a/b/c/d;p?q") == expected)
    }

    /// Absolute paths take a shortcut when removing dot segments would leave them unchanged; these are on either
    /// side of that line.
    @Test(arguments: [
        ("/post-1", "https://blog.example.org/post-1"),
        ("/a/b.html?x=1#top", "https://blog.example.org/a/b.html?x=1#top"),
        ("/a/./b", "https://blog.example.org/a/b"), ("/a/../b", "https://blog.example.org/b"),
        ("/a/.hidden/x", "https://blog.example.org/a/.hidden/x"), ("/a//b", "https://blog.example.org/a//b"),
        ("/x?y/../z", "https://blog.example.org/x?y/../z"), ("/", "https://blog.example.org/"),
        ("/.", "https://blog.example.org/"), ("//cdn.example.org/i.png", "https://cdn.example.org/i.png"),
        ("/日本/記事", "https://blog.example.org/日本/記事"),
    ])
    func resolvesAbsolutePaths(_ reference: String, _ expected: String) {
        #expect(URLResolver.resolve(reference, against: "https://blog.example.org/posts/2026/index.html") == expected)
    }

    @Test func baseWithoutPathAndNonHierarchicalBase() {
        #expect(URLResolver.resolve("x/y", against: "https://example.com") == "https://example.com/x/y")
        #expect(URLResolver.resolve("x", against: "urn:isbn:123") == nil)
    }
}
