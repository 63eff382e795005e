import Synchronization
import TributaryCore

/// Records every event a source sends, with the time it came, without suspending the source.
final class RecordingSink: Sendable {
    /// One recorded event.
    struct Entry: Sendable {
        var event: SourceEvent
        var time: ContinuousClock.Instant
    }

    private let entries = Mutex<[Entry]>([])

    /// The sink to hand to `run(into:)`.
    var sink: EventSink {
        EventSink { [self] event in
            let now = ContinuousClock.now
            entries.withLock { $0.append(Entry(event: event, time: now)) }
        }
    }

    /// The events so far, in order.
    var recorded: [Entry] { entries.withLock { $0 } }

    /// How many events came so far.
    var count: Int { entries.withLock { $0.count } }
}
