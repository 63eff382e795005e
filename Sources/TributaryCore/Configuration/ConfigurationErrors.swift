/// Every problem found in one feeds.json, in file order: the loader reports them all, not just the first.
public struct ConfigurationErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, sorted by line and column (problems without a place first).
    public var errors: [ConfigurationError]

    /// Wraps problems, sorting them by place.
    public init(_ errors: [ConfigurationError]) {
        self.errors = errors.enumerated()
            .sorted { lhs, rhs in
                let left = (lhs.element.line ?? 0, lhs.element.column ?? 0, lhs.offset)
                let right = (rhs.element.line ?? 0, rhs.element.column ?? 0, rhs.offset)
                return left < right
            }
            .map(\.element)
    }

    /// One problem per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
