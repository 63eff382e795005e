public import TributaryCore

/// Records every event a source sends, in order.
public actor EventRecorder {
    /// The events so far.
    public private(set) var events: [SourceEvent] = []
    private let onEvent: @Sendable (SourceEvent) async -> Void

    /// Creates a recorder that also hands each event to `onEvent` once it is recorded.
    public init(onEvent: @escaping @Sendable (SourceEvent) async -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    /// Records `event`.
    public func append(_ event: SourceEvent) async {
        events.append(event)
        await onEvent(event)
    }

    /// A sink that records into this recorder.
    public nonisolated var sink: EventSink {
        EventSink { event in await self.append(event) }
    }

    /// Every item in every `items` event, in order.
    public var items: [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            if case .items(let items) = event { return items }
            return []
        }
    }

    /// The terminal event's error, if the run failed.
    public var failure: SourceError? {
        for case .failed(let error) in events { return error }
        return nil
    }

    /// Whether the source finished successfully.
    public var finished: Bool { events.last == .finished }
}
