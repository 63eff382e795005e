public import Foundation

/// How a source has fared across runs, as a ``StateStore`` records it.
public struct SourceHealth: Sendable, Equatable {
    /// When the source last ran (successfully or not); `nil` before its first recorded run.
    public var lastAttempt: Date?
    /// When the source last succeeded; `nil` if it never has.
    public var lastSuccess: Date?
    /// How many runs in a row have failed; 0 after a success.
    public var consecutiveFailures: Int
    /// The reason of the last failure, one line; `nil` after a success.
    public var lastError: String?
    /// Runs before this time skip the source and serve its stored items; `nil` when it may run now.
    public var nextRetry: Date?
    /// The fingerprint of the feeds.json entry the record was made under (``SourceConfiguration/fingerprint``);
    /// `nil` when unknown (a store from before it was recorded).
    public var entry: String?

    /// Creates a health record; the default is a source with no history.
    public init(
        lastAttempt: Date? = nil,
        lastSuccess: Date? = nil,
        consecutiveFailures: Int = 0,
        lastError: String? = nil,
        nextRetry: Date? = nil,
        entry: String? = nil
    ) {
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.consecutiveFailures = consecutiveFailures
        self.lastError = lastError
        self.nextRetry = nextRetry
        self.entry = entry
    }

    /// Whether a run at `date` should skip the source (it is backing off). A source whose feeds.json entry is no
    /// longer the one it failed under (`entry`, when both are known) was edited to fix it: it runs at once.
    public func isBackingOff(at date: Date, entry current: String? = nil) -> Bool {
        guard let nextRetry else { return false }
        if let current, let entry, current != entry { return false }
        return date < nextRetry
    }

    /// How one source's run ended, as ``StateStore/recordOutcomes(_:at:policy:)`` records it.
    public struct Report: Sendable, Equatable {
        /// The source.
        public var source: SourceID
        /// How its run ended.
        public var outcome: Outcome
        /// The fingerprint of its feeds.json entry (``SourceConfiguration/fingerprint``), if known.
        public var entry: String?

        /// Creates a report.
        public init(source: SourceID, outcome: Outcome, entry: String? = nil) {
            self.source = source
            self.outcome = outcome
            self.entry = entry
        }
    }

    /// How one run of a source ended, for ``StateStore/recordOutcomes(_:at:policy:)``.
    public enum Outcome: Sendable, Equatable {
        /// It delivered its items; they become the items a later `notModified` serves.
        case succeeded
        /// The server said nothing changed; the stored items stay the source's current items.
        case notModified
        /// It failed; `retryAfter` is the least wait the server asked for (a throttled failure's `Retry-After`).
        case failed(reason: String, retryAfter: Duration?)
        /// The run skipped it because it is backing off: its history is left as it is.
        case skipped
    }

    /// The health after one run's `outcome` at `date`: the one rule every store records by.
    ///
    /// `.succeeded` and `.notModified` reset the failure count; `.failed` counts a failure and sets the next retry
    /// by `policy` (at least the failure's `retryAfter`); `.skipped` changes nothing. A failure under an `entry`
    /// other than the recorded one counts from zero: the entry was edited, its old failures are not its own.
    public func recording(
        _ outcome: Outcome,
        at date: Date,
        policy: RetryPolicy,
        entry: String?
    ) -> SourceHealth {
        var health = self
        if let entry, health.entry != entry, outcome != .skipped {
            if health.entry != nil { health.consecutiveFailures = 0 }
            health.entry = entry
        }
        switch outcome {
        case .skipped:
            return self
        case .succeeded, .notModified:
            return SourceHealth(lastAttempt: date, lastSuccess: date, entry: health.entry)
        case .failed(let reason, let retryAfter):
            health.lastAttempt = date
            health.consecutiveFailures += 1
            health.lastError = reason
            health.nextRetry = policy.nextRetry(
                afterFailures: health.consecutiveFailures,
                retryAfter: retryAfter,
                at: date
            )
            return health
        }
    }
}
