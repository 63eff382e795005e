public import Foundation

/// Everything a run keeps between runs, behind one protocol: the items (``ItemStore``), each source's checkpoint,
/// its health and backoff, retention, and the time of the last digest. ``AggregationRun`` talks only to this; the
/// embedded SQLite store, a shared PostgreSQL store and the in-memory store of `--no-state` stand behind it.
///
/// A store value is one run: the items it saves are stamped with that run, and
/// ``recordOutcome(_:for:at:policy:entry:)`` with `.succeeded` makes exactly those the source's current items
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

    /// Records how the source's run ended, in one transaction, by ``SourceHealth/recording(_:at:policy:entry:)``.
    /// - Returns: the source's health after the outcome.
    @discardableResult
    func recordOutcome(
        _ outcome: SourceHealth.Outcome,
        for source: SourceID,
        at date: Date,
        policy: RetryPolicy,
        entry: String?
    ) async throws -> SourceHealth

    /// Deletes items no run has seen since `cutoff`, except each source's current items (a `notModified` may still
    /// serve them), and digest records older than `cutoff` except the newest.
    /// - Returns: how many items were deleted.
    @discardableResult
    func prune(notSeenSince cutoff: Date) async throws -> Int

    /// Ends the run: lets go of the run lock and the connections. The store must not be used afterwards.
    func close() async throws
}

/// A store's failure, in words that name the store, what is wrong and the fix: the CLI prints it as it is.
public protocol StateStoreError: Error, CustomStringConvertible {}
