public import Foundation

/// A ``StateStore`` that keeps everything in memory, for `parse`, `--no-state` and tests. Nothing survives the
/// process: one store is one run, so every item a source saved is current and health starts from nothing.
public actor InMemoryItemStore: StateStore {
    private typealias Key = ItemKey

    private var stored: [Key: StoredItem] = [:]
    private var order: [Key] = []
    private var digestDate: Date?
    private var savedCheckpoints: [SourceID: SourceCheckpoint] = [:]
    private var healthRecords: [SourceID: SourceHealth] = [:]

    /// Creates an empty store.
    public init() {}

    public func save(_ items: [FeedItem], from source: SourceID, at date: Date) -> StoreChanges {
        var changes = StoreChanges()
        for item in items {
            let key = Key(source: source, id: item.id)
            if var existing = stored[key] {
                let stamped = StoredItem.stamped(item, firstSeen: existing.firstSeen)
                existing.lastSeen = date
                if stamped == existing.item {
                    changes.unchanged.append(existing)
                } else {
                    existing.item = stamped
                    changes.updated.append(existing)
                }
                stored[key] = existing
            } else {
                let stamped = StoredItem.stamped(item, firstSeen: date)
                let new = StoredItem(item: stamped, sourceID: source, firstSeen: date, lastSeen: date)
                stored[key] = new
                order.append(key)
                changes.inserted.append(new)
            }
        }
        return changes
    }

    public func items() -> [StoredItem] {
        order.compactMap { stored[$0] }
    }

    /// Every item of `source`: a store that lives for one process has no older runs to leave out.
    public func items(_ keys: [ItemKey]) -> [StoredItem] {
        keys.compactMap { stored[$0] }
    }

    public func currentItems(from source: SourceID) -> [StoredItem] {
        order.compactMap { stored[$0] }.filter { $0.sourceID == source }
    }

    public func checkpoint(for source: SourceID) -> SourceCheckpoint {
        savedCheckpoints[source] ?? SourceCheckpoint()
    }

    public func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) {
        savedCheckpoints[source] = checkpoint
    }

    public func lastDigestDate() -> Date? {
        digestDate
    }

    public func recordDigest(at date: Date) {
        digestDate = date
    }

    // MARK: - StateStore

    public nonisolated var keepsHistory: Bool { false }

    public func checkpoints() -> [SourceID: SourceCheckpoint] {
        savedCheckpoints
    }

    public func health(for source: SourceID) -> SourceHealth {
        healthRecords[source] ?? SourceHealth()
    }

    public func allHealth() -> [SourceID: SourceHealth] {
        healthRecords
    }

    @discardableResult
    public func recordOutcomes(
        _ reports: [SourceHealth.Report],
        at date: Date,
        policy: RetryPolicy
    ) -> [SourceID: SourceHealth] {
        let (health, writes) = Self.recording(reports, over: healthRecords, at: date, policy: policy)
        for (report, after) in writes { healthRecords[report.source] = after }
        return health
    }

    /// Nothing: in a store of one run every item is a current item, which retention keeps.
    @discardableResult
    public func prune(notSeenSince cutoff: Date) -> Int {
        0
    }

    public func close() {}
}
