public import Foundation

/// Where the pipeline keeps items: the model, and the single source of truth for what has been seen.
///
/// Items are keyed by their source and their id. The in-memory ``InMemoryItemStore`` serves `parse` and tests; a
/// persistent store (SQLite) takes its place for `digest`, `summary` and `watch`. Implementations must be safe to
/// call from any task (an `actor` is the usual shape).
public protocol ItemStore: Sendable {
    /// Saves items one source delivered, keyed by (`source`, item id).
    ///
    /// A new key is inserted with `firstSeen == lastSeen == date`. A known key keeps its `firstSeen`, gets
    /// `lastSeen = date`, and is reported as updated when its content differs from the stored item, otherwise as
    /// unchanged. Every returned ``StoredItem/item`` carries `_tributary.first_seen` set to its ``StoredItem/firstSeen``.
    /// - Parameters:
    ///   - items: normalised items, each with a non-empty id.
    ///   - source: the source that delivered them.
    ///   - date: when they were seen.
    /// - Returns: what the save changed, each list in the order of `items`.
    /// - Throws: whatever the storage throws; the pipeline treats that as fatal for the run.
    func save(_ items: [FeedItem], from source: SourceID, at date: Date) async throws -> StoreChanges

    /// Saves several batches, in order, as ``save(_:from:at:)`` would one after the other; a store may write them
    /// in one transaction (a run with 1,000 sources then commits far fewer times).
    /// - Returns: what each batch's save changed, in the order of `batches`.
    func save(_ batches: [SaveBatch]) async throws -> [StoreChanges]

    /// Every stored item, in the order first inserted.
    func items() async throws -> [StoredItem]

    /// The stored items with these keys, in the order of `keys`; a key with no stored item is left out. A digest
    /// reads its items back through this, a batch at a time, so that a run holds only outlines (``ItemOutline``).
    func items(_ keys: [ItemKey]) async throws -> [StoredItem]

    /// The items from `source` that a ``SourceEvent/notModified`` serves: those its last successful run delivered,
    /// in the order first inserted.
    func currentItems(from source: SourceID) async throws -> [StoredItem]

    /// The state the source's last ``SourceEvent/checkpoint(_:)`` saved, or an empty checkpoint.
    func checkpoint(for source: SourceID) async throws -> SourceCheckpoint

    /// Saves a source's checkpoint, replacing the previous one. Called after the items sent before it were saved.
    func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) async throws

    /// Saves several sources' checkpoints, in order, as ``saveCheckpoint(_:for:)`` would one after the other; a store
    /// may write them in one transaction.
    func saveCheckpoints(_ checkpoints: [(source: SourceID, checkpoint: SourceCheckpoint)]) async throws

    /// When the last digest was made, or `nil` before the first one.
    func lastDigestDate() async throws -> Date?

    /// Records that a digest was made at `date`, for "new since last digest" flags.
    func recordDigest(at date: Date) async throws
}

/// One source's items for ``ItemStore/save(_:)``.
public struct SaveBatch: Sendable {
    /// The source that delivered them.
    public var source: SourceID
    /// Normalised items, each with a non-empty id.
    public var items: [FeedItem]
    /// When they were seen.
    public var date: Date

    /// Creates a batch.
    public init(source: SourceID, items: [FeedItem], date: Date) {
        self.source = source
        self.items = items
        self.date = date
    }
}

extension ItemStore {
    /// One ``save(_:from:at:)`` after the other.
    public func save(_ batches: [SaveBatch]) async throws -> [StoreChanges] {
        var changes: [StoreChanges] = []
        for batch in batches { changes.append(try await save(batch.items, from: batch.source, at: batch.date)) }
        return changes
    }

    /// One ``saveCheckpoint(_:for:)`` after the other.
    public func saveCheckpoints(_ checkpoints: [(source: SourceID, checkpoint: SourceCheckpoint)]) async throws {
        for (source, checkpoint) in checkpoints { try await saveCheckpoint(checkpoint, for: source) }
    }

    /// Looks the keys up among every stored item: correct for any store, but it reads them all; a store of many
    /// items answers from an index instead.
    public func items(_ keys: [ItemKey]) async throws -> [StoredItem] {
        var byKey: [ItemKey: StoredItem] = [:]
        let wanted = Set(keys)
        for stored in try await items() {
            let key = ItemKey(source: stored.sourceID, id: stored.item.id)
            if wanted.contains(key) { byKey[key] = stored }
        }
        return keys.compactMap { byKey[$0] }
    }
}
