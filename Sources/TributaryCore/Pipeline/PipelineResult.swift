/// The outcome of a one-shot ``Pipeline/run(onEvent:)``.
public struct PipelineResult: Sendable, Equatable {
    /// The items kept in this run, in digest order: newest first by `date_published ?? date_modified`, undated
    /// items placed by their first-seen time; ties go by source order, then feed order.
    public var items: [FeedItem]
    /// One final status per source, in the order the sources were given.
    public var statuses: [SourceStatus]

    /// Creates a result.
    public init(items: [FeedItem], statuses: [SourceStatus]) {
        self.items = items
        self.statuses = statuses
    }

    /// Whether any source failed (including timeouts).
    public var hasFailures: Bool {
        statuses.contains { $0.error != nil }
    }
}
