import Foundation
import Hummingbird
import NIOCore
import RSSAdapter
import SQLiteStore
import TestSupport
import Testing
import TributaryCore

/// The fault-injection suite (issue 8): a misbehaving HTTP server on loopback with one endpoint per fault. For each
/// fault the source ends with a clear reason within its timeout and size budget, a healthy source in the same run
/// delivers all its items, and what earlier runs stored in the SQLite state store is still there.
@Suite struct FaultInjectionTests {
    /// One way a server can misbehave.
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case slowHeaders = "slow-headers"
        case slowBody = "slow-body"
        case resetMidBody = "reset-mid-body"
        case truncatedXML = "truncated-xml"
        case internalError = "internal-error"
        case unavailableWithRetryAfter = "unavailable-retry-after"
        case tooManyRequests = "too-many-requests"
        case redirectLoop = "redirect-loop"
        case endlessBody = "endless-body"
        case gzipBomb = "gzip-bomb"
        case htmlPage = "html-page"
        case wrongContentType = "wrong-content-type"
        case contradictingCharset = "contradicting-charset"
        case emptyBody = "empty-body"

        var testDescription: String { rawValue }
    }

    /// The healthy source's feed: 30 items.
    static let healthyFeed = FeedServer.generatedFeed(items: 30)
    /// What the faulty source serves when it works: 30 other items (the same items would be kept from the
    /// healthy source, listed first, as cross-source duplicates).
    static let otherFeed = healthyFeed.replacingOccurrences(of: "example.com/items", with: "example.org/stories")
    /// The faulty source's limits: small, so every budget is reached quickly.
    static let timeout = Duration.seconds(2)
    static let maxBytes = 200_000

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        let healthy = Array(healthyFeed.utf8)
        let feed = Array(otherFeed.utf8)
        let rss: HTTPFields = [.contentType: "application/rss+xml"]
        router.get("/healthy") { _, _ in
            Response(status: .ok, headers: rss, body: .init(byteBuffer: ByteBuffer(bytes: healthy)))
        }
        router.get("/other") { _, _ in
            Response(status: .ok, headers: rss, body: .init(byteBuffer: ByteBuffer(bytes: feed)))
        }
        router.get("/fault/slow-headers") { _, _ -> Response in
            try await Task.sleep(for: .seconds(30))
            return Response(status: .ok)
        }
        router.get("/fault/slow-body") { _, _ -> Response in
            Response(
                status: .ok,
                headers: rss,
                body: .init { writer in
                    // One byte a second: the whole feed would take hours.
                    for byte in feed {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: .seconds(1))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/fault/reset-mid-body") { _, _ -> Response in
            Response(
                status: .ok,
                headers: rss,
                body: .init { writer in
                    try await writer.write(ByteBuffer(bytes: feed[..<(feed.count / 2)]))
                    // Throwing from the body writer makes the server close the connection mid-body.
                    throw CancellationError()
                }
            )
        }
        router.get("/fault/truncated-xml") { _, _ in
            Response(status: .ok, headers: rss, body: .init(byteBuffer: ByteBuffer(bytes: feed[..<(feed.count / 2)])))
        }
        router.get("/fault/internal-error") { _, _ in
            Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "oops")))
        }
        router.get("/fault/unavailable-retry-after") { _, _ in
            Response(status: .serviceUnavailable, headers: [.retryAfter: "120"])
        }
        router.get("/fault/too-many-requests") { _, _ in
            Response(status: .tooManyRequests, headers: [.retryAfter: "Sun, 22 Nov 2099 10:00:00 GMT"])
        }
        router.get("/fault/redirect-loop") { _, _ in
            Response(status: .found, headers: [.location: "/fault/redirect-loop"])
        }
        router.get("/fault/endless-body") { _, _ -> Response in
            Response(
                status: .ok,
                headers: rss,
                body: .init { writer in
                    try await writer.write(ByteBuffer(string: "<rss version=\"2.0\"><channel><title>Endless</title>"))
                    let item = "<item><title>Again</title><guid>same</guid></item>"
                    while true { try await writer.write(ByteBuffer(string: String(repeating: item, count: 100))) }
                }
            )
        }
        router.get("/fault/gzip-bomb") { _, _ -> Response in
            let data = try Fixture.data("gzip-bomb-5mb-of-spaces.xml.gz")
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/fault/html-page") { _, _ -> Response in
            let data = try Fixture.data("not-a-feed-html-page.html")
            return Response(
                status: .ok,
                headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/fault/wrong-content-type") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: feed))
            )
        }
        router.get("/fault/contradicting-charset") { _, _ -> Response in
            let data = try Fixture.data("encoding-http-charset-contradicts-declaration.xml")
            return Response(
                status: .ok,
                headers: [.contentType: "text/xml; charset=windows-1252"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/fault/empty-body") { _, _ in Response(status: .ok, headers: rss) }
        return router
    }

    /// The test process's resident memory, from /proc/self/statm (Linux).
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// What a fault must end in: checked against the faulty source's final status.
    static func check(_ fault: Fault, _ status: SourceStatus, url: String) {
        let reason = status.error?.reason
        switch fault {
        case .slowHeaders, .slowBody:
            #expect(reason == .timedOut(after: timeout))
        case .resetMidBody:
            guard case .connection(let failedURL, _)? = reason else {
                Issue.record("expected a connection failure, got \(String(describing: status.state))")
                return
            }
            #expect(failedURL == url)
            #expect(status.itemCount > 0, "the items before the reset are kept")
        case .truncatedXML:
            // The items before the cut are kept; the damage is named.
            #expect(status.itemCount > 0 && status.itemCount < 30)
            let named = status.warnings.contains { $0.message.localizedCaseInsensitiveContains("end") } || reason != nil
            #expect(named, "\(status)")
        case .internalError:
            #expect(reason == .httpStatus(url: url, status: 500))
        case .unavailableWithRetryAfter:
            #expect(reason == .throttled(url: url, status: 503, retryAfter: .seconds(120)))
        case .tooManyRequests:
            guard case .throttled(url, 429, let retryAfter?)? = reason else {
                Issue.record("expected throttled 429 with a delay, got \(String(describing: reason))")
                return
            }
            #expect(retryAfter > .seconds(3600))
        case .redirectLoop:
            guard case .connection(url, let detail)? = reason else {
                Issue.record("expected a redirect failure, got \(String(describing: reason))")
                return
            }
            #expect(detail.contains("redirect") || detail.contains("cycle"), "\(detail)")
        case .endlessBody:
            #expect(reason == .tooLarge(limit: maxBytes, unit: "bytes"))
        case .gzipBomb:
            guard case .tooLarge? = reason else {
                Issue.record("expected tooLarge, got \(String(describing: reason))")
                return
            }
        case .htmlPage, .emptyBody:
            guard case .notAFeed? = reason else {
                Issue.record("expected notAFeed, got \(String(describing: reason))")
                return
            }
        case .wrongContentType:
            // A feed is a feed whatever the header says: the parser looks at the root element.
            #expect(status.error == nil)
            #expect(status.itemCount == 30)
        case .contradictingCharset:
            #expect(status.error == nil)
            #expect(status.itemCount > 0)
            #expect(!status.warnings.isEmpty, "the contradiction is reported")
        }
        if let error = status.error {
            #expect(error.description.hasPrefix("source 'faulty': "), "\(error)")
        }
    }

    @Test(arguments: Fault.allCases)
    func aFaultEndsItsSourceClearlyAndCostsTheOthersNothing(_ fault: Fault) async throws {
        try await withTestServer(Self.router()) { port in
            let base = "http://127.0.0.1:\(port)"
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let stateFile = directory.appendingPathComponent("state.sqlite")
            let context = SourceContext(baseDirectory: FileManager.default.temporaryDirectory)
            /// One run on a freshly opened store, as one `tributary digest` does it.
            func run(faultyURL: String) async throws -> PipelineResult {
                let store = try await SQLiteStore.open(at: stateFile)
                let options = RSSOptions(url: faultyURL, timeout: "2s", maxBytes: Self.maxBytes)
                let sources = [
                    PipelineSource(
                        source: try RSSSource(
                            id: "healthy",
                            options: RSSOptions(url: "\(base)/healthy"),
                            context: context
                        ),
                        kind: "rss"
                    ),
                    PipelineSource(
                        source: try RSSSource(id: "faulty", options: options, context: context),
                        kind: "rss"
                    ),
                ]
                let result = try await Pipeline(
                    sources: sources,
                    settings: PipelineSettings(defaultTimeout: .seconds(20)),
                    store: store
                ).run()
                try await store.close()
                return result
            }
            // An earlier, healthy run of both sources.
            let earlier = try await run(faultyURL: "\(base)/other")
            #expect(earlier.items.count == 60)
            #expect(!earlier.hasFailures)
            let stored = try await SQLiteStore.open(at: stateFile).items().map { "\($0.sourceID)/\($0.item.id)" }
            #expect(stored.count == 60)

            let url = "\(base)/fault/\(fault.rawValue)"
            let clock = ContinuousClock()
            let start = clock.now
            let residentBefore = Self.residentBytes()
            let result = try await run(faultyURL: url)
            let elapsed = clock.now - start
            #expect(elapsed < Self.timeout + .seconds(3), "took \(elapsed)")
            // Memory stays bounded: an endless body or a bomb costs at most its budgets, not what the server sends.
            if let residentBefore, let residentAfter = Self.residentBytes() {
                #expect(
                    residentAfter - residentBefore < 64 << 20,
                    "grew by \((residentAfter - residentBefore) >> 20) MiB"
                )
            }

            let statuses = Dictionary(uniqueKeysWithValues: result.statuses.map { ($0.sourceID, $0) })
            let healthy = try #require(statuses["healthy"])
            #expect(healthy.error == nil)
            #expect(healthy.itemCount == 30)
            #expect(result.items.filter { $0.sourceID == "healthy" }.count == 30)
            Self.check(fault, try #require(statuses["faulty"]), url: url)

            let reopened = try await SQLiteStore.open(at: stateFile)
            #expect(try await reopened.integrityCheck() == ["ok"])
            let after = Set(try await reopened.items().map { "\($0.sourceID)/\($0.item.id)" })
            #expect(Set(stored).isSubset(of: after), "a fault never removes what earlier runs stored")
        }
    }
}
