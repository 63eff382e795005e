import Foundation
import Logging
import Testing

@testable import TributaryCore

/// A fleet worker's fetch lasts at most its lease, whatever it is stuck in: the shared store's call that never
/// returns (what a PostgreSQL restart did to a transaction under postgres-nio) must not hold one of the worker's
/// slots, or its drain, for good. The process-level test restarts a real server (FleetTests); this one makes the
/// stuck call certain.
@Suite struct FleetWorkerLeaseTests {
    /// A queue whose store never comes back (its wait ignores cancellation, as a call stuck below Swift's
    /// cancellation does), and which records what is released.
    final class StuckQueue: FleetQueue {
        let unstuck = LockedValue(false)
        let released = LockedValue<[SourceID]>([])

        func fleetConfiguration(changedSince version: Int64?) async throws -> FleetConfiguration? { nil }
        func claim(limit: Int, worker: String, now: Date, lease: Duration, maxPerHost: Int) async throws
            -> [SourceID]
        { [] }
        func release(_ source: SourceID, worker: String, nextDue: Date, fetch: FleetFetch) async throws {
            released.withLock { $0.append(source) }
        }
        func holdHost(_ host: String, until date: Date) async throws {}
        func storeForRun() async -> any StateStore {
            while !unstuck.value { try? await Task.sleep(for: .milliseconds(10)) }
            return InMemoryItemStore()
        }
        func nextDue() async throws -> Date? { nil }
    }

    /// Collects the messages the worker logs.
    struct Recording: LogHandler {
        let messages: LockedValue<[String]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            messages.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }

    // Without the bound the fetch would wait for good: the time limit turns that into a failure.
    @Test(.timeLimit(.minutes(1))) func aFetchStuckInTheStoreIsStoppedAtTheEndOfItsLease() async throws {
        let configuration = try ConfigurationLoader.load(
            data: Data(
                #"{"sources": [{"id": "a", "kind": "rss", "url": "http://127.0.0.1:1/feed", "timeout": "1s"}]}"#.utf8
            ),
            file: URL(fileURLWithPath: "/tmp/feeds.json"),
            registry: ConfigurationTestSources.registry
        )
        let margin = Duration.milliseconds(300)
        let list = FleetWorker.LoadedList(version: 1, configuration: configuration, leaseMargin: margin)
        #expect(list.lease == .milliseconds(1_300))
        let messages = LockedValue<[String]>([])
        let worker = FleetWorker(
            registry: ConfigurationTestSources.registry,
            logger: Logger(label: "test", factory: { _ in Recording(messages: messages) }),
            name: "test-worker",
            leaseMargin: margin
        )
        let queue = StuckQueue()
        let clock = ContinuousClock()
        let started = clock.now
        await worker.fetchWithinLease(SourceID("a"), list: list, queue: queue)
        let waited = clock.now - started
        // The lease, then at most the grace a stopped fetch is given.
        #expect(waited >= list.lease, "returned after \(waited)")
        #expect(waited < list.lease + FleetWorker.stopGrace + .seconds(2), "returned after \(waited)")
        #expect(queue.released.value.isEmpty)
        #expect(
            messages.value.contains {
                $0.hasPrefix("warning:") && $0.contains("did not finish within its lease of 1300ms")
            },
            "\(messages.value)"
        )
        queue.unstuck.withLock { $0 = true }
    }
}
