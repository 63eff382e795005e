import Foundation
import Logging
import SQLiteStore
import Synchronization
import Testing
import TributaryCore

@testable import TributaryCLI

/// `digest`'s run against a real state store in a fresh directory, in process, with a clock the test sets.
@Suite struct StatefulRunTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_330_800)

    /// A workspace with feeds.json listing `sources` (json-file sources by id and file name).
    final class Setup {
        let workspace: Workspace
        let configuration: FeedsConfiguration
        let registry = SourceRegistry(TributaryMain.sources + [RunCountingSource.self as any Source.Type])

        init(_ sources: [String], extra: String = "") throws {
            workspace = try Workspace()
            let entries = sources.map { #"{ "id": "\#($0)", "kind": "json-file", "path": "\#($0).json" }"# }
            try workspace.write(
                "feeds.json",
                #"{ "timeZone": "UTC", \#(extra) "sources": [ \#(entries.joined(separator: ", ")) ] }"#
            )
            configuration = try ConfigurationLoader.load(
                contentsOf: workspace.url.appendingPathComponent("feeds.json"),
                registry: registry
            )
        }

        var storeURL: URL { workspace.url.appendingPathComponent(".tributary/state.sqlite") }

        /// Writes a JSON Feed with items `ids` as `<source>.json`.
        func feed(_ source: String, _ ids: [String]) throws {
            let items = ids.map { #"{ "id": "\#($0)", "title": "Item \#($0)", "url": "https://example.com/\#($0)" }"# }
            try workspace.write(
                "\(source).json",
                #"{ "version": "https://jsonfeed.org/version/1.1", "title": "\#(source)", "items": [\#(items.joined(separator: ","))] }"#
            )
        }

        /// A run as `digest` makes it: the items held only as outlines, the digest read back from the store.
        func run(
            at date: Date,
            since: SinceOption? = nil,
            configuration: FeedsConfiguration? = nil,
            retryFailed: Bool = false,
            deliver: (AggregationRun.Outcome) async throws -> Void = { _ in }
        ) async throws -> DrawnRun {
            var run = AggregationRun(
                configuration: configuration ?? self.configuration,
                registry: registry,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                now: { date },
                since: since?.cutoffRule,
                retryFailed: retryFailed
            )
            run.holdsItems = false
            var digest: Digest?
            let outcome = try await run.run(
                in: .sqlite(storeURL),
                lockTimeout: .seconds(5),
                progress: ProgressReporter(live: false, quiet: true, write: { _ in })
            ) { outcome in
                digest = try await outcome.digest()
                try await deliver(outcome)
            }
            return DrawnRun(outcome: outcome, digest: try #require(digest))
        }
    }

    /// A run's outcome and the digest drawn from the store while it was open.
    struct DrawnRun {
        var outcome: AggregationRun.Outcome
        var digest: Digest
        var hasFailures: Bool { outcome.hasFailures }
    }

    static func titles(_ digest: Digest) -> [String] {
        digest.days.flatMap(\.entries).map(\.title).sorted()
    }

    @Test func aDigestWhoseOutputFailsIsNotRecordedAsShown() async throws {
        struct WriteFailed: Error {}
        let setup = try Setup(["news"])
        try setup.feed("news", ["a"])
        _ = try await setup.run(at: Self.t0)
        try setup.feed("news", ["a", "b"])
        await #expect(throws: WriteFailed.self) {
            _ = try await setup.run(at: Self.t0.addingTimeInterval(3600), since: .last) { _ in throw WriteFailed() }
        }
        // The failed run's item was never shown: the next `--since last` still has it.
        let next = try await setup.run(at: Self.t0.addingTimeInterval(7200), since: .last)
        #expect(Self.titles(next.digest) == ["Item b"])
    }

    @Test func itemsFirstSeenAfterThePreviousDigestAreNewAndSinceLastKeepsOnlyThem() async throws {
        let setup = try Setup(["news"])
        try setup.feed("news", ["a", "b"])
        let first = try await setup.run(at: Self.t0)
        #expect(first.digest.days.flatMap(\.entries).allSatisfy { !$0.isNew })
        #expect(Self.titles(first.digest) == ["Item a", "Item b"])

        try setup.feed("news", ["a", "b", "c"])
        let second = try await setup.run(at: Self.t0.addingTimeInterval(3600))
        let entries = second.digest.days.flatMap(\.entries)
        #expect(entries.filter(\.isNew).map(\.title) == ["Item c"])
        #expect(entries.count == 3)

        try setup.feed("news", ["a", "b", "c", "d"])
        let third = try await setup.run(at: Self.t0.addingTimeInterval(7200), since: .last)
        #expect(Self.titles(third.digest) == ["Item d"])
        #expect(third.digest.sources.first?.itemCount == 1)

        let fourth = try await setup.run(at: Self.t0.addingTimeInterval(7300), since: .duration(.seconds(3800)))
        #expect(Self.titles(fourth.digest) == ["Item c", "Item d"])
    }

    @Test func aSourceThatKeepsFailingBacksOffServesItsStoredItemsAndShowsItsHealth() async throws {
        let setup = try Setup(["news", "notes"])
        try setup.feed("news", ["a", "b"])
        try setup.feed("notes", ["n"])
        _ = try await setup.run(at: Self.t0)

        try setup.workspace.write("news.json", "not json")
        let failedOnce = try await setup.run(at: Self.t0.addingTimeInterval(60))
        let news = try #require(failedOnce.digest.sources.first)
        #expect(news.state == .failed)
        #expect(news.health == "failing for 1 run; last success 2026-11-22 07:00")
        #expect(failedOnce.digest.sources.last?.health == nil)

        let failedTwice = try await setup.run(at: Self.t0.addingTimeInterval(120))
        #expect(failedTwice.digest.sources.first?.health?.hasPrefix("failing for 2 runs") == true)
        #expect(failedTwice.digest.sources.first?.health?.hasSuffix("next try after 07:17") == true)

        // Backing off: the file is good again, but the source is not read before its next try.
        try setup.feed("news", ["a", "b", "c"])
        let skipped = try await setup.run(at: Self.t0.addingTimeInterval(180))
        let skippedNews = try #require(skipped.digest.sources.first)
        #expect(skippedNews.state == .failed)
        #expect(skippedNews.reason?.contains("not fetched: backing off after 2 failed runs") == true)
        #expect(skippedNews.itemCount == 2)
        #expect(skippedNews.health?.hasPrefix("failing for 2 runs") == true)
        #expect(Self.titles(skipped.digest) == ["Item a", "Item b", "Item n"])

        // After the wait it is tried again, and a success clears its health.
        let healed = try await setup.run(at: Self.t0.addingTimeInterval(120 + 901))
        #expect(healed.digest.sources.first?.state == .ok)
        #expect(healed.digest.sources.first?.health == nil)
        #expect(Self.titles(healed.digest) == ["Item a", "Item b", "Item c", "Item n"])
    }

    /// The edit-and-retry loop: a backing-off source says when it is tried next; `--retry-failed` tries it now;
    /// and a source whose feeds.json entry was edited (to fix it) is not held back by its old failures.
    @Test func aFixedSourceIsTriedAtOnceAndRetryFailedTriesNow() async throws {
        let setup = try Setup(["news"])
        try setup.workspace.write("news.json", "not json")
        _ = try await setup.run(at: Self.t0)
        _ = try await setup.run(at: Self.t0.addingTimeInterval(60))
        try setup.feed("news", ["a"])
        let skipped = try await setup.run(at: Self.t0.addingTimeInterval(120))
        let reason = try #require(skipped.digest.sources.first?.reason)
        #expect(reason.contains("next try at 07:16 (in 14 min), or now with --retry-failed"), "\(reason)")

        let retried = try await setup.run(at: Self.t0.addingTimeInterval(180), retryFailed: true)
        #expect(retried.digest.sources.first?.state == .ok)
        #expect(Self.titles(retried.digest) == ["Item a"])

        // Failing again twice, then the entry is edited: the next run fetches it without waiting.
        try setup.workspace.write("news.json", "not json")
        _ = try await setup.run(at: Self.t0.addingTimeInterval(240))
        _ = try await setup.run(at: Self.t0.addingTimeInterval(300))
        try setup.feed("fixed", ["b"])
        try setup.workspace.write(
            "feeds.json",
            #"{ "timeZone": "UTC", "sources": [ { "id": "news", "kind": "json-file", "path": "fixed.json" } ] }"#
        )
        let edited = try ConfigurationLoader.load(
            contentsOf: setup.workspace.url.appendingPathComponent("feeds.json"),
            registry: setup.registry
        )
        let fixed = try await setup.run(at: Self.t0.addingTimeInterval(360), configuration: edited)
        #expect(fixed.digest.sources.first?.state == .ok)
        #expect(Self.titles(fixed.digest).contains("Item b"))
    }

    @Test func checkpointsReachTheSourcesOfTheNextRun() async throws {
        let workspace = try Workspace()
        try workspace.write("feeds.json", #"{ "sources": [ { "id": "counter", "kind": "run-counting" } ] }"#)
        let registry = SourceRegistry(TributaryMain.sources + [RunCountingSource.self as any Source.Type])
        let configuration = try ConfigurationLoader.load(
            contentsOf: workspace.url.appendingPathComponent("feeds.json"),
            registry: registry
        )
        var titles: [[String]] = []
        for round in 0..<3 {
            let run = AggregationRun(
                configuration: configuration,
                registry: registry,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                now: { Self.t0.addingTimeInterval(TimeInterval(round)) }
            )
            var digest: Digest?
            _ = try await run.run(
                in: .sqlite(workspace.url.appendingPathComponent("state.sqlite")),
                lockTimeout: .seconds(5),
                progress: ProgressReporter(live: false, quiet: true, write: { _ in })
            ) { digest = try await $0.digest() }
            titles.append(try #require(digest).days.flatMap(\.entries).map(\.title))
        }
        #expect(titles == [["count 0"], ["count 1"], ["count 2"]])
    }

    @Test func itemsNoRunHasSeenForTheRetentionArePruned() async throws {
        let setup = try Setup(["news"], extra: #""retention": "10d","#)
        #expect(setup.configuration.retention == .seconds(10 * 86_400))
        try setup.feed("news", ["a", "b", "c"])
        _ = try await setup.run(at: Self.t0)
        try setup.feed("news", ["a"])
        _ = try await setup.run(at: Self.t0.addingTimeInterval(5 * 86_400))
        var store = try await SQLiteStore.open(at: setup.storeURL)
        #expect(try await store.items().map(\.item.id) == ["a", "b", "c"])
        try await store.close()
        _ = try await setup.run(at: Self.t0.addingTimeInterval(11 * 86_400))
        store = try await SQLiteStore.open(at: setup.storeURL)
        #expect(try await store.items().map(\.item.id) == ["a"])
    }
}

/// A source that counts its runs through its checkpoint: it delivers one item `count N` and saves `N + 1`.
struct RunCountingSource: Source {
    struct Options: Decodable, Sendable {}
    static let kind = "run-counting"
    static let documentation = SourceDocumentation(summary: "Counts its runs.", options: [], example: "{}")

    let id: SourceID
    let count: Int

    init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        count = context.savedState["n"].flatMap { Int($0) } ?? 0
    }

    func run(into sink: EventSink) async throws {
        await sink.started()
        await sink.items([FeedItem(id: "count-\(count)", title: "count \(count)")])
        await sink.checkpoint(SourceCheckpoint(["n": "\(count + 1)"]))
        await sink.finished()
    }
}
