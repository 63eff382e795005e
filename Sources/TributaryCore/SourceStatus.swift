/// What became of one source in a run: the pipeline keeps one per source and publishes every change.
public struct SourceStatus: Sendable, Equatable {
    /// Where a source is in its run.
    public enum State: Sendable, Equatable {
        /// Not started yet.
        case pending
        /// Started and delivering.
        case running
        /// Delivered everything it had.
        case succeeded
        /// The server said nothing changed; the stored items stand.
        case notModified
        /// Could not deliver; the items it emitted before failing are kept.
        case failed(SourceError)

        /// Whether the run of the source is over.
        public var isFinal: Bool {
            switch self {
            case .pending, .running: false
            case .succeeded, .notModified, .failed: true
            }
        }
    }

    public var sourceID: SourceID
    public var kind: String
    /// The source's title from feeds.json, if it has one.
    public var title: String?
    public var state: State
    /// Items the source delivered that the pipeline kept (after filters and deduplication).
    public var itemCount: Int
    /// Recoverable problems met on the way.
    public var warnings: [SourceWarning]
    /// How long the run took, once it is over.
    public var duration: Duration?

    public init(
        sourceID: SourceID,
        kind: String,
        title: String? = nil,
        state: State = .pending,
        itemCount: Int = 0,
        warnings: [SourceWarning] = [],
        duration: Duration? = nil
    ) {
        self.sourceID = sourceID
        self.kind = kind
        self.title = title
        self.state = state
        self.itemCount = itemCount
        self.warnings = warnings
        self.duration = duration
    }

    /// The error, when the source failed.
    public var error: SourceError? {
        if case .failed(let error) = state { return error }
        return nil
    }
}
