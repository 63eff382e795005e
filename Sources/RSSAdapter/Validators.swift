public import TributaryCore

/// The HTTP validators of a response (`ETag`, `Last-Modified`), kept for a conditional GET on the next run.
///
/// A source sends them back as `If-None-Match` and `If-Modified-Since`; a `304 Not Modified` then means the
/// stored items stand. Between runs they live in the source's ``SourceCheckpoint`` together with the URL they
/// belong to, so validators of a feed whose URL changed in feeds.json are never sent to the new URL.
public struct Validators: Sendable, Hashable {
    /// The `ETag` header, as the server wrote it (quotes and `W/` included).
    public var entityTag: String?
    /// The `Last-Modified` header, as the server wrote it.
    public var lastModified: String?

    /// Creates validators.
    /// - Parameters:
    ///   - entityTag: the `ETag` header.
    ///   - lastModified: the `Last-Modified` header.
    public init(entityTag: String? = nil, lastModified: String? = nil) {
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// Whether neither validator is known.
    public var isEmpty: Bool { entityTag == nil && lastModified == nil }

    /// The validators a checkpoint saved for `url`; empty when it saved none or saved them for another URL.
    public init(checkpoint: SourceCheckpoint, url: String) {
        guard checkpoint[CheckpointKey.url] == url else {
            self.init()
            return
        }
        self.init(entityTag: checkpoint[CheckpointKey.entityTag], lastModified: checkpoint[CheckpointKey.lastModified])
    }

    /// A checkpoint holding these validators for `url`.
    public func checkpoint(for url: String) -> SourceCheckpoint {
        var checkpoint = SourceCheckpoint([CheckpointKey.url: url])
        checkpoint[CheckpointKey.entityTag] = entityTag
        checkpoint[CheckpointKey.lastModified] = lastModified
        return checkpoint
    }

    /// The keys validators use in a ``SourceCheckpoint``.
    enum CheckpointKey {
        static let url = "url"
        static let entityTag = "etag"
        static let lastModified = "last-modified"
    }
}
