import Foundation
import Hummingbird
import NIOCore
import TestSupport
import Testing

/// `tributary add URL` and `tributary parse URL` against a real site on 127.0.0.1.
@Suite(.serialized) struct AddCommandTests {
    static let rss = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Example Blog</title><link>/</link>
        <item><title>Hello</title><link>/posts/hello</link><guid>hello</guid></item></channel></rss>
        """
    static let json = #"""
        {"version":"https://jsonfeed.org/version/1.1","title":"Example Notes",
         "items":[{"id":"n1","title":"A note","url":"notes/1","content_text":"Served as JSON Feed over HTTP."}]}
        """#

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func page(_ text: String, _ type: String) -> Response {
            Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("/") { _, _ in
            page(
                """
                <!doctype html><html><head><title>Example</title><link rel="stylesheet" href="/s.css">
                <link rel="alternate" type="application/rss+xml" title="Example Blog &amp; more" href="/blog/feed.xml">
                <link rel="alternate" type="application/feed+json" href="notes.json"></head><body></body></html>
                """,
                "text/html; charset=utf-8"
            )
        }
        router.get("/blog/feed.xml") { _, _ in page(rss, "application/rss+xml") }
        router.get("/notes.json") { _, _ in page(json, "application/feed+json") }
        router.get("/quiet/") { _, _ in page("<html><head></head><body>no feeds here</body></html>", "text/html") }
        router.get("/atom.xml") { _, _ in page(rss, "application/rss+xml") }
        router.get("/moved") { _, _ in Response(status: .movedPermanently, headers: [.location: "/blog/feed.xml"]) }
        // Served with the language the server knows it is in; the second names its own.
        router.get("/served-in/:name") { _, context in
            let own = try context.parameters.require("name") == "french.xml"
            let feed = own ? rss.replacing("<link>/</link>", with: "<link>/</link><language>fr</language>") : rss
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml", .contentLanguage: "en-GB, en"],
                body: .init(byteBuffer: ByteBuffer(string: feed))
            )
        }
        return router
    }

    @Test func addsTheFeedAPageAnnouncesAfterTheUserPicksOne() async throws {
        try await withTestServer(Self.router()) { port in
            let workspace = try Workspace()
            let site = "http://127.0.0.1:\(port)/"
            let unchosen = try TributaryProcess.run(["add", site], in: workspace.url)
            #expect(unchosen.status == 2)
            #expect(unchosen.standardError.contains("2 feeds found; choose one with --pick N:"))
            #expect(unchosen.standardError.contains("  1) Example Blog & more  http://127.0.0.1:\(port)/blog/feed.xml"))
            #expect(unchosen.standardError.contains("  2) http://127.0.0.1:\(port)/notes.json"))
            #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("feeds.json").path))

            let picked = try TributaryProcess.run(
                ["add", site, "--pick", "2", "--category", "Notes"],
                in: workspace.url
            )
            #expect(picked.status == 0, "\(picked.standardError)")
            let direct = try TributaryProcess.run(["add", "\(site)moved"], in: workspace.url)
            #expect(direct.status == 0, "\(direct.standardError)")
            let again = try TributaryProcess.run(["add", "\(site)blog/feed.xml"], in: workspace.url)
            #expect(again.standardError.contains("already lists"))
            let text = try String(contentsOf: workspace.url.appendingPathComponent("feeds.json"), encoding: .utf8)
            #expect(
                text == """
                    {
                      "sources": [
                        { "id": "example-notes", "kind": "rss", "url": "http://127.0.0.1:\(port)/notes.json", "title": "Example Notes", "category": "Notes" },
                        { "id": "example-blog", "kind": "rss", "url": "http://127.0.0.1:\(port)/blog/feed.xml", "title": "Example Blog" }
                      ]
                    }

                    """,
                "\(text)"
            )
            let digest = try TributaryProcess.run(
                ["digest", "--no-state", "--format", "text", "-o", "-"],
                in: workspace.url
            )
            // Both read by the rss kind: RSS, and the JSON Feed (its relative link resolved against where it came from).
            #expect(digest.status == 0, "\(digest.standardError)")
            #expect(digest.standardOutput.contains("Hello"))
            #expect(digest.standardOutput.contains("A note"))
            #expect(digest.standardOutput.contains("http://127.0.0.1:\(port)/notes/1"), "\(digest.standardOutput)")
        }
    }

    @Test func triesTheCommonPathsWhenAPageAnnouncesNothing() async throws {
        try await withTestServer(Self.router()) { port in
            let workspace = try Workspace()
            let result = try TributaryProcess.run(["add", "http://127.0.0.1:\(port)/quiet/"], in: workspace.url)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.contains("added example-blog (http://127.0.0.1:\(port)/atom.xml)"))
        }
    }

    @Test func parseFetchesAURLAndResolvesLinksAgainstWhereTheFeedCameFrom() async throws {
        try await withTestServer(Self.router()) { port in
            let workspace = try Workspace()
            let result = try TributaryProcess.run(["parse", "http://127.0.0.1:\(port)/moved"], in: workspace.url)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains(#""url":"http://127.0.0.1:\#(port)/posts/hello""#))
            let missing = try TributaryProcess.run(["parse", "http://127.0.0.1:\(port)/nope.xml"], in: workspace.url)
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("nope.xml: the server answered HTTP 404 Not Found"))
        }
    }

    /// The language a feed was served in (HTTP `Content-Language`, its first tag) is the feed's when it names none;
    /// `--language` says it for a file.
    @Test func parseTakesTheFeedsLanguageFromContentLanguageWhenTheFeedNamesNone() async throws {
        try await withTestServer(Self.router()) { port in
            let workspace = try Workspace()
            let served = try TributaryProcess.run(
                ["parse", "http://127.0.0.1:\(port)/served-in/english.xml"],
                in: workspace.url
            )
            #expect(served.status == 0, "\(served.standardError)")
            #expect(served.standardOutput.contains(#""language":"en-GB""#), "\(served.standardOutput)")
            let own = try TributaryProcess.run(
                ["parse", "http://127.0.0.1:\(port)/served-in/french.xml"],
                in: workspace.url
            )
            #expect(own.standardOutput.contains(#""language":"fr""#), "\(own.standardOutput)")
            #expect(!own.standardOutput.contains("en-GB"))
            let file = workspace.url.appending(path: "feed.xml")
            try Data(Self.rss.utf8).write(to: file)
            let told = try TributaryProcess.run(["parse", "--language", "de", file.path], in: workspace.url)
            #expect(told.standardOutput.contains(#""language":"de""#), "\(told.standardOutput)")
            let untold = try TributaryProcess.run(["parse", file.path], in: workspace.url)
            #expect(!untold.standardOutput.contains(#""language""#), "\(untold.standardOutput)")
        }
    }
}
