import Foundation
import TributaryCore

/// Records every event a source sends, in order, with the time it arrived.
actor EventRecorder {
    private(set) var events: [SourceEvent] = []
    private let onEvent: @Sendable (SourceEvent) async -> Void

    init(onEvent: @escaping @Sendable (SourceEvent) async -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    func append(_ event: SourceEvent) async {
        events.append(event)
        await onEvent(event)
    }

    /// A sink that records into this recorder.
    nonisolated var sink: EventSink {
        EventSink { event in await self.append(event) }
    }

    /// Every item in every `items` event, in order.
    var items: [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            if case .items(let items) = event { return items }
            return []
        }
    }

    /// The terminal event's error, if the run failed.
    var failure: SourceError? {
        for case .failed(let error) in events { return error }
        return nil
    }

    var finished: Bool { events.last == .finished }
}
