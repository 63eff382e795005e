/// The HTTP validators of a response (`ETag`, `Last-Modified`), kept for a conditional GET on the next run.
///
/// Captured from every HTTP response now; sending them back (`If-None-Match`, `If-Modified-Since`) and serving
/// the stored items on `304 Not Modified` come with the persistent store (DESIGN.md section 7).
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
}
