/// Recognises items the pipeline has already kept in a run.
///
/// - the same id from the same source is the same item: an update, never a second copy;
/// - the same canonical URL (see ``CanonicalURL``) from another source is a duplicate: one item keeps its place and
///   the pipeline records the other source in its `_tributary.also_in`. The pipeline keeps the copy of the source
///   listed first in feeds.json (see ``transfer(_:to:)``), so the outcome does not depend on arrival order.
///
/// Two items of one source with different ids and the same URL are both kept: the source says they differ.
///
/// Memory: a run of 1,000 feeds keeps 50,000 items, and this is held for each of them to the end of the run. Each
/// kept key has a slot; the tables name slots (4 bytes) rather than keys (40 bytes), the key is kept once (its
/// strings are the item's own), and a claimed URL is kept as its 64-bit hash rather than as a string (see
/// `URLHash`). As dictionaries of keys and strings, the tables took 20.0 MiB at the heap's peak of a
/// 50,000-item run (heaptrack); they take 5.3 MiB this way.
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

    /// A canonical URL as it is claimed: its hash with a seed random to the process (SipHash, like every Swift
    /// hash), not the string. Two different URLs have the same one with odds of about one in 10^10 in a run of
    /// 50,000 items; the cost of that would be one story listed under another's `also_in`. An attacker cannot aim
    /// for it: the seed changes with every run.
    typealias URLHash = Int

    /// Each slot's key and the first URL it claimed; `nil` for a slot let go. Nearly every key claims one URL: the
    /// few that claim more (an item whose link changed within a run) have the rest in ``moreClaims``, so that
    /// forgetting or transferring a key touches its own claims only (a scan of every claim per item made a flood over
    /// a source's cap quadratic).
    private var records: [Record?] = []
    /// The slot of each kept key, by the key's hash: 16-byte buckets rather than a dictionary of the keys themselves
    /// (64-byte buckets). The key is compared where its slot keeps it. A key whose hash another kept key has is in
    /// ``collided`` instead (none, in practice).
    private var slotsByHash: [Int: Int32] = [:]
    private var collided: [Key: Int32] = [:]
    /// The slot that claimed each canonical URL.
    private var claims: [URLHash: Int32] = [:]
    private var moreClaims: [Int32: [URLHash]] = [:]
    /// Slots of keys let go, handed out again before new ones.
    private var freeSlots: [Int32] = []
    /// A key's hash: its own (``ItemKey/storedHash``); tests give every key the same one to exercise ``collided``.
    private let keyHash: @Sendable (Key) -> Int

    /// How many slots were ever handed out: every slot is below it.
    public var slotLimit: Int { records.count }

    private struct Record {
        var key: Key
        var claim: URLHash?
    }

    /// Creates an empty deduplicator.
    public init() {
        self.init(keyHash: { $0.storedHash })
    }

    /// Creates an empty deduplicator that hashes keys with `keyHash`.
    init(keyHash: @escaping @Sendable (Key) -> Int) {
        self.keyHash = keyHash
    }

    /// A kept key's slot: a small number no other kept key has, reused once the key is let go (``forget(_:)``)
    /// and handed on by ``transfer(_:to:)``. What keeps something for each kept item can keep it in an array by
    /// slot rather than in a second table by key.
    public func slot(of key: Key) -> Int? {
        lookUp(key).map(Int.init)
    }

    /// Classifies `item` from `source` and remembers it when it is kept.
    public mutating func classify(_ item: FeedItem, from source: SourceID) -> Decision {
        let key = Key(source: source, id: item.id)
        let canonical = Self.canonicalURL(of: item).map(Self.urlHash)
        if let slot = lookUp(key) {
            if let canonical { claim(canonical, for: slot) }
            return .update
        }
        if let canonical, let owner = claims[canonical], let ownerKey = records[Int(owner)]?.key,
            ownerKey.source != source
        {
            return .duplicate(of: ownerKey)
        }
        let slot = takeSlot(for: key)
        if let canonical { claim(canonical, for: slot) }
        return .new
    }

    /// Hands a kept item's place (its slot), and every URL it claimed, to another item that replaces it.
    public mutating func transfer(_ old: Key, to new: Key) {
        guard let slot = lookUp(old) else {
            _ = takeSlot(for: new)
            return
        }
        unindex(old, slot: slot)
        records[Int(slot)]?.key = new
        index(new, slot: slot)
    }

    /// Forgets a kept item (one dropped by a `maxItems` cap), releasing its slot and its URLs for later items.
    public mutating func forget(_ key: Key) {
        guard let slot = lookUp(key), let record = records[Int(slot)] else { return }
        unindex(key, slot: slot)
        for url in [record.claim].compactMap({ $0 }) + (moreClaims.removeValue(forKey: slot) ?? [])
        where claims[url] == slot {
            claims[url] = nil
        }
        records[Int(slot)] = nil
        freeSlots.append(slot)
    }

    /// The canonical form of the item's `url`, else of its `external_url`.
    public static func canonicalURL(of item: FeedItem) -> String? {
        (item.url ?? item.externalURL).flatMap(CanonicalURL.string(for:))
    }

    /// How many kept keys share their hash with another kept key: for tests.
    var collisionCount: Int { collided.count }

    // MARK: - Private

    private func lookUp(_ key: Key) -> Int32? {
        if let slot = slotsByHash[keyHash(key)], records[Int(slot)]?.key == key { return slot }
        return collided.isEmpty ? nil : collided[key]
    }

    /// Records the slot of `key`, which is not recorded yet.
    private mutating func index(_ key: Key, slot: Int32) {
        let hash = keyHash(key)
        if let taken = slotsByHash[hash], taken != slot, records[Int(taken)] != nil {
            collided[key] = slot
        } else {
            slotsByHash[hash] = slot
        }
    }

    /// Forgets the slot of `key`, recorded in `slot`.
    private mutating func unindex(_ key: Key, slot: Int32) {
        let hash = keyHash(key)
        if slotsByHash[hash] == slot {
            slotsByHash[hash] = nil
        } else {
            collided[key] = nil
        }
    }

    private mutating func takeSlot(for key: Key) -> Int32 {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            records[Int(slot)] = Record(key: key)
        } else {
            slot = Int32(records.count)
            records.append(Record(key: key))
        }
        index(key, slot: slot)
        return slot
    }

    private mutating func claim(_ url: URLHash, for slot: Int32) {
        guard claims[url] == nil else { return }
        claims[url] = slot
        if records[Int(slot)]?.claim == nil {
            records[Int(slot)]?.claim = url
        } else {
            moreClaims[slot, default: []].append(url)
        }
    }

    private static func urlHash(_ canonical: String) -> URLHash {
        var hasher = Hasher()
        hasher.combine(canonical)
        return hasher.finalize()
    }
}
