import Foundation
import Testing
import TributaryCore

@Suite struct ItemOrderingTests {
    private func entry(
        _ id: String,
        published: Date? = nil,
        modified: Date? = nil,
        firstSeen: Date = referenceNow,
        source: Int = 0,
        arrival: Int
    ) -> ItemOrdering.Entry {
        ItemOrdering.Entry(
            item: FeedItem(id: id, datePublished: published, dateModified: modified),
            firstSeen: firstSeen,
            sourceIndex: source,
            arrivalIndex: arrival
        )
    }

    @Test func newestFirstByPublishedThenModified() {
        let entries = [
            entry("a", published: hoursFromNow(-3), arrival: 0),
            entry("b", modified: hoursFromNow(-1), arrival: 1),
            entry("c", published: hoursFromNow(-2), modified: hoursFromNow(0), arrival: 2),
        ]
        #expect(ItemOrdering.sorted(entries).map(\.id) == ["b", "c", "a"])
    }

    @Test func undatedItemsSortByFirstSeenAndKeepFeedOrder() {
        let entries = [
            entry("u2", firstSeen: hoursFromNow(-2), arrival: 3),
            entry("dated", published: hoursFromNow(-1), arrival: 0),
            entry("u1", firstSeen: hoursFromNow(-2), arrival: 1),
            entry("old", published: hoursFromNow(-5), arrival: 2),
        ]
        #expect(ItemOrdering.sorted(entries).map(\.id) == ["dated", "u1", "u2", "old"])
    }

    @Test func tiesGoBySourceOrderThenFeedOrder() {
        let entries = [
            entry("b0", published: referenceNow, source: 1, arrival: 0),
            entry("a1", published: referenceNow, source: 0, arrival: 1),
            entry("a0", published: referenceNow, source: 0, arrival: 0),
        ]
        #expect(ItemOrdering.sorted(entries).map(\.id) == ["a0", "a1", "b0"])
        #expect(ItemOrdering.sorted(entries.reversed()).map(\.id) == ["a0", "a1", "b0"])
    }

    @Test func anItemsOwnDateIsItsPublishedElseModifiedDateInItemAndOutline() {
        let cases: [(published: Date?, modified: Date?, own: Date?)] = [
            (hoursFromNow(-2), hoursFromNow(-1), hoursFromNow(-2)),
            (nil, hoursFromNow(-1), hoursFromNow(-1)),
            (hoursFromNow(-2), nil, hoursFromNow(-2)),
            (nil, nil, nil),
        ]
        for (published, modified, own) in cases {
            let item = FeedItem(id: "x", datePublished: published, dateModified: modified)
            #expect(item.ownDate == own)
            #expect(ItemOutline(item).ownDate == own)
        }
    }
}
