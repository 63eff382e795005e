/// What a source remembers between runs: a few strings under keys the source chooses, such as `etag`,
/// `last-modified` or `seq`.
///
/// A source sends one with ``EventSink/checkpoint(_:)``; the pipeline stores it after the items sent before it,
/// in the same order, and the next run gets it back as ``SourceContext/savedState``. Keep it small: it is state,
/// not content.
public struct SourceCheckpoint: Sendable, Hashable {
    /// The saved values by key.
    public var values: [String: String]

    /// Creates a checkpoint.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The value under `key`, if any.
    public subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Whether nothing is saved.
    public var isEmpty: Bool { values.isEmpty }
}
