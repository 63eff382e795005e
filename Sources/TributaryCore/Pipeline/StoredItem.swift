public import Foundation

/// One item as an ``ItemStore`` holds it: the item, the source that delivered it, and when it was seen.
public struct StoredItem: Sendable, Equatable {
    /// The item, with `_tributary.first_seen` set to ``firstSeen``.
    public var item: FeedItem
    /// The source that delivered the item; together with the item's id, the store's key.
    public var sourceID: SourceID
    /// When any run first saw the item.
    public var firstSeen: Date
    /// When a run last saw the item.
    public var lastSeen: Date

    /// Creates a stored item.
    public init(item: FeedItem, sourceID: SourceID, firstSeen: Date, lastSeen: Date) {
        self.item = item
        self.sourceID = sourceID
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}
