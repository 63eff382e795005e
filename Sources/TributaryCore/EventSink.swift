/// Where a source sends its events. The pipeline owns the sink; a source only calls it.
///
/// Sending may suspend: that is how the pipeline applies back-pressure to a fast source. Like Hummingbird's `next`
/// closure, the sink is a plain value wrapping a function, so tests and the conformance kit can record events
/// without any pipeline.
public struct EventSink: Sendable {
    private let handler: @Sendable (SourceEvent) async -> Void

    /// Creates a sink that hands every event to `handler`.
    public init(_ handler: @escaping @Sendable (SourceEvent) async -> Void) {
        self.handler = handler
    }

    /// Sends one event.
    public func send(_ event: SourceEvent) async {
        await handler(event)
    }

    /// Sends `.started`.
    public func started() async { await handler(.started) }

    /// Sends a batch of items; an empty batch is not sent.
    public func items(_ items: [FeedItem]) async {
        guard !items.isEmpty else { return }
        await handler(.items(items))
    }

    /// Sends a warning.
    public func warning(_ message: String, location: String? = nil) async {
        await handler(.warning(SourceWarning(message, location: location)))
    }

    /// Sends state for the next run, to be stored after the items sent so far.
    public func checkpoint(_ checkpoint: SourceCheckpoint) async { await handler(.checkpoint(checkpoint)) }

    /// Sends `.finished`.
    public func finished() async { await handler(.finished) }

    /// Sends `.notModified`: nothing changed since ``SourceContext/savedState``.
    public func notModified() async { await handler(.notModified) }

    /// Sends `.failed`.
    public func failed(_ error: SourceError) async { await handler(.failed(error)) }
}
