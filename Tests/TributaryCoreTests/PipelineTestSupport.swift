import Foundation
import Synchronization
import TributaryCore

/// A test-only source that follows a script: send events, pause, throw, or hang until cancelled.
struct ScriptedSource: Source {
    enum Step: Sendable {
        case send(SourceEvent)
        case sleep(Duration)
        case fail(String)
        case throwError(SourceError)
        /// Sleeps until the task is cancelled, then returns (SRC-10).
        case hang
        /// Waits (polling) until the condition holds; throws when it does not within two seconds.
        case waitUntil(@Sendable () -> Bool)
        /// Waits this long where cancellation cannot reach (a thread of its own, a continuation without a
        /// cancellation handler): a C call, a blocking read, a handshake future that ignores cancellation.
        case block(Duration)
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { "Failure: \(message)" }
    }

    struct Options: Decodable, Sendable {}

    static let kind = "scripted"
    static let documentation = SourceDocumentation(summary: "Test script.", options: [], example: "{}")

    let id: SourceID
    let steps: [Step]

    init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        self.steps = []
    }

    init(_ id: SourceID, _ steps: [Step]) {
        self.id = id
        self.steps = steps
    }

    /// `started`, one batch per element of `batches`, `finished`.
    static func healthy(_ id: SourceID, _ batches: [FeedItem]...) -> ScriptedSource {
        ScriptedSource(id, [.send(.started)] + batches.map { .send(.items($0)) } + [.send(.finished)])
    }

    func run(into sink: EventSink) async throws {
        for step in steps {
            switch step {
            case .send(let event):
                await sink.send(event)
            case .sleep(let duration):
                try await Task.sleep(for: duration)
            case .fail(let message):
                throw Failure(message: message)
            case .throwError(let error):
                throw error
            case .waitUntil(let condition):
                let deadline = ContinuousClock.now + .seconds(2)
                while !condition() {
                    guard ContinuousClock.now < deadline else { throw Failure(message: "condition never held") }
                    try await Task.sleep(for: .milliseconds(5))
                }
            case .block(let duration):
                let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: seconds)
                        continuation.resume()
                    }
                }
            case .hang:
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(3600))
                }
                return
            }
        }
    }
}

/// A flag one task sets and another polls.
final class Flag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }

    var isSet: Bool { value.withLock { $0 } }
}

/// Collects pipeline events in the order they are published.
final class EventRecorder: Sendable {
    private let events = Mutex<[PipelineEvent]>([])

    func record(_ event: PipelineEvent) {
        events.withLock { $0.append(event) }
    }

    var all: [PipelineEvent] { events.withLock { $0 } }

    /// Each event as a short line, for comparing sequences.
    var lines: [String] {
        all.map { event in
            switch event {
            case .sourceStatusChanged(let status):
                let state: String
                switch status.state {
                case .pending: state = "pending"
                case .running: state = "running"
                case .succeeded: state = "succeeded"
                case .notModified: state = "notModified"
                case .failed: state = "failed"
                }
                return "status \(status.sourceID) \(state) \(status.itemCount)"
            case .itemsAdded(let items): return "added " + items.map(\.id).joined(separator: ",")
            case .itemsUpdated(let items): return "updated " + items.map(\.id).joined(separator: ",")
            case .itemsRemoved(let items): return "removed " + items.map(\.id).joined(separator: ",")
            case .warning(let source, let warning): return "warning \(source) \(warning.message)"
            }
        }
    }
}

/// A fixed instant the tests measure ages from: 2026-11-22T06:00:00Z.
let referenceNow = Date(timeIntervalSince1970: 1_795_327_200)

/// `referenceNow` shifted by a number of hours.
func hoursFromNow(_ hours: Double) -> Date {
    referenceNow.addingTimeInterval(hours * 3600)
}

/// A small item for pipeline tests.
func makeItem(
    _ id: String,
    title: String? = nil,
    url: String? = nil,
    published: Date? = nil,
    tags: [String] = []
) -> FeedItem {
    FeedItem(
        id: id,
        url: url ?? "https://example.org/\(id)",
        title: title ?? "Item \(id)",
        datePublished: published,
        tags: tags
    )
}

/// Settings with a fixed clock.
func fixedSettings(
    maxAge: Duration? = nil,
    maxItemsPerSource: Int? = nil,
    include: [String] = [],
    exclude: [String] = [],
    defaultTimeout: Duration = .seconds(10)
) -> PipelineSettings {
    PipelineSettings(
        maxAge: maxAge,
        maxItemsPerSource: maxItemsPerSource,
        include: include,
        exclude: exclude,
        defaultTimeout: defaultTimeout,
        now: { referenceNow }
    )
}
