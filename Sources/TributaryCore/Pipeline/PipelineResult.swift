/// The outcome of a one-shot ``Pipeline/run(onEvent:)``.
public struct PipelineResult: Sendable, Equatable {
    /// The items kept in this run, in digest order: newest first by `date_published ?? date_modified`, undated
    /// items placed by their first-seen time; ties go by source order, then feed order. Empty when the run did not
    /// hold its items (``PipelineSettings/holdsItems``): read them from the store through ``outlines``.
    public var items: [FeedItem]
    /// Every kept item's outline, in the same digest order, whether or not the run held the items.
    public var outlines: [ItemOutline]
    /// One final status per source, in the order the sources were given.
    public var statuses: [SourceStatus]

    /// Creates a result of held items; their outlines are derived from them.
    public init(items: [FeedItem], statuses: [SourceStatus]) {
        self.init(items: items, outlines: items.map(ItemOutline.init), statuses: statuses)
    }

    /// Creates a result.
    public init(items: [FeedItem], outlines: [ItemOutline], statuses: [SourceStatus]) {
        self.items = items
        self.outlines = outlines
        self.statuses = statuses
    }

    /// Whether any source failed (including timeouts).
    public var hasFailures: Bool {
        statuses.contains { $0.error != nil }
    }
}
