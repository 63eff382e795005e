public import FeedParser

/// What a ``FeedReader`` learned from one complete read, besides the items it emitted.
public struct FeedReadResult: Sendable {
    /// The channel or feed header; `nil` only when the document had none.
    public var metadata: FeedMetadata?
    /// The response's HTTP validators, for a later conditional GET (empty for files).
    public var validators: Validators
    /// How many items were emitted.
    public var itemCount: Int
    /// How many body bytes were read (after decompression).
    public var byteCount: Int
    /// Whether the server answered a conditional request with `304 Not Modified`: nothing was read, and the
    /// items of the previous read stand.
    public var isNotModified: Bool

    /// Creates a result.
    public init(
        metadata: FeedMetadata?,
        validators: Validators,
        itemCount: Int,
        byteCount: Int,
        isNotModified: Bool = false
    ) {
        self.metadata = metadata
        self.validators = validators
        self.itemCount = itemCount
        self.byteCount = byteCount
        self.isNotModified = isNotModified
    }
}
