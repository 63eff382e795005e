/// Receives the sanitized tree, in document order, from ``TreeWalker``.
protocol TreeEmitter {
    /// An allowed element's start tag, with its checked attributes (name and value, in order).
    mutating func start(_ element: String, attributes: [(name: String, value: String)], isVoid: Bool)
    /// The end tag of an element passed to ``start(_:attributes:isVoid:)`` (never for void elements).
    mutating func end(_ element: String)
    /// An element that is unwrapped (its tags dropped, its content kept) starts or ends.
    mutating func unwrapped(_ element: String, starts: Bool)
    /// Text, decoded.
    mutating func text(_ text: String)
}
