/// A line and column in a text file, both counted from 1, as editors show them.
///
/// Columns count Unicode scalars, not bytes, so a position after Japanese text matches what an editor's status bar
/// says. A line ends at `\n`, at `\r\n` (one break, not two) or at a lone `\r`.
struct TextPosition: Hashable, Sendable, CustomStringConvertible {
    var line: Int
    var column: Int

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of the byte at `offset` in UTF-8 `bytes`; an offset at or past the end names the place just
    /// after the last character.
    init(byteOffset offset: Int, in bytes: some Collection<UInt8>) {
        var line = 1
        var column = 1
        var previous: UInt8 = 0
        for (index, byte) in bytes.enumerated() {
            guard index < offset else { break }
            switch byte {
            case UInt8(ascii: "\n"):
                // The `\n` of a `\r\n` pair: the `\r` already started the new line.
                if previous != UInt8(ascii: "\r") {
                    line += 1
                    column = 1
                }
            case UInt8(ascii: "\r"):
                line += 1
                column = 1
            case 0x80...0xBF:
                break  // a UTF-8 continuation byte belongs to the scalar already counted
            default:
                column += 1
            }
            previous = byte
        }
        self.init(line: line, column: column)
    }

    var description: String { "\(line):\(column)" }
}
