public import Foundation

/// A kept item without its content: where it is stored, the dates that place it in a digest, and what the run
/// decided about it (when it was first seen, which other sources also carried it).
///
/// A run that keeps its items in a store (``PipelineSettings/holdsItems`` `false`) holds only outlines, a few dozen
/// bytes an item, and the digest reads each item back from the store when it draws it; memory then stays flat in
/// the number of feeds and items.
public struct ItemOutline: Sendable, Hashable {
    /// The source that delivered the item.
    public var sourceID: SourceID
    /// The item's id in that source.
    public var id: String
    /// The item's link, kept for the references of other sources' copies (`also_in`).
    public var url: String?
    public var datePublished: Date?
    public var dateModified: Date?
    /// When the item was first seen (the store's time), if known.
    public var firstSeen: Date?
    /// The item's own date, as ``FeedItem/ownDate`` tells it.
    public var ownDate: Date? { datePublished ?? dateModified }
    /// The other sources that carried the same story in this run.
    public var alsoIn: [TributaryExtension.ItemReference]

    /// Creates an outline.
    public init(
        sourceID: SourceID,
        id: String,
        url: String? = nil,
        datePublished: Date? = nil,
        dateModified: Date? = nil,
        firstSeen: Date? = nil,
        alsoIn: [TributaryExtension.ItemReference] = []
    ) {
        self.sourceID = sourceID
        self.id = id
        self.url = url
        self.datePublished = datePublished
        self.dateModified = dateModified
        self.firstSeen = firstSeen
        self.alsoIn = alsoIn
    }

    /// The outline of a kept item (one the pipeline stamped with its source).
    public init(_ item: FeedItem) {
        self.init(
            sourceID: item.sourceID ?? SourceID("unknown"),
            id: item.id,
            // An RSS item's guid is its link more often than not: the outline then keeps one string for both rather
            // than two copies (a run of 50,000 items kept 4 MiB of them twice).
            url: item.url == item.id ? item.id : item.url,
            datePublished: item.datePublished,
            dateModified: item.dateModified,
            firstSeen: item.tributary?.firstSeen,
            alsoIn: item.tributary?.alsoIn ?? []
        )
    }

    /// The outline of an item kept under `key`.
    public init(_ item: FeedItem, key: ItemKey) {
        self.init(item)
        sourceID = key.source
        id = key.id
    }

    /// The item as the outline stands for it: identity, link, dates and the run's decisions, no content.
    public var placeholder: FeedItem {
        var item = FeedItem(id: id, url: url, datePublished: datePublished, dateModified: dateModified)
        var tributary = TributaryExtension()
        tributary.source = sourceID
        tributary.firstSeen = firstSeen
        tributary.alsoIn = alsoIn
        item.tributary = tributary
        return item
    }

    /// `stored`, the item read back from the store, with what this run decided about it (`first_seen`,
    /// `also_in`), which the store may not hold: a run that served stored items after a `304` does not write them
    /// again.
    public func completing(_ stored: FeedItem) -> FeedItem {
        var item = stored
        var tributary = item.tributary ?? TributaryExtension()
        tributary.source = tributary.source ?? sourceID
        if let firstSeen { tributary.firstSeen = firstSeen }
        tributary.alsoIn = alsoIn
        item.tributary = tributary
        return item
    }

    /// Where the item is stored.
    public var key: ItemKey { ItemKey(source: sourceID, id: id) }
}

/// An item's place in a store: its source and its id there.
///
/// Its hash is computed once, when it is made: a run looks every item's key up in several tables (kept items,
/// claims, writes on their way), and tables rehash every key as they grow, so hashing an id (often a long URL) each
/// time was a third of the router's work on a 1,000-feed run.
public struct ItemKey: Sendable, Hashable {
    public let source: SourceID
    public let id: String
    /// The hash of `source` and `id`, for this process only (as every `hashValue`).
    private let hash: Int

    public init(source: SourceID, id: String) {
        self.source = source
        self.id = id
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(id)
        hash = hasher.finalize()
    }

    public static func == (lhs: ItemKey, rhs: ItemKey) -> Bool {
        lhs.hash == rhs.hash && lhs.id == rhs.id && lhs.source == rhs.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// The hash computed when the key was made, for tables keyed by it without hashing it again.
    var storedHash: Int { hash }
}
