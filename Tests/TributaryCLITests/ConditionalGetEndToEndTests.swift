import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing

/// Issue 8's check, as a user runs it: a second `tributary digest` against an unchanged server sends the stored
/// validators, gets `304`s, and renders the same items marked "not modified".
@Suite(.serialized) struct ConditionalGetEndToEndTests {
    /// Counts the requests and remembers the precondition headers of the last one.
    actor Requests {
        private(set) var count = 0
        private(set) var conditional = 0
        func record(ifNoneMatch: String?) {
            count += 1
            if ifNoneMatch != nil { conditional += 1 }
        }
    }

    static let feed = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Blog</title><link>https://blog.example.org/</link>
        <item><title>First post</title><link>https://blog.example.org/1</link><guid>post-1</guid>
        <pubDate>Sun, 22 Nov 2026 06:00:00 GMT</pubDate></item>
        <item><title>Second post</title><link>https://blog.example.org/2</link><guid>post-2</guid>
        <pubDate>Sun, 22 Nov 2026 07:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    private static func router(_ requests: Requests) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/feed.xml") { request, _ -> Response in
            let ifNoneMatch = request.headers[.ifNoneMatch]
            await requests.record(ifNoneMatch: ifNoneMatch)
            let headers: HTTPFields = [.contentType: "application/rss+xml", .eTag: "\"abc\""]
            if ifNoneMatch == "\"abc\"" { return Response(status: .notModified, headers: headers) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: feed)))
        }
        return router
    }

    /// Runs `body` with a real HTTP server on 127.0.0.1 and a port the system picks.
    private static func withServer(_ requests: Requests, _ body: (Int) async throws -> Void) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router(requests),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            try await body(port)
        }
    }

    /// Runs `body` with a real HTTP server on 127.0.0.1 and a workspace whose feeds.json has one RSS source on it,
    /// `blog`.
    private static func withBlog(_ requests: Requests, _ body: (Workspace) async throws -> Void) async throws {
        try await withServer(requests) { port in
            let workspace = try Workspace()
            let config = """
                { "title": "Blog digest", "timeZone": "UTC",
                  "sources": [{ "id": "blog", "kind": "rss", "url": "http://127.0.0.1:\(port)/feed.xml" }] }
                """
            try Data(config.utf8).write(to: workspace.url.appendingPathComponent("feeds.json"))
            try await body(workspace)
        }
    }

    @Test func aSecondDigestGets304sAndRendersTheSameItemsMarkedNotModified() async throws {
        let requests = Requests()
        try await Self.withBlog(requests) { workspace in
            let arguments = ["digest", "--format", "markdown", "-o", "-"]

            let first = try TributaryProcess.run(arguments, in: workspace.url)
            #expect(first.status == 0, "\(first.standardError)")
            #expect(await requests.conditional == 0)

            let second = try TributaryProcess.run(arguments, in: workspace.url)
            #expect(second.status == 0, "\(second.standardError)")
            #expect(await requests.count == 2)
            #expect(await requests.conditional == 1, "the second run sends the stored ETag")
            #expect(second.standardError.contains("blog: not modified, 2 items"), "\(second.standardError)")

            func itemLines(_ markdown: String) -> [String] {
                markdown.split(separator: "\n").filter { $0.hasPrefix("- ") }.map(String.init)
            }
            // The same items (without the first run's "new" marks), and the source's state says "not modified".
            let firstItems = itemLines(first.standardOutput).map { $0.replacingOccurrences(of: " · **new**", with: "") }
            #expect(itemLines(second.standardOutput) == firstItems)
            #expect(firstItems.count == 2)
            #expect(second.standardOutput.contains("| blog | not modified | 2 |"), "\(second.standardOutput)")
        }
    }

    /// `watch` after a digest: a feed unchanged since the digest still shows its items when `watch` starts (its
    /// first fetch does not send the digest's validators, whose `304` showed nothing), and the next polls are
    /// conditional on the validators of `watch`'s own fetches.
    @Test func watchStartsWithTheItemsOfAFeedUnchangedSinceTheLastDigest() async throws {
        let requests = Requests()
        try await Self.withBlog(requests) { workspace in
            let digest = try TributaryProcess.run(["digest", "-o", "-"], in: workspace.url)
            #expect(digest.status == 0, "\(digest.standardError)")

            let watcher = try RunningTributary(
                ["watch", "-c", workspace.url.appendingPathComponent("feeds.json").path, "--interval", "300ms"],
                in: workspace.url,
                name: "watch"
            )
            let shown = try await watcher.output(upTo: .seconds(15)) { shown in
                guard shown.contains("Second post") else { return false }
                return await requests.count >= 3
            }
            watcher.send(SIGTERM)
            let status = try await watcher.wait(upTo: .seconds(10))
            #expect(shown.contains("First post") && shown.contains("Second post"), "watch showed: \(shown)")
            #expect(status == 0, "\(watcher.standardError)")
            // The digest's fetch, watch's first (unconditional) fetch, then its polls, each conditional.
            let (count, conditional) = (await requests.count, await requests.conditional)
            #expect(count >= 3)
            #expect(conditional == count - 2, "\(count) requests, \(conditional) conditional")
        }
    }
}
