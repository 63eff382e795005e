import ArgumentParser
import Foundation
import TributaryCore

/// `--since last|DURATION|DATE`: limits a digest or summary to the items first seen after a point in time.
enum SinceOption: ExpressibleByArgument, Equatable {
    /// After the previous digest (everything when there was none).
    case last
    /// Within this long before the run.
    case duration(Duration)
    /// After this time.
    case date(Date)

    init?(argument: String) {
        if argument == "last" {
            self = .last
        } else if let duration = DurationFormat.parse(argument) {
            self = .duration(duration)
        } else if let date = RFC3339.parse(argument) {
            self = .date(date)
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["last"]) }

    /// The point after which items are kept, or `nil` to keep every item.
    /// ``cutoff(now:previousDigestAt:)`` as the rule ``AggregationRun/since`` takes.
    var cutoffRule: @Sendable (Date, Date?) -> Date? {
        { now, previous in cutoff(now: now, previousDigestAt: previous) }
    }

    func cutoff(now: Date, previousDigestAt: Date?) -> Date? {
        switch self {
        case .last:
            return previousDigestAt
        case .duration(let duration):
            let (seconds, attoseconds) = duration.components
            return now.addingTimeInterval(-(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18))
        case .date(let date):
            return date
        }
    }
}
