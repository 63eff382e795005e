import Foundation
import Testing

@testable import TributaryCore

/// Stores decode what they read after letting go of their database, in two halves for a digest's batch: the order
/// and every field must come out as one decoder in a row would give them.
@Suite struct StoredItemDecodingTests {
    static func rows(_ count: Int) -> [StoredItem.Row] {
        (0..<count).map { index in
            let item = FeedItem(
                id: "item-\(index)",
                url: "https://example.com/\(index)",
                title: "Item \(index)",
                contentText: "Text of item \(index)"
            )
            return StoredItem.Row(
                json: StoredItem.storedJSON(item),
                sourceID: SourceID("source-\(index % 3)"),
                firstSeen: Date(timeIntervalSince1970: Double(1_700_000_000 + index)),
                lastSeen: Date(timeIntervalSince1970: Double(1_800_000_000 + index))
            )
        }
    }

    @Test(arguments: [0, 1, StoredItem.rowsWorthTwoTasks - 1, StoredItem.rowsWorthTwoTasks, 1_001])
    func rowsComeBackInTheirOrderWithEveryField(count: Int) async throws {
        let rows = Self.rows(count)
        let decoded = try await StoredItem.decoded(rows)
        let oneByOne = try rows.map {
            try StoredItem(json: $0.json, sourceID: $0.sourceID, firstSeen: $0.firstSeen, lastSeen: $0.lastSeen)
        }
        #expect(decoded == oneByOne)
        #expect(decoded.map(\.item.id) == (0..<count).map { "item-\($0)" })
        #expect(decoded.last?.item.tributary?.firstSeen == rows.last?.firstSeen)
    }

    @Test func aRowThatIsNoItemFailsTheRead() async {
        var rows = Self.rows(StoredItem.rowsWorthTwoTasks * 2)
        rows[StoredItem.rowsWorthTwoTasks / 2].json = "{\"title\": 3"
        await #expect(throws: (any Error).self) { try await StoredItem.decoded(rows) }
    }
}
