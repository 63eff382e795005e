import Foundation
import Testing
import TributaryCore

@Suite struct InMemoryItemStoreTests {
    @Test func insertsNewItemsWithFirstSeenStamped() async throws {
        let store: any ItemStore = InMemoryItemStore()
        let changes = try await store.save([makeItem("a"), makeItem("b")], from: "src", at: referenceNow)
        #expect(changes.inserted.map(\.item.id) == ["a", "b"])
        #expect(changes.updated.isEmpty && changes.unchanged.isEmpty)
        #expect(changes.inserted.allSatisfy { $0.item.tributary?.firstSeen == referenceNow })
        #expect(changes.inserted.allSatisfy { $0.firstSeen == referenceNow && $0.lastSeen == referenceNow })
    }

    @Test func tellsUpdatedFromUnchangedAndKeepsFirstSeen() async throws {
        let store: any ItemStore = InMemoryItemStore()
        let later = hoursFromNow(2)
        _ = try await store.save([makeItem("a"), makeItem("b")], from: "src", at: referenceNow)
        let changes = try await store.save(
            [makeItem("a"), makeItem("b", title: "New title"), makeItem("c")],
            from: "src",
            at: later
        )
        #expect(changes.unchanged.map(\.item.id) == ["a"])
        #expect(changes.updated.map(\.item.id) == ["b"])
        #expect(changes.inserted.map(\.item.id) == ["c"])
        #expect(changes.updated.first?.item.title == "New title")
        #expect(changes.updated.first?.firstSeen == referenceNow)
        #expect(changes.updated.first?.item.tributary?.firstSeen == referenceNow)
        #expect(changes.updated.first?.lastSeen == later)
        #expect(changes.all.map(\.item.id) == ["c", "b", "a"])
        #expect(try await store.items().map(\.item.id) == ["a", "b", "c"])
    }

    @Test func keysItemsBySourceAndID() async throws {
        let store: any ItemStore = InMemoryItemStore()
        _ = try await store.save([makeItem("a")], from: "one", at: referenceNow)
        let changes = try await store.save([makeItem("a")], from: "two", at: referenceNow)
        #expect(changes.inserted.map(\.sourceID) == ["two"])
        #expect(try await store.items().map(\.sourceID) == ["one", "two"])
    }

    @Test func remembersTheLastDigestDate() async throws {
        let store: any ItemStore = InMemoryItemStore()
        #expect(try await store.lastDigestDate() == nil)
        try await store.recordDigest(at: referenceNow)
        try await store.recordDigest(at: hoursFromNow(1))
        #expect(try await store.lastDigestDate() == hoursFromNow(1))
    }
}
