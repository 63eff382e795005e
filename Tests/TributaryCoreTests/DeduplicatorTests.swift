import Testing

@testable import TributaryCore

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
    /// Kept keys are found by their hash and told apart where their slot keeps them; keys that share a hash go to a
    /// second table. A deduplicator that gives every key the same hash (all but the first collide) must decide
    /// exactly as the real one through a run of news, updates, duplicates, caps and transfers.
    @Test func keysThatShareAHashAreToldApart() {
        var real = Deduplicator()
        var colliding = Deduplicator(keyHash: { _ in 42 })
        var decisions: [(Deduplicator.Decision, Deduplicator.Decision)] = []
        func classify(_ id: String, _ url: String?, _ source: SourceID) {
            let item = makeItem(id, url: url)
            decisions.append((real.classify(item, from: source), colliding.classify(item, from: source)))
        }
        func slots(_ keys: [ItemKey]) -> ([Int?], [Int?]) {
            (keys.map { real.slot(of: $0) }, keys.map { colliding.slot(of: $0) })
        }
        let sources: [SourceID] = ["one", "two", "three"]
        for round in 0..<3 {
            for (index, source) in sources.enumerated() {
                for story in 0..<8 {
                    // Stories 0-3 are carried by every source (duplicates), 4-7 by each source alone.
                    let url = story < 4 ? "https://news.example/\(story)" : "https://\(source).example/\(story)"
                    classify("\(source)-\(story)", round == 2 && story == 5 ? url + "?moved" : url, source)
                    if index == 0, story == 3 { classify("\(source)-\(story)", url, source) }
                }
            }
            let keys = sources.flatMap { source in (0..<8).map { ItemKey(source: source, id: "\(source)-\($0)") } }
            let (realSlots, collidingSlots) = slots(keys)
            #expect(realSlots == collidingSlots)
            // A cap lets items go; a source listed first takes another's place.
            real.forget(ItemKey(source: "two", id: "two-\(4 + round)"))
            colliding.forget(ItemKey(source: "two", id: "two-\(4 + round)"))
            let (owner, taker) = (ItemKey(source: "one", id: "one-\(round)"), ItemKey(source: "three", id: "x\(round)"))
            real.transfer(owner, to: taker)
            colliding.transfer(owner, to: taker)
            #expect(slots(keys).0 == slots(keys).1)
        }
        #expect(decisions.map(\.0) == decisions.map(\.1))
        #expect(decisions.contains { $0.0 == .update })
        #expect(decisions.contains { if case .duplicate = $0.0 { true } else { false } })
        #expect(real.slotLimit == colliding.slotLimit)
        #expect(real.collisionCount == 0)
        #expect(colliding.collisionCount > 10)
        // The URL of the item let go last (not seen again since) is free for a new item in both; one of an item let
        // go and kept again is not.
        #expect(real.classify(makeItem("n", url: "https://two.example/6"), from: "three") == .new)
        #expect(colliding.classify(makeItem("n", url: "https://two.example/6"), from: "three") == .new)
        let again = Deduplicator.Decision.duplicate(of: ItemKey(source: "two", id: "two-4"))
        #expect(real.classify(makeItem("m", url: "https://two.example/4"), from: "three") == again)
        #expect(colliding.classify(makeItem("m", url: "https://two.example/4"), from: "three") == again)
    }

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
