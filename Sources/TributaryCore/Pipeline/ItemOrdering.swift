public import Foundation

/// The digest order: newest first, deterministic.
///
/// An item's sort date is its own date (``FeedItem/ownDate``: `date_published ?? date_modified`); an undated item
/// uses the time it was first seen, so it lands among dated items where it appeared. Equal dates go by source order,
/// then by feed order, so undated items of one source keep their feed order.
public enum ItemOrdering {
    /// One item with what ordering needs to know about it: its outline (no content, so a run can hold every kept
    /// item's entry) and where it came from.
    public struct Entry: Sendable, Equatable {
        public var outline: ItemOutline
        /// When the store first saw the item.
        public var firstSeen: Date
        /// The position of its source in the pipeline's source list.
        public var sourceIndex: Int
        /// Its position among the items its source delivered (feed order).
        public var arrivalIndex: Int

        /// Creates an entry.
        public init(outline: ItemOutline, firstSeen: Date, sourceIndex: Int, arrivalIndex: Int) {
            self.outline = outline
            self.firstSeen = firstSeen
            self.sourceIndex = sourceIndex
            self.arrivalIndex = arrivalIndex
        }

        /// Creates the entry of an item.
        public init(item: FeedItem, firstSeen: Date, sourceIndex: Int, arrivalIndex: Int) {
            self.init(
                outline: ItemOutline(item),
                firstSeen: firstSeen,
                sourceIndex: sourceIndex,
                arrivalIndex: arrivalIndex
            )
        }

        /// The date the entry sorts by.
        public var sortDate: Date { outline.ownDate ?? firstSeen }

        /// Where the entry stands in the digest order.
        public var position: Position {
            Position(sortDate: sortDate, sourceIndex: sourceIndex, arrivalIndex: arrivalIndex)
        }
    }

    /// What decides an entry's place in the digest: a smaller position comes first.
    public struct Position: Comparable, Hashable, Sendable {
        public var sortDate: Date
        public var sourceIndex: Int
        public var arrivalIndex: Int

        public static func < (lhs: Position, rhs: Position) -> Bool {
            if lhs.sortDate != rhs.sortDate { return lhs.sortDate > rhs.sortDate }
            if lhs.sourceIndex != rhs.sourceIndex { return lhs.sourceIndex < rhs.sourceIndex }
            return lhs.arrivalIndex < rhs.arrivalIndex
        }
    }

    /// Whether `lhs` comes before `rhs` in the digest.
    public static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        lhs.position < rhs.position
    }

    /// The entries' items in digest order.
    public static func sorted(_ entries: [Entry]) -> [ItemOutline] {
        entries.sorted(by: precedes).map(\.outline)
    }
}
