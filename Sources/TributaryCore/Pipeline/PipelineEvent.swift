/// What the ``Pipeline`` publishes while it runs, in the order it decided it.
public enum PipelineEvent: Sendable, Equatable {
    /// A source's status changed: it started, delivered items, met a warning, or ended.
    case sourceStatusChanged(SourceStatus)
    /// Items kept for the first time in this run, normalised and stamped, in arrival order.
    case itemsAdded([FeedItem])
    /// Items already kept in this run that changed: new content under the same id, or a duplicate from another
    /// source recorded in `_tributary.also_in`.
    case itemsUpdated([FeedItem])
    /// Items kept earlier in this run and now left out, because a newer item of the same source pushed them past
    /// the source's `maxItems`.
    case itemsRemoved([FeedItem])
    /// A recoverable problem with one source (also collected in its ``SourceStatus/warnings``).
    case warning(SourceID, SourceWarning)
}
