/// What a source reports while it runs. A source says nothing about where it came from beyond its id, which the
/// pipeline knows, so the pipeline treats all sources alike.
///
/// The order is fixed by the ``Source`` rules: one `started` first, then any number of `items`, `warning` and
/// `checkpoint` events, then exactly one terminal event, `finished`, `notModified` or `failed`.
public enum SourceEvent: Sendable, Equatable {
    /// The source began its work.
    case started
    /// A batch of items, emitted while the source is still reading, not all at the end.
    case items([FeedItem])
    /// Something recoverable went wrong: a malformed frame, a skipped item, recovered markup.
    case warning(SourceWarning)
    /// The source could not deliver (or could not finish); the items already emitted are kept.
    case failed(SourceError)
    /// State for the next run (HTTP validators, a push cursor): the pipeline stores it after every item sent
    /// before it, so a crash never leaves a cursor ahead of the stored items. The next run reads it back as
    /// ``SourceContext/savedState``. Each checkpoint replaces the whole saved state of the source.
    case checkpoint(SourceCheckpoint)
    /// The source delivered everything it had.
    case finished
    /// Nothing changed since the state the source was given (an HTTP `304 Not Modified`): the pipeline serves
    /// the items the store holds from the source's last successful run.
    case notModified

    /// Whether this event ends the source's run.
    public var isTerminal: Bool {
        switch self {
        case .failed, .finished, .notModified: true
        case .started, .items, .warning, .checkpoint: false
        }
    }
}

/// A recoverable problem a source met, with where it happened when that is known.
public struct SourceWarning: Hashable, Sendable, CustomStringConvertible {
    /// What happened and, where there is one, what the user can do about it.
    public var message: String
    /// Where in the input it happened: a line (and column), an item index or a frame number, as text.
    public var location: String?

    /// A warning; a password written into a URL in `message` (`https://user:secret@host/`) is left out.
    public init(_ message: String, location: String? = nil) {
        self.message = URLCredentials.redacted(message)
        self.location = location
    }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }
}
