import Foundation
import Hummingbird
import NIOCore
import RSSAdapter
import TestSupport
import Testing
import TributaryCore

/// Conditional GET (issue 8): validators from the previous run are sent back, and a `304` ends the run with
/// `notModified`, against a real HTTP server on loopback that implements RFC 9110's precondition rules.
@Suite struct ConditionalGetTests {
    /// A feed whose version the test can change, served with `ETag` and `Last-Modified`; it records the
    /// precondition headers of every request.
    actor VersionedFeed {
        private(set) var version = 1
        private(set) var requests: [(ifNoneMatch: String?, ifModifiedSince: String?)] = []

        func bump() { version += 1 }

        func record(ifNoneMatch: String?, ifModifiedSince: String?) -> Int {
            requests.append((ifNoneMatch, ifModifiedSince))
            return version
        }

        static func entityTag(_ version: Int) -> String { "\"v\(version)\"" }

        /// Version 1 was modified on 1 November, each later one a day after.
        static func lastModified(_ version: Int) -> String {
            String(format: "Sun, %02d Nov 2026 08:00:00 GMT", version)
        }

        static func body(_ version: Int) -> String {
            var items = ""
            for index in 1...version {
                items += "<item><title>Story \(index)</title><guid>story-\(index)</guid></item>"
            }
            return "<rss version=\"2.0\"><channel><title>Versioned</title>\(items)</channel></rss>"
        }
    }

    private static func router(_ feed: VersionedFeed, sendsEntityTag: Bool = true) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/feed") { request, _ -> Response in
            let ifNoneMatch = request.headers[.ifNoneMatch]
            let ifModifiedSince = request.headers[.ifModifiedSince]
            let version = await feed.record(ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince)
            let entityTag = VersionedFeed.entityTag(version)
            let lastModified = VersionedFeed.lastModified(version)
            var headers: HTTPFields = [.contentType: "application/rss+xml", .lastModified: lastModified]
            if sendsEntityTag { headers[.eTag] = entityTag }
            // If-None-Match wins over If-Modified-Since when both are sent (RFC 9110 section 13.2.2).
            let unchanged =
                if let ifNoneMatch, sendsEntityTag { ifNoneMatch == entityTag } else { ifModifiedSince == lastModified }
            if unchanged { return Response(status: .notModified, headers: headers) }
            return Response(
                status: .ok,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: VersionedFeed.body(version)))
            )
        }
        return router
    }

    private static func run(_ source: RSSSource) async throws -> EventRecorder {
        let recorder = EventRecorder()
        try await source.run(into: recorder.sink)
        return recorder
    }

    private static func source(url: String, savedState: SourceCheckpoint = SourceCheckpoint()) throws -> RSSSource {
        let context = SourceContext(baseDirectory: FileManager.default.temporaryDirectory, savedState: savedState)
        return try RSSSource(id: "feed", options: RSSOptions(url: url), context: context)
    }

    private static func checkpoint(of recorder: EventRecorder) async -> SourceCheckpoint? {
        for case .checkpoint(let checkpoint) in await recorder.events { return checkpoint }
        return nil
    }

    @Test func aFirstFetchSendsNoPreconditionsAndCheckpointsTheValidatorsAfterTheItems() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed)) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let recorder = try await Self.run(try Self.source(url: url))
            let events = await recorder.events
            #expect(events.last == .finished)
            let checkpoint = try #require(await Self.checkpoint(of: recorder))
            #expect(checkpoint["url"] == url)
            #expect(checkpoint["etag"] == VersionedFeed.entityTag(1))
            #expect(checkpoint["last-modified"] == VersionedFeed.lastModified(1))
            // The checkpoint comes after the last items and right before `finished`.
            #expect(events.dropLast().last == .checkpoint(checkpoint))
            let request = try #require(await feed.requests.first)
            #expect(request.ifNoneMatch == nil && request.ifModifiedSince == nil)
        }
    }

    @Test func anUnchangedFeedAnswers304AndTheRunEndsNotModifiedWithoutItems() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed)) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let first = try await Self.run(try Self.source(url: url))
            let saved = try #require(await Self.checkpoint(of: first))
            let second = try await Self.run(try Self.source(url: url, savedState: saved))
            #expect(await second.events == [.started, .notModified])
            let request = try #require(await feed.requests.last)
            #expect(request.ifNoneMatch == VersionedFeed.entityTag(1))
            #expect(request.ifModifiedSince == VersionedFeed.lastModified(1))
        }
    }

    @Test func aChangedFeedIsReadInFullWithNewValidators() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed)) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let saved = try #require(await Self.checkpoint(of: try await Self.run(try Self.source(url: url))))
            await feed.bump()
            let second = try await Self.run(try Self.source(url: url, savedState: saved))
            #expect(await second.finished)
            // The guids are relative permalinks: resolved against the feed's URL, as feedparser resolves them.
            #expect(
                await second.items.map(\.id) == [
                    "http://127.0.0.1:\(port)/story-1", "http://127.0.0.1:\(port)/story-2",
                ]
            )
            #expect(await second.items.map { $0.tributary?.guid } == ["story-1", "story-2"])
            #expect(await Self.checkpoint(of: second)?["etag"] == VersionedFeed.entityTag(2))
        }
    }

    @Test func lastModifiedAloneIsEnoughForA304() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed, sendsEntityTag: false)) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let saved = try #require(await Self.checkpoint(of: try await Self.run(try Self.source(url: url))))
            #expect(saved["etag"] == nil)
            let second = try await Self.run(try Self.source(url: url, savedState: saved))
            #expect(await second.events == [.started, .notModified])
            #expect(await feed.requests.last?.ifNoneMatch == nil)
        }
    }

    @Test func validatorsSavedForAnotherURLAreNotSent() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed)) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let foreign = SourceCheckpoint([
                "url": "http://127.0.0.1:\(port)/old-feed", "etag": VersionedFeed.entityTag(1),
            ])
            let recorder = try await Self.run(try Self.source(url: url, savedState: foreign))
            #expect(await recorder.finished)
            #expect(await recorder.items.count == 1)
            #expect(await feed.requests.last?.ifNoneMatch == nil)
        }
    }

    @Test func oneSourceFetchedAgainPollsConditionallyWithItsLatestValidators() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed)) { port in
            // `watch` runs the same source instance on every poll.
            let source = try Self.source(url: "http://127.0.0.1:\(port)/feed")
            _ = try await Self.run(source)
            await feed.bump()
            let changed = try await Self.run(source)
            #expect(await changed.items.count == 2)
            let unchanged = try await Self.run(source)
            #expect(await unchanged.events == [.started, .notModified])
            #expect(await feed.requests.map(\.ifNoneMatch) == [nil, "\"v1\"", "\"v2\""])
        }
    }

    @Test func aServerThatAnswers304WithoutBeingAskedIsAnError() async throws {
        let router = Router()
        router.get("/feed") { _, _ in Response(status: .notModified) }
        try await withTestServer(router) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let recorder = try await Self.run(try Self.source(url: url))
            #expect(await recorder.failure?.reason == .httpStatus(url: url, status: 304))
        }
    }

    @Test func aSecondPipelineRunServesTheStoredItemsAsNotModified() async throws {
        let feed = VersionedFeed()
        try await withTestServer(Self.router(feed)) { port in
            let url = "http://127.0.0.1:\(port)/feed"
            let store = InMemoryItemStore()
            func runPipeline() async throws -> PipelineResult {
                let saved = await store.checkpoint(for: "feed")
                let source = try Self.source(url: url, savedState: saved)
                return try await Pipeline(
                    sources: [PipelineSource(source: source, kind: RSSSource.kind)],
                    settings: PipelineSettings(),
                    store: store
                ).run()
            }
            let first = try await runPipeline()
            #expect(first.statuses.map(\.state) == [.succeeded])
            let second = try await runPipeline()
            #expect(second.statuses.map(\.state) == [.notModified])
            #expect(second.items.map(\.id) == first.items.map(\.id))
            #expect(second.items.map(\.title) == ["Story 1"])
            #expect(await feed.requests.count == 2)
        }
    }
}
