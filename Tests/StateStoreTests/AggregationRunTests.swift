import Foundation
import JSONFileAdapter
import Logging
import Renderers
import Synchronization
import TestSupport
import Testing
import TributaryCore

/// ``AggregationRun`` over every store: the run talks only to the ``StateStore`` protocol, so the same runs give
/// the same digests whichever store keeps them.
@Suite struct AggregationRunTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// A feeds.json with one json-file source, `news.json` holding items `ids`.
    struct Feeds {
        let directory: URL
        let registry = SourceRegistry([JSONFileSource.self])

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try #"{ "sources": [ { "id": "news", "kind": "json-file", "path": "news.json" } ] }"#.write(
                to: directory.appendingPathComponent("feeds.json"),
                atomically: true,
                encoding: .utf8
            )
        }

        func write(_ ids: [String]) throws {
            try write(
                items: ids.map { #"{ "id": "\#($0)", "title": "Item \#($0)", "url": "https://example.com/\#($0)" }"# }
            )
        }

        /// news.json with these JSON Feed items.
        func write(items: [String]) throws {
            try
                #"{ "version": "https://jsonfeed.org/version/1.1", "title": "news", "items": [\#(items.joined(separator: ","))] }"#
                .write(to: directory.appendingPathComponent("news.json"), atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// A run as the commands make it (items held as outlines, the digest read back from the store), with the
        /// digest drawn while the store is open; `holdsItems` for a run that keeps its items whole instead.
        func run(
            _ place: StoreUnderTest,
            at date: Date,
            sinceLast: Bool = false,
            holdsItems: Bool = false,
            progress: any RunProgress = SilentRunProgress()
        ) async throws -> DrawnRun {
            let configuration = try ConfigurationLoader.load(
                contentsOf: directory.appendingPathComponent("feeds.json"),
                registry: registry
            )
            let lastDigest: @Sendable (Date, Date?) -> Date? = { _, previous in previous }
            var run = AggregationRun(
                configuration: configuration,
                registry: registry,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                now: { date },
                since: sinceLast ? lastDigest : nil
            )
            run.holdsItems = holdsItems
            let store = try await place.open(runLockTimeout: .seconds(5))
            do {
                var drawn: (Digest, [OutputFormat: String])?
                let outcome = try await run.run(store: store, progress: progress) { outcome in
                    var streamed: [OutputFormat: String] = [:]
                    for renderer in [MarkdownRenderer(), TextRenderer(width: 60), JSONFeedRenderer(), HTMLRenderer()]
                        as [any StreamingRenderer]
                    {
                        var bytes: [UInt8] = []
                        try await outcome.render(with: renderer, batchSize: 2) { bytes += $0 }
                        streamed[type(of: renderer).format] = String(decoding: bytes, as: UTF8.self)
                    }
                    drawn = (try await outcome.digest(), streamed)
                }
                try await store.close()
                let (digest, streamed) = try #require(drawn)
                return DrawnRun(outcome: outcome, digest: digest, streamed: streamed)
            } catch {
                try? await store.close()
                throw error
            }
        }
    }

    /// A run's outcome, its whole digest, and the digest streamed by each streaming renderer (two items a batch).
    struct DrawnRun {
        var outcome: AggregationRun.Outcome
        var digest: Digest
        var streamed: [OutputFormat: String]
        var hasFailures: Bool { outcome.hasFailures }
        var outline: DigestOutline { outcome.outline }
    }

    /// A run that holds only outlines (as the commands run) draws its digest from the store: the same digest as a
    /// run that holds its items whole, and each streaming renderer, fed two items at a time across days, writes
    /// exactly what it renders from the whole digest.
    @Test(arguments: StoreKind.available)
    func aDigestDrawnFromTheStoreIsTheDigestOfTheHeldItems(_ kind: StoreKind) async throws {
        let feeds = try Feeds()
        defer { feeds.remove() }
        try feeds.write(items: [
            #"{ "id": "a", "title": "History of the <blink> tag", "url": "https://example.com/a", "date_published": "2026-11-18T09:30:00Z", "content_html": "<p>Tags &amp; <b>more</b></p>", "tags": ["web"] }"#,
            #"{ "id": "b", "title": "Second", "url": "https://example.com/b", "date_published": "2026-11-18T08:00:00Z", "summary": "A summary" }"#,
            #"{ "id": "c", "title": "Third", "url": "https://example.com/c", "date_published": "2026-11-17T23:00:00Z" }"#,
            #"{ "id": "d", "title": "Dated only", "url": "https://example.com/d", "date_published": "2026-11-16" }"#,
            #"{ "id": "e", "title": "Undated", "url": "https://example.com/e" }"#,
            #"{ "id": "f", "url": "https://example.com/f", "content_text": "No title, only text" }"#,
            #"{ "id": "g", "title": "Fourth", "url": "https://example.com/g", "date_published": "2026-11-17T01:00:00Z", "authors": [{ "name": "Jane" }] }"#,
        ])
        let held = try await StoreUnderTest.with(kind) { try await feeds.run($0, at: Self.t0, holdsItems: true) }
        let drawn = try await StoreUnderTest.with(kind) { try await feeds.run($0, at: Self.t0) }
        #expect(held.outcome.result.items.count == 7)
        #expect(drawn.outcome.result.items.isEmpty, "the run held its items whole")
        #expect(drawn.outcome.result.outlines.map(\.id) == held.outcome.result.items.map(\.id))
        #expect(held.digest.days.count >= 3, "the items span days, so batches cross from one day to the next")
        #expect(held.digest.entries.first { $0.item.id == "a" }?.title == "History of the <blink> tag")
        #expect(drawn.digest == held.digest)
        #expect(drawn.outline == held.digest.outline)
        let renderers: [any StreamingRenderer] = [
            MarkdownRenderer(), TextRenderer(width: 60), JSONFeedRenderer(), HTMLRenderer(),
        ]
        for renderer in renderers {
            let whole = try renderer.render(held.digest)
            #expect(drawn.streamed[type(of: renderer).format] == whole)
            #expect(held.streamed[type(of: renderer).format] == whole)
        }
    }

    /// Records the events of a run.
    final class RecordingProgress: RunProgress {
        let wantsItems: Bool
        private let recorded = Mutex<[PipelineEvent]>([])
        var events: [PipelineEvent] { recorded.withLock { $0 } }
        init(wantsItems: Bool) { self.wantsItems = wantsItems }
        func begin(sources: [(id: SourceID, title: String?)]) async {}
        func handle(_ event: PipelineEvent) async { recorded.withLock { $0.append(event) } }
        func end() async {}
    }

    /// A progress that shows only statuses (as `digest`'s lines do) gets no events of items, and the run ends with
    /// the same digest as one whose progress wants them, which gets every item.
    @Test(arguments: StoreKind.available)
    func aProgressThatWantsNoItemsGetsNoneAndTheSameDigest(_ kind: StoreKind) async throws {
        let feeds = try Feeds()
        defer { feeds.remove() }
        try feeds.write(["a", "b", "c"])
        let watching = RecordingProgress(wantsItems: true)
        let statusOnly = RecordingProgress(wantsItems: false)
        let withItems = try await StoreUnderTest.with(kind) {
            try await feeds.run($0, at: Self.t0, progress: watching)
        }
        let withoutItems = try await StoreUnderTest.with(kind) {
            try await feeds.run($0, at: Self.t0, progress: statusOnly)
        }
        func items(_ events: [PipelineEvent]) -> [String] {
            events.flatMap { event -> [String] in
                if case .itemsAdded(let items) = event { return items.map(\.id) }
                return []
            }
        }
        #expect(items(watching.events).sorted() == ["a", "b", "c"])
        #expect(items(statusOnly.events).isEmpty)
        #expect(statusOnly.events.contains { if case .sourceStatusChanged = $0 { true } else { false } })
        #expect(withoutItems.digest == withItems.digest)
        #expect(withoutItems.streamed == withItems.streamed)
        #expect(SilentRunProgress().wantsItems == false)
    }

    @Test(arguments: StoreKind.available)
    func runsRememberItemsDigestsAndFailuresInTheStore(_ kind: StoreKind) async throws {
        let feeds = try Feeds()
        defer { feeds.remove() }
        try await StoreUnderTest.with(kind) { place in
            try feeds.write(["a", "b"])
            let first = try await feeds.run(place, at: Self.t0)
            #expect(first.digest.entries.map(\.item.id).sorted() == ["a", "b"])
            #expect(!first.hasFailures)

            try feeds.write(["a", "b", "c"])
            let t1 = Self.t0.addingTimeInterval(3600)
            let second = try await feeds.run(place, at: t1, sinceLast: true)
            // Only what is new since the first digest; "a" keeps the time it was first seen.
            #expect(second.digest.entries.map(\.item.id) == ["c"])

            // The file disappears: the source fails, and its failure is remembered for the next run's digest.
            try FileManager.default.removeItem(at: feeds.directory.appendingPathComponent("news.json"))
            let third = try await feeds.run(place, at: t1.addingTimeInterval(60))
            #expect(third.hasFailures)
            let fourth = try await feeds.run(place, at: t1.addingTimeInterval(120))
            let summary = try #require(fourth.digest.sources.first)
            #expect(summary.health?.contains("failing for 2 runs") == true, "\(summary.health ?? "no health line")")

            let store = try await place.open()
            let items = try await store.items()
            #expect(items.map(\.item.id) == ["a", "b", "c"])
            #expect(items.first?.firstSeen == Self.t0)
            #expect(try await store.health(for: "news").consecutiveFailures == 2)
            try await store.close()
        }
    }
}
