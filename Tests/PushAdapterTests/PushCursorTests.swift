import Testing
import TributaryCore

@testable import PushAdapter

@Suite struct PushCursorTests {
    private func item(_ seq: Int64) -> PushFrame { .item(seq: seq, item: FeedItem(id: "i\(seq)")) }

    @Test func holdsTheBacklogUntilReadyThenEmitsLiveItemsAtOnce() {
        var cursor = PushCursor()
        cursor.connectionStarted()
        #expect(cursor.receive(item(1)) == .none)
        #expect(cursor.receive(item(2)) == .none)
        #expect(cursor.receive(.ready(seq: 2)) == .emit([FeedItem(id: "i1"), FeedItem(id: "i2")]))
        #expect(cursor.receive(item(3)) == .emit([FeedItem(id: "i3")]))
        #expect(cursor.readySeen)
        #expect(cursor.lastSeq == 3)
    }

    @Test func ignoresItemsAtOrBelowTheLastAcceptedSeq() {
        var cursor = PushCursor()
        cursor.connectionStarted()
        _ = cursor.receive(.ready(seq: 0))
        #expect(cursor.receive(item(5)) == .emit([FeedItem(id: "i5")]))
        #expect(cursor.receive(item(5)) == .none)
        #expect(cursor.receive(item(4)) == .none)
        #expect(cursor.receive(item(6)) == .emit([FeedItem(id: "i6")]))
        #expect(cursor.repeatsIgnored == 2)
        #expect(cursor.lastSeq == 6)
    }

    @Test func controlFramesAtTheLastSeqAreNotIgnored() {
        var cursor = PushCursor()
        cursor.connectionStarted()
        _ = cursor.receive(item(3))
        _ = cursor.receive(.ready(seq: 3))
        cursor.connectionStarted()
        _ = cursor.receive(.ready(seq: 3))
        #expect(cursor.framesOnConnection == 1)
        #expect(cursor.repeatsIgnored == 0)
    }

    @Test func batchesALongBacklog() {
        var cursor = PushCursor()
        cursor.connectionStarted()
        var emitted = 0
        for seq in Int64(1)...120 {
            if case .emit(let items) = cursor.receive(item(seq)) { emitted += items.count }
        }
        #expect(emitted == 100)
        #expect(cursor.takePending().count == 20)
    }

    @Test func aNewConnectionBatchesItsBacklogAgain() {
        var cursor = PushCursor()
        cursor.connectionStarted()
        _ = cursor.receive(.ready(seq: 0))
        cursor.connectionStarted()
        #expect(cursor.receive(item(1)) == .none)
        #expect(cursor.framesOnConnection == 1)
    }
}
