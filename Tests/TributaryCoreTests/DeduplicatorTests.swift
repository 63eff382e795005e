import Testing
import TributaryCore

@Suite struct DeduplicatorTests {
    @Test func firstSightingIsNewAndTheSameIDFromTheSameSourceIsAnUpdate() {
        var deduplicator = Deduplicator()
        #expect(deduplicator.classify(makeItem("a"), from: "one") == .new)
        #expect(deduplicator.classify(makeItem("a", title: "changed"), from: "one") == .update)
    }

    @Test func theSameIDFromAnotherSourceWithAnotherURLIsNew() {
        var deduplicator = Deduplicator()
        #expect(deduplicator.classify(makeItem("a", url: "https://one.example/a"), from: "one") == .new)
        #expect(deduplicator.classify(makeItem("a", url: "https://two.example/a"), from: "two") == .new)
    }

    @Test func theSameCanonicalURLFromAnotherSourceIsADuplicateOfTheFirst() {
        var deduplicator = Deduplicator()
        #expect(
            deduplicator.classify(makeItem("a", url: "https://example.org/story?utm_source=x"), from: "one") == .new
        )
        #expect(
            deduplicator.classify(makeItem("b", url: "https://EXAMPLE.org/story#c"), from: "two")
                == .duplicate(of: .init(source: "one", id: "a"))
        )
        #expect(
            deduplicator.classify(makeItem("c", url: "https://example.org:443/story"), from: "three")
                == .duplicate(of: .init(source: "one", id: "a"))
        )
    }

    @Test func itemsOfOneSourceWithTheSameURLAreBothKept() {
        var deduplicator = Deduplicator()
        #expect(deduplicator.classify(makeItem("a", url: "https://example.org/same"), from: "one") == .new)
        #expect(deduplicator.classify(makeItem("b", url: "https://example.org/same"), from: "one") == .new)
    }

    @Test func externalURLServesWhenThereIsNoURL() {
        var deduplicator = Deduplicator()
        let first = FeedItem(id: "a", externalURL: "https://example.org/x")
        let second = FeedItem(id: "b", url: "https://example.org/x")
        #expect(deduplicator.classify(first, from: "one") == .new)
        #expect(deduplicator.classify(second, from: "two") == .duplicate(of: .init(source: "one", id: "a")))
    }

    @Test func forgettingAnItemReleasesItsURL() {
        var deduplicator = Deduplicator()
        #expect(deduplicator.classify(makeItem("a", url: "https://example.org/x"), from: "one") == .new)
        deduplicator.forget(.init(source: "one", id: "a"))
        #expect(deduplicator.classify(makeItem("b", url: "https://example.org/x"), from: "two") == .new)
        #expect(
            deduplicator.classify(makeItem("a", url: "https://example.org/x"), from: "one")
                == .duplicate(of: .init(source: "two", id: "b"))
        )
    }

    /// The router keeps each kept item's entry in an array by the deduplicator's slot: two kept keys must never
    /// share a slot, a key let go gives its slot to the next one kept, a replacing key takes over the slot of the key
    /// it replaces, and an item that is not kept takes none.
    @Test func slotsAreOneAKeptKeyAndReused() {
        var deduplicator = Deduplicator()
        let a = ItemKey(source: "one", id: "a")
        let b = ItemKey(source: "one", id: "b")
        #expect(deduplicator.classify(makeItem("a", url: "https://example.org/a"), from: "one") == .new)
        #expect(deduplicator.classify(makeItem("b", url: "https://example.org/b"), from: "one") == .new)
        #expect(deduplicator.slot(of: a) == 0)
        #expect(deduplicator.slot(of: b) == 1)
        #expect(deduplicator.classify(makeItem("a", title: "changed"), from: "one") == .update)
        #expect(deduplicator.classify(makeItem("x", url: "https://example.org/a"), from: "two") == .duplicate(of: a))
        #expect(deduplicator.slot(of: ItemKey(source: "two", id: "x")) == nil)
        #expect(deduplicator.slotLimit == 2)

        deduplicator.forget(a)
        #expect(deduplicator.slot(of: a) == nil)
        #expect(deduplicator.classify(makeItem("c"), from: "one") == .new)
        #expect(deduplicator.slot(of: ItemKey(source: "one", id: "c")) == 0)

        let y = ItemKey(source: "two", id: "y")
        deduplicator.transfer(b, to: y)
        #expect(deduplicator.slot(of: b) == nil)
        #expect(deduplicator.slot(of: y) == 1)
        // b's URL went with its slot: another source's copy is now y's duplicate.
        #expect(deduplicator.classify(makeItem("z", url: "https://example.org/b"), from: "three") == .duplicate(of: y))
        #expect(deduplicator.slotLimit == 2)
    }

    @Test func itemsWithoutURLsAreNeverDuplicates() {
        var deduplicator = Deduplicator()
        #expect(deduplicator.classify(FeedItem(id: "a"), from: "one") == .new)
        #expect(deduplicator.classify(FeedItem(id: "a"), from: "two") == .new)
    }

    /// `ItemKey` hashes itself once, when made: keys made apart from the same source and id must still be one key,
    /// and keys differing in either must be two.
    @Test func itemKeysMadeApartAreOneKeyAndDifferentOnesAreNot() {
        let id = "https://example.org/" + String(repeating: "long/", count: 20) + "post"
        let key = ItemKey(source: "one", id: id)
        let same = ItemKey(source: SourceID("o" + "ne"), id: String(id.reversed().reversed()))
        #expect(key == same)
        #expect(key.hashValue == same.hashValue)
        #expect(key != ItemKey(source: "two", id: id))
        #expect(key != ItemKey(source: "one", id: id + "/"))
        let keys: Set = [key, same, ItemKey(source: "two", id: id), ItemKey(source: "one", id: "a")]
        #expect(keys.count == 3)
        var table: [ItemKey: Int] = [key: 1]
        table[same, default: 0] += 1
        #expect(table == [ItemKey(source: "one", id: id): 2])
    }
}
