/// What one ``ItemStore/save(_:from:at:)`` call changed.
public struct StoreChanges: Sendable, Equatable {
    /// Items the store had not seen before.
    public var inserted: [StoredItem]
    /// Known items whose content changed.
    public var updated: [StoredItem]
    /// Known items delivered again as they were (only `lastSeen` moved).
    public var unchanged: [StoredItem]

    /// Creates a change set.
    public init(inserted: [StoredItem] = [], updated: [StoredItem] = [], unchanged: [StoredItem] = []) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }

    /// Every item the save touched: inserted, then updated, then unchanged.
    public var all: [StoredItem] { inserted + updated + unchanged }
}
