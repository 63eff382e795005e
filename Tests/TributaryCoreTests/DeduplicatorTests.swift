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

    @Test func itemsWithoutURLsAreNeverDuplicates() {
        var deduplicator = Deduplicator()
        #expect(deduplicator.classify(FeedItem(id: "a"), from: "one") == .new)
        #expect(deduplicator.classify(FeedItem(id: "a"), from: "two") == .new)
    }
}
