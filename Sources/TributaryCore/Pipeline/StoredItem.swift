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

extension StoredItem {
    /// The item with `_tributary.first_seen` set to the exact stored time, as every store hands items back.
    ///
    /// The item is taken over: an item its caller no longer needs (one just decoded) is stamped in place rather
    /// than copied, field by field, first.
    public static func stamped(_ item: consuming FeedItem, firstSeen: Date) -> FeedItem {
        var stamped = item
        if stamped.tributary == nil {
            stamped.tributary = TributaryExtension(firstSeen: firstSeen)
        } else {
            stamped.tributary?.firstSeen = firstSeen
        }
        return stamped
    }

    /// An item as a persistent store keeps it: the JSON Feed writer's output, deterministic (so an unchanged item
    /// compares equal to its stored text) and several times faster than `JSONEncoder`.
    public static func storedJSON(_ item: FeedItem) -> String {
        String(decoding: JSONFeedWriter.encode(item), as: UTF8.self)
    }

    /// Reads a stored item back from its JSON: our own reader, and `JSONDecoder` only for what it cannot read, to
    /// report why.
    /// - Throws: the decoder's error for JSON that is not an item.
    public init(json: String, sourceID: SourceID, firstSeen: Date, lastSeen: Date) throws {
        let item = try FeedItem(json: json) ?? JSONDecoder().decode(FeedItem.self, from: Data(json.utf8))
        self.init(
            item: Self.stamped(item, firstSeen: firstSeen),
            sourceID: sourceID,
            firstSeen: firstSeen,
            lastSeen: lastSeen
        )
    }
}

extension StoredItem {
    /// A stored item as a persistent store read it, its JSON not decoded yet: a store hands its rows to
    /// ``decoded(_:)`` once it has let go of its database, so that decoding (most of the cost of a read) neither
    /// holds the database nor runs on one core.
    public struct Row: Sendable {
        public var json: String
        public var sourceID: SourceID
        public var firstSeen: Date
        public var lastSeen: Date

        public init(json: String, sourceID: SourceID, firstSeen: Date, lastSeen: Date) {
            self.json = json
            self.sourceID = sourceID
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
        }
    }

    /// Rows decoded in their order; many of them (a digest's batch) in two halves side by side.
    /// - Throws: the decoder's error for the first row whose JSON is not an item.
    public static func decoded(_ rows: [Row]) async throws -> [StoredItem] {
        func decode(_ rows: ArraySlice<Row>) throws -> [StoredItem] {
            try rows.map {
                try StoredItem(json: $0.json, sourceID: $0.sourceID, firstSeen: $0.firstSeen, lastSeen: $0.lastSeen)
            }
        }
        guard rows.count >= Self.rowsWorthTwoTasks else { return try decode(rows[...]) }
        let middle = rows.count / 2
        async let firstHalf = decode(rows[..<middle])
        let secondHalf = try decode(rows[middle...])
        return try await firstHalf + secondHalf
    }

    /// Below this many rows, a second task costs more than it saves.
    static let rowsWorthTwoTasks = 128
}
