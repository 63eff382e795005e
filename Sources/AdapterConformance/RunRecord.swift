import Foundation
import TributaryCore

/// What one run of a source did: its events, how it ended, and when.
struct RunRecord: Sendable {
    /// Which run this was, for messages ("first run", "cancelled run").
    var label: String
    /// The recorder the run sent into; it keeps recording after the run, which is how late events are found.
    var sink: RecordingSink
    /// The events recorded up to the moment the run ended (or was given up on).
    var entries: [RecordingSink.Entry]
    /// How `run` ended; `nil` when it had not ended within the limit.
    var outcome: RunOutcome?
    /// The wall-clock time span of the run, for date checks.
    var wallStart: Date
    var wallEnd: Date

    var events: [SourceEvent] { entries.map(\.event) }

    /// Every item in every `items` event, in order.
    var items: [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            if case .items(let items) = event { return items }
            return []
        }
    }

    /// How many `items` events came.
    var itemBatchCount: Int {
        events.count { event in
            if case .items = event { return true }
            return false
        }
    }

    /// How many warnings came.
    var warningCount: Int {
        events.count { event in
            if case .warning = event { return true }
            return false
        }
    }

    /// The first terminal event, if one came.
    var terminalEvent: SourceEvent? { events.first(where: \.isTerminal) }

    /// Whether the run ended in `failed`, or by throwing before a terminal event.
    var endedInFailure: Bool {
        switch terminalEvent {
        case .failed?: return true
        case .finished?, .notModified?: return false
        default:
            if case .threw = outcome { return true }
            return false
        }
    }

    /// Whether the run ended in `finished`.
    var endedInFinished: Bool { terminalEvent == .finished }

    /// How the run ended, in words.
    var endDescription: String {
        switch (terminalEvent, outcome) {
        case (.failed(let error)?, _): return "failed: \(error)"
        case (.finished?, _): return "finished"
        case (.notModified?, _): return "not modified"
        case (_, .threw(let error, _)?): return "threw \(error)"
        case (_, .returned?): return "returned without a terminal event"
        default: return "did not end"
        }
    }
}
