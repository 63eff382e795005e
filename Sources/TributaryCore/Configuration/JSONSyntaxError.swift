/// A JSON text that is not valid JSON: where the problem is and what was expected there.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is (1-based line, column in characters).
    public var position: JSONPosition
    /// What is wrong, e.g. `expected ',' or '}' after object member`.
    public var detail: String

    /// Creates a syntax error.
    public init(position: JSONPosition, detail: String) {
        self.position = position
        self.detail = detail
    }

    /// The 1-based line.
    public var line: Int { position.line }
    /// The 1-based column, in characters.
    public var column: Int { position.column }

    /// `LINE:COLUMN: detail`.
    public var description: String { "\(position): \(detail)" }
}
