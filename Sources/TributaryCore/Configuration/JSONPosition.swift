/// A place in a JSON text: a 1-based line and a 1-based column counted in Unicode scalars (characters), so a
/// Japanese title before the place counts one column per character, not three per UTF-8 byte.
public struct JSONPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line. A line ends at `\n`, `\r\n` or a lone `\r`.
    public var line: Int
    /// The 1-based column, in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }

    public static func < (lhs: JSONPosition, rhs: JSONPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
