import Foundation
import JSONFileAdapter
import Logging
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
            let items = ids.map { #"{ "id": "\#($0)", "title": "Item \#($0)", "url": "https://example.com/\#($0)" }"# }
            try
                #"{ "version": "https://jsonfeed.org/version/1.1", "title": "news", "items": [\#(items.joined(separator: ","))] }"#
                .write(to: directory.appendingPathComponent("news.json"), atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        func run(_ place: StoreUnderTest, at date: Date, sinceLast: Bool = false) async throws -> AggregationRun.Outcome
        {
            let configuration = try ConfigurationLoader.load(
                contentsOf: directory.appendingPathComponent("feeds.json"),
                registry: registry
            )
            let lastDigest: @Sendable (Date, Date?) -> Date? = { _, previous in previous }
            let run = AggregationRun(
                configuration: configuration,
                registry: registry,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                now: { date },
                since: sinceLast ? lastDigest : nil
            )
            let store = try await place.open(runLockTimeout: .seconds(5))
            do {
                let outcome = try await run.run(store: store)
                try await store.close()
                return outcome
            } catch {
                try? await store.close()
                throw error
            }
        }
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
