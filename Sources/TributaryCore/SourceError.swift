import Foundation

/// Why a source failed. Reasons carry their context (path, URL, line and column, key); the ``description``
/// turns them into one line that names the source, the place and the fix.
public struct SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source that failed.
    public var sourceID: SourceID
    /// What went wrong.
    public var reason: Reason
    /// The lower-level error, when there is one; not part of equality.
    public var underlying: (any Error)?

    public init(sourceID: SourceID, reason: Reason, underlying: (any Error)? = nil) {
        self.sourceID = sourceID
        self.reason = reason
        self.underlying = underlying
    }

    /// The ways a source can fail.
    public enum Reason: Hashable, Sendable {
        /// A file the source reads does not exist.
        case fileNotFound(path: String)
        /// A file exists but cannot be read.
        case unreadable(path: String, detail: String)
        /// A path in the source's options points outside the directory holding feeds.json.
        case pathOutsideConfigDirectory(path: String)
        /// The input is JSON with a syntax error.
        case invalidJSON(path: String?, line: Int, column: Int, detail: String)
        /// The input is readable but is not a feed of a kind the source understands.
        case notAFeed(path: String?, detail: String)
        /// The source took longer than its `timeout`.
        case timedOut(after: Duration)
        /// A server answered with an HTTP error status.
        case httpStatus(url: String, status: Int)
        /// A server asked us to come back later (`429`, or `503` with `Retry-After`); the next attempt waits at
        /// least `retryAfter` when the server named a delay.
        case throttled(url: String, status: Int, retryAfter: Duration?)
        /// The input exceeded a size or count budget.
        case tooLarge(limit: Int, unit: String)
        /// The network or the remote end failed.
        case connection(url: String, detail: String)
        /// The source delivered what it could but cannot tell that it is everything (a push server that never
        /// said its backlog was complete); the items it did deliver are kept.
        case incomplete(String)
        /// Any other failure, described by the adapter.
        case other(String)
    }

    public var description: String {
        "source '\(sourceID)': \(reasonDescription)"
    }

    /// The reason as one readable line, without the source id (for tables that name the source already). A
    /// password written into a URL (`https://user:secret@host/`) never appears in it.
    public var reasonDescription: String {
        URLCredentials.redacted(unredactedReason)
    }

    private var unredactedReason: String {
        switch reason {
        case .fileNotFound(let path):
            return "\(path): no such file; check the path, which is relative to the directory holding feeds.json"
        case .unreadable(let path, let detail):
            return "\(path): cannot be read (\(detail))"
        case .pathOutsideConfigDirectory(let path):
            return
                "\(path): outside the directory holding feeds.json; move the file there or set \"allowPathsOutside\": true in feeds.json"
        case .invalidJSON(let path, let line, let column, let detail):
            return "\(path.map { "\($0):" } ?? "")\(line):\(column): invalid JSON: \(detail)"
        case .notAFeed(let path, let detail):
            return "\(path.map { "\($0): " } ?? "")not a feed: \(detail)"
        case .timedOut(let duration):
            return
                "timed out after \(DurationFormat.string(duration)); raise its \"timeout\" in feeds.json if the source is slow"
        case .httpStatus(let url, let status):
            return "\(url): HTTP status \(status)"
        case .throttled(let url, let status, let retryAfter?):
            return
                "\(url): HTTP status \(status), the server asks to wait \(DurationFormat.string(retryAfter)); the next run tries again after that"
        case .throttled(let url, let status, nil):
            return "\(url): HTTP status \(status), the server is throttling requests; poll it less often"
        case .tooLarge(let limit, let unit):
            return "larger than the limit of \(limit) \(unit)"
        case .connection(let url, let detail):
            return "\(url): \(detail)"
        case .incomplete(let detail):
            return "incomplete: \(detail)"
        case .other(let detail):
            return detail
        }
    }

    public static func == (lhs: SourceError, rhs: SourceError) -> Bool {
        lhs.sourceID == rhs.sourceID && lhs.reason == rhs.reason
    }
}

/// Formats durations the way feeds.json writes them (`500ms`, `3s`, `15m`, `48h`, `7d`).
public enum DurationFormat {
    /// The shortest feeds.json spelling of a duration that loses nothing, e.g. `1500ms`, `90s`, `2h`.
    public static func string(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 != 0 { return "\(milliseconds)ms" }
        let whole = milliseconds / 1000
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where whole != 0 && whole % size == 0 {
            return "\(whole / size)\(unit)"
        }
        return "\(whole)s"
    }

    /// Parses `500ms`, `3s`, `15m`, `48h` or `7d` (a whole, non-negative number and a unit). Returns `nil` for
    /// anything else, such as `48x`, `1.5h` or `-3s`.
    public static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, milliseconds: Int64)] = [
            ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            // "ms" also ends in "s": make sure what is left is all digits.
            guard !number.isEmpty, number.count <= 12, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
                let value = Int64(number)
            else { continue }
            return .milliseconds(value * unit.milliseconds)
        }
        return nil
    }
}
