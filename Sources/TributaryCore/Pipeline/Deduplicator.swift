/// Recognises items the pipeline has already kept in a run.
///
/// - the same id from the same source is the same item: an update, never a second copy;
/// - the same canonical URL (see ``CanonicalURL``) from another source is a duplicate: one item keeps its place and
///   the pipeline records the other source in its `_tributary.also_in`. The pipeline keeps the copy of the source
///   listed first in feeds.json (see ``transfer(_:to:)``), so the outcome does not depend on arrival order.
///
/// Two items of one source with different ids and the same URL are both kept: the source says they differ.
public struct Deduplicator: Sendable {
    /// An item's identity within a run: its source and its id.
    public typealias Key = ItemKey

    /// What to do with an incoming item.
    public enum Decision: Hashable, Sendable {
        /// Not seen before: keep it. Its canonical URL is now claimed.
        case new
        /// Already kept under the same source and id: replace its content.
        case update
        /// Another source's item with the same canonical URL is kept: record this one in its `also_in`.
        case duplicate(of: Key)
    }

    /// Every kept key, with its slot and the URL it claimed first. Nearly every key claims one URL: the few that
    /// claim more (an item whose link changed within a run) have the rest in ``moreClaimedBy``, so that forgetting
    /// or transferring a key touches its own claims only (a scan of every claim per item made a flood over a
    /// source's cap quadratic).
    private var kept: [Key: Record] = [:]
    private var claims: [String: Key] = [:]
    private var moreClaimedBy: [Key: [String]] = [:]
    /// Slots of keys let go, handed out again before new ones.
    private var freeSlots: [Int32] = []
    /// How many slots were ever handed out: every slot is below it.
    public private(set) var slotLimit = 0

    /// A kept key's slot and first claim, in one table rather than a set of kept keys and a table of claims by key
    /// (a run of 50,000 items held both, 12 MiB).
    private struct Record {
        var slot: Int32
        var claim: String?
    }

    /// Creates an empty deduplicator.
    public init() {}

    /// A kept key's slot: a small number no other kept key has, reused once the key is let go (``forget(_:)``)
    /// and handed on by ``transfer(_:to:)``. What keeps something for each kept item can keep it in an array by
    /// slot rather than in a second table by key.
    public func slot(of key: Key) -> Int? {
        kept[key].map { Int($0.slot) }
    }

    /// Classifies `item` from `source` and remembers it when it is kept.
    public mutating func classify(_ item: FeedItem, from source: SourceID) -> Decision {
        let key = Key(source: source, id: item.id)
        let canonical = Self.canonicalURL(of: item)
        if kept[key] != nil {
            if let canonical { claim(canonical, for: key) }
            return .update
        }
        var claim: String?
        if let canonical {
            if let owner = claims[canonical] {
                if owner.source != source { return .duplicate(of: owner) }
            } else {
                claims[canonical] = key
                claim = canonical
            }
        }
        kept[key] = Record(slot: takeSlot(), claim: claim)
        return .new
    }

    /// Hands a kept item's place (its slot), and every URL it claimed, to another item that replaces it.
    public mutating func transfer(_ old: Key, to new: Key) {
        let record = kept.removeValue(forKey: old)
        kept[new] = Record(slot: record?.slot ?? takeSlot(), claim: nil)
        for url in claims(of: old, record) where claims[url] == old {
            claims[url] = nil
            claim(url, for: new)
        }
    }

    /// Forgets a kept item (one dropped by a `maxItems` cap), releasing its slot and its URLs for later items.
    public mutating func forget(_ key: Key) {
        guard let record = kept.removeValue(forKey: key) else { return }
        freeSlots.append(record.slot)
        for url in claims(of: key, record) where claims[url] == key { claims[url] = nil }
    }

    private mutating func takeSlot() -> Int32 {
        if let slot = freeSlots.popLast() { return slot }
        slotLimit += 1
        return Int32(slotLimit - 1)
    }

    private mutating func claim(_ url: String, for key: Key) {
        guard claims[url] == nil else { return }
        claims[url] = key
        if kept[key]?.claim == nil {
            kept[key]?.claim = url
        } else {
            moreClaimedBy[key, default: []].append(url)
        }
    }

    /// The URLs a key let go of had claimed (its record, taken out of ``kept``), no longer recorded as its.
    private mutating func claims(of key: Key, _ record: Record?) -> [String] {
        guard let first = record?.claim else { return [] }
        return [first] + (moreClaimedBy.removeValue(forKey: key) ?? [])
    }

    /// The canonical form of the item's `url`, else of its `external_url`.
    public static func canonicalURL(of item: FeedItem) -> String? {
        (item.url ?? item.externalURL).flatMap(CanonicalURL.string(for:))
    }
}
