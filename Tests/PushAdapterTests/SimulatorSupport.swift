import Foundation
import Logging
import PushAdapter
import Synchronization
import TributaryCore

/// Runs a ``PushSimulatorServer`` on 127.0.0.1, port 0, for the duration of `body`, then stops it.
func withSimulator<T: Sendable>(
    _ configuration: PushSimulatorConfiguration,
    onConnection: @escaping @Sendable (Int64?) -> Void = { _ in },
    onEvent: @escaping @Sendable (PushSimulatorServer.ConnectionEvent) -> Void = { _ in },
    _ body: @Sendable (_ port: Int) async throws -> T
) async throws -> T {
    let server = PushSimulatorServer(
        configuration: configuration,
        port: 0,
        onConnection: onConnection,
        onEvent: onEvent
    )
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await server.run { port in
                continuation.yield(port)
                continuation.finish()
            }
            return nil
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw SimulatorDidNotStart() }
        let result = try await body(port)
        group.cancelAll()
        return result
    }
}

struct SimulatorDidNotStart: Error {}

/// Records a source's events.
actor EventRecorder {
    private(set) var events: [SourceEvent] = []

    func append(_ event: SourceEvent) { events.append(event) }

    var items: [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            guard case .items(let items) = event else { return [] }
            return items
        }
    }

    var warnings: [SourceWarning] {
        events.compactMap { event -> SourceWarning? in
            guard case .warning(let warning) = event else { return nil }
            return warning
        }
    }
}

/// Runs a live source until `enough` holds for its recorded events (or `limit` passes), then cancels it.
/// - Returns: whether `enough` held.
func runLive(
    _ source: PushSource,
    recorder: EventRecorder,
    limit: Duration = .seconds(30),
    until enough: @escaping @Sendable (EventRecorder) async -> Bool
) async -> Bool {
    await withTaskGroup(of: Bool?.self) { group in
        group.addTask {
            try? await source.run(into: EventSink { await recorder.append($0) })
            return nil
        }
        group.addTask {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if await enough(recorder) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
        // The watcher's verdict (enough, or the limit passed) ends the run; so does the source stopping on its own,
        // after which the watcher still gets its look at the events.
        var satisfied = false
        while let next = await group.next() {
            if let verdict = next {
                satisfied = verdict
                break
            }
        }
        group.cancelAll()
        return satisfied
    }
}

/// A context for tests: a fresh temp directory, no logging.
func testContext(mode: SourceContext.Mode) -> SourceContext {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return SourceContext(baseDirectory: directory, mode: mode)
}

let testEpoch = Date(timeIntervalSince1970: 1_767_225_600)

/// The seq in a simulator item id `sim-SEED-SEQ`.
func seq(of item: FeedItem) -> Int64? {
    item.id.split(separator: "-").last.flatMap { Int64($0) }
}
