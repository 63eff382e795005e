public import Foundation

/// Everything a run keeps between runs, behind one protocol: the items (``ItemStore``), each source's checkpoint,
/// its health and backoff, retention, and the time of the last digest. ``AggregationRun`` talks only to this; the
/// embedded SQLite store, a shared PostgreSQL store and the in-memory store of `--no-state` stand behind it.
///
/// A store value is one run: the items it saves are stamped with that run, and
/// ``recordOutcomes(_:at:policy:)`` with `.succeeded` makes exactly those the source's current items
/// (what ``ItemStore/currentItems(from:)`` serves on `notModified`); a failed run leaves the previous set as it was.
/// Opening a persistent store takes its run lock, so that two runs on one store take turns; ``close()`` lets go.
public protocol StateStore: ItemStore {
    /// Whether what the run records outlives it (false for the in-memory store of `--no-state`): only then does
    /// the digest show a failing source's history.
    nonisolated var keepsHistory: Bool { get }

    /// Every source's checkpoint, for handing to the sources before they are made.
    func checkpoints() async throws -> [SourceID: SourceCheckpoint]

    /// The source's health; a source without history gets the default.
    func health(for source: SourceID) async throws -> SourceHealth

    /// Every recorded source's health.
    func allHealth() async throws -> [SourceID: SourceHealth]

    /// Records how each source's run ended, each by ``SourceHealth/recording(_:at:policy:entry:)``, all in one
    /// transaction: a run of 1,000 sources commits once, not 1,000 times.
    /// - Returns: each reported source's health after its outcome.
    @discardableResult
    func recordOutcomes(
        _ reports: [SourceHealth.Report],
        at date: Date,
        policy: RetryPolicy
    ) async throws -> [SourceID: SourceHealth]

    /// Deletes items no run has seen since `cutoff`, except each source's current items (a `notModified` may still
    /// serve them), and digest records older than `cutoff` except the newest.
    /// - Returns: how many items were deleted.
    @discardableResult
    func prune(notSeenSince cutoff: Date) async throws -> Int

    /// Ends the run: lets go of the run lock and the connections. The store must not be used afterwards.
    func close() async throws
}

extension StateStore {
    /// Records how one source's run ended: ``recordOutcomes(_:at:policy:)`` with one report.
    /// - Returns: the source's health after the outcome.
    @discardableResult
    public func recordOutcome(
        _ outcome: SourceHealth.Outcome,
        for source: SourceID,
        at date: Date,
        policy: RetryPolicy = RetryPolicy(),
        entry: String? = nil
    ) async throws -> SourceHealth {
        let report = SourceHealth.Report(source: source, outcome: outcome, entry: entry)
        return try await recordOutcomes([report], at: date, policy: policy)[source] ?? SourceHealth()
    }

    /// The health of each reported source after its outcome, from `current` (the recorded health), and the
    /// reports a store writes (all but `.skipped`): the one way every store applies a batch of outcomes.
    public static func recording(
        _ reports: [SourceHealth.Report],
        over current: [SourceID: SourceHealth],
        at date: Date,
        policy: RetryPolicy
    ) -> (health: [SourceID: SourceHealth], writes: [(report: SourceHealth.Report, health: SourceHealth)]) {
        var health = current
        var result: [SourceID: SourceHealth] = [:]
        var writes: [(report: SourceHealth.Report, health: SourceHealth)] = []
        for report in reports {
            let after = (health[report.source] ?? SourceHealth())
                .recording(report.outcome, at: date, policy: policy, entry: report.entry)
            health[report.source] = after
            result[report.source] = after
            if report.outcome != .skipped { writes.append((report, after)) }
        }
        return (result, writes)
    }
}

/// A store's failure, in words that name the store, what is wrong and the fix: the CLI prints it as it is.
public protocol StateStoreError: Error, CustomStringConvertible {}
