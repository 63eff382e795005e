import FeedParser
import Foundation
import Hummingbird
import NIOCore
import TestSupport

/// The routes the RSS adapter is tested against, each reproducing one server behaviour.
enum FeedServer {
    /// A generated RSS 2.0 feed of `count` items, each about 200 bytes.
    static func generatedFeed(items count: Int) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Generated</title><link>https://example.com/</link>
            <description>A feed made up by the test.</description>

            """
        for index in 0..<count {
            text += """
                <item><title>Item \(index)</title><link>https://example.com/items/\(index)</link>\
                <guid>https://example.com/items/\(index)</guid><description>Text of item number \(index), \
                padded a little so the feed has some weight.</description></item>

                """
        }
        return text + "</channel></rss>\n"
    }

    /// Builds the router. `gate` holds back the second half of `/paced` until it opens; `pacedOutcome` learns
    /// whether it opened before the body was complete.
    /// Counts the requests a server answered.
    actor RequestCounter {
        private(set) var count = 0
        func increment() { count += 1 }
    }

    /// Counts every request, for tests that check how often a host was asked.
    struct CountingMiddleware: RouterMiddleware {
        let counter: RequestCounter

        func handle(
            _ request: Request,
            context: BasicRequestContext,
            next: (Request, BasicRequestContext) async throws -> Response
        ) async throws -> Response {
            await counter.increment()
            return try await next(request, context)
        }
    }

    static func router(
        gate: Gate = Gate(),
        pacedOutcome: PacedOutcome = PacedOutcome(),
        counting counter: RequestCounter? = nil
    ) -> Router<BasicRequestContext> {
        let router = Router()
        if let counter { router.add(middleware: CountingMiddleware(counter: counter)) }
        // A 4-item feed answered after 150 ms; a 429 that asks for an hour's pause.
        router.get("/delayed/:index") { _, _ -> Response in
            try await Task.sleep(for: .milliseconds(150))
            let data = try Fixture.data("google-news-top-stories-en.xml")
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/throttled") { _, _ -> Response in
            Response(status: .tooManyRequests, headers: [.retryAfter: "3600"])
        }
        router.get("/fixtures/:name") { _, context -> Response in
            let name = try context.parameters.require("name")
            var headers: HTTPFields = [.contentType: "application/xml"]
            if name == "encoding-http-charset-contradicts-declaration.xml" {
                headers[.contentType] = "text/xml; charset=windows-1252"
            }
            // Served in a language: the feed that names none has it, the one that names its own keeps that.
            if name == "atom03-escaped-mode.xml" || name == "google-news-top-stories-en.xml" {
                headers[.contentLanguage] = "fr-CA, fr"
            }
            guard let data = try? Fixture.data(name) else { return Response(status: .notFound) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/gzip") { request, _ -> Response in
            // Only a client that says it takes gzip gets it.
            guard request.headers[.acceptEncoding]?.contains("gzip") == true else {
                return Response(status: .notAcceptable)
            }
            let data = try Fixture.data("podcast-itunes-enclosures.xml.gz")
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/gzip-bomb") { _, _ -> Response in
            let data = try Fixture.data("gzip-bomb-5mb-of-spaces.xml.gz")
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/deflate") { request, _ -> Response in
            guard request.headers[.acceptEncoding]?.contains("deflate") == true else {
                return Response(status: .notAcceptable)
            }
            let data = try Fixture.data("podcast-itunes-enclosures.xml.zlib")
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml", .contentEncoding: "deflate"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        // Raw deflate (RFC 1951, no zlib header) under the name "deflate", as many servers send it; two gzip
        // members one after the other; a gzip body cut short; an encoding the client did not ask for.
        for (path, fixture, encoding) in [
            ("/deflate-raw", "podcast-itunes-enclosures.xml.raw-deflate", "deflate"),
            ("/gzip-members", "podcast-itunes-enclosures.xml.two-gzip-members.gz", "gzip"),
            ("/gzip-truncated", "podcast-itunes-enclosures.xml.gz", "gzip"),
            ("/brotli", "podcast-itunes-enclosures.xml.gz", "br"),
        ] {
            router.get(RouterPath(path)) { _, _ -> Response in
                var data = try Fixture.data(fixture)
                if path == "/gzip-truncated" { data = data.prefix(data.count / 2) }
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/rss+xml", .contentEncoding: encoding],
                    body: .init(byteBuffer: ByteBuffer(bytes: data))
                )
            }
        }
        // A redirect to another host name: localhost, a loopback address (as a feed on the internet could send).
        router.get("/to-localhost") { request, _ -> Response in
            let port = request.head.authority?.split(separator: ":").last.map(String.init) ?? "80"
            return Response(
                status: .movedPermanently,
                headers: [.location: "http://localhost:\(port)/fixtures/rss090-netscape.xml"]
            )
        }
        router.get("/to-file") { _, _ -> Response in
            Response(status: .found, headers: [.location: "file:///etc/passwd"])
        }
        router.get("/redirect-cycle") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/redirect-cycle"])
        }
        router.get("/redirect/:count") { _, context -> Response in
            let count = try context.parameters.require("count", as: Int.self)
            let next = count <= 1 ? "/fixtures/rss090-netscape.xml" : "/redirect/\(count - 1)"
            return Response(status: .found, headers: [.location: next])
        }
        router.get("/slow") { _, _ -> Response in
            try await Task.sleep(for: .seconds(20))
            return Response(status: .ok)
        }
        router.get("/missing") { _, _ -> Response in
            Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such feed")))
        }
        router.get("/huge") { _, _ -> Response in
            // An endless feed, streamed without a length; the client must stop reading.
            Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml"],
                body: .init { writer in
                    try await writer.write(
                        ByteBuffer(
                            string: generatedFeed(items: 0).replacingOccurrences(
                                of: "</channel></rss>\n",
                                with: ""
                            )
                        )
                    )
                    let item = generatedFeed(items: 50).components(separatedBy: "<item>").dropFirst()
                        .map { "<item>" + $0 }.joined()
                    for _ in 0..<10_000 {
                        try await writer.write(ByteBuffer(string: item))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/paced") { _, _ -> Response in
            let feed = Array(generatedFeed(items: 40).utf8)
            let half = feed.count / 2
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml"],
                body: .init { writer in
                    try await writer.write(ByteBuffer(bytes: feed[..<half]))
                    // The rest is held back until the test has seen items (or 10 s have passed).
                    let opened = await gate.wait(atMost: .seconds(10))
                    await pacedOutcome.record(openedBeforeEnd: opened)
                    try await writer.write(ByteBuffer(bytes: feed[half...]))
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/hang") { _, _ -> Response in
            let feed = Array(generatedFeed(items: 40).utf8)
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml"],
                body: .init { writer in
                    try await writer.write(ByteBuffer(bytes: feed[..<(feed.count / 2)]))
                    try await Task.sleep(for: .seconds(30))
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/user-agent") { request, _ -> Response in
            let agent = request.headers[.userAgent] ?? "(none)"
            let feed = """
                <rss version="2.0"><channel><title>UA</title><item><title>\(agent)</title><guid>ua</guid></item>\
                </channel></rss>
                """ + String(repeating: " ", count: 1100)
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: feed)))
        }
        return router
    }
}

/// Whether `/paced` saw its gate open before it sent the end of the body.
actor PacedOutcome {
    private(set) var openedBeforeEnd: Bool?

    func record(openedBeforeEnd: Bool) {
        self.openedBeforeEnd = openedBeforeEnd
    }
}
