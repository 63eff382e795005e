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

    private var kept: Set<Key> = []
    private var claims: [String: Key] = [:]
    /// The URL each key claimed first, and the few keys that claimed more (an item whose link changed within a
    /// run), so that forgetting or transferring a key touches its own claims only (a scan of every claim per item
    /// made a flood over a source's cap quadratic). Nearly every key claims one URL: no array for each.
    private var claimedBy: [Key: String] = [:]
    private var moreClaimedBy: [Key: [String]] = [:]

    /// Creates an empty deduplicator.
    public init() {}

    /// Classifies `item` from `source` and remembers it when it is kept.
    public mutating func classify(_ item: FeedItem, from source: SourceID) -> Decision {
        let key = Key(source: source, id: item.id)
        let canonical = Self.canonicalURL(of: item)
        if kept.contains(key) {
            if let canonical { claim(canonical, for: key) }
            return .update
        }
        if let canonical, let owner = claims[canonical], owner.source != source {
            return .duplicate(of: owner)
        }
        kept.insert(key)
        if let canonical { claim(canonical, for: key) }
        return .new
    }

    /// Hands a kept item's place, and every URL it claimed, to another item that replaces it.
    public mutating func transfer(_ old: Key, to new: Key) {
        kept.remove(old)
        kept.insert(new)
        for url in releaseClaims(of: old) where claims[url] == old {
            claims[url] = nil
            claim(url, for: new)
        }
    }

    /// Forgets a kept item (one dropped by a `maxItems` cap), releasing its URLs for later items.
    public mutating func forget(_ key: Key) {
        kept.remove(key)
        for url in releaseClaims(of: key) where claims[url] == key { claims[url] = nil }
    }

    private mutating func claim(_ url: String, for key: Key) {
        guard claims[url] == nil else { return }
        claims[url] = key
        if claimedBy[key] == nil {
            claimedBy[key] = url
        } else {
            moreClaimedBy[key, default: []].append(url)
        }
    }

    /// The URLs `key` claimed, no longer recorded as its.
    private mutating func releaseClaims(of key: Key) -> [String] {
        guard let first = claimedBy.removeValue(forKey: key) else { return [] }
        return [first] + (moreClaimedBy.removeValue(forKey: key) ?? [])
    }

    /// The canonical form of the item's `url`, else of its `external_url`.
    public static func canonicalURL(of item: FeedItem) -> String? {
        (item.url ?? item.externalURL).flatMap(CanonicalURL.string(for:))
    }
}
