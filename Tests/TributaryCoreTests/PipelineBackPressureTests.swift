import Foundation
import Synchronization
import Testing
import TributaryCore

/// A counter shared between a source and the test.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A source that sends as fast as its sink lets it, counting what it sent.
private struct FloodSource: Source {
    struct Options: Decodable, Sendable {}
    static let kind = "flood"
    static let documentation = SourceDocumentation(summary: "Test flood.", options: [], example: "{}")

    let id: SourceID
    let count: Int
    let sent: Counter

    init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        self.count = 0
        self.sent = Counter()
    }

    init(id: SourceID, count: Int, sent: Counter) {
        self.id = id
        self.count = count
        self.sent = sent
    }

    func run(into sink: EventSink) async throws {
        await sink.started()
        for index in 0..<count {
            await sink.items([FeedItem(id: "item-\(index)", url: "https://example.com/\(index)")])
            sent.increment()
        }
        await sink.finished()
    }
}

@Suite struct PipelineBackPressureTests {
    @Test func aFastSourceWaitsForASlowConsumer() async throws {
        let sent = Counter()
        let source = FloodSource(id: "flood", count: 200, sent: sent)
        let pipeline = Pipeline(
            sources: [PipelineSource(source: source, kind: "flood")],
            settings: PipelineSettings(),
            store: InMemoryItemStore()
        )
        let handled = Mutex(0)
        let maxLead = Mutex(0)
        let result = try await pipeline.run { event in
            guard case .itemsAdded(let items) = event else { return }
            let lead = sent.value - handled.withLock { $0 }
            maxLead.withLock { $0 = max($0, lead) }
            // A slow consumer: yield to let the source run ahead if it could.
            for _ in 0..<5 { await Task.yield() }
            handled.withLock { $0 += items.count }
        }
        #expect(result.items.count == 200)
        // Without back-pressure the source would finish all 200 sends before the consumer got far.
        #expect(maxLead.withLock { $0 } <= 3)
    }
}
