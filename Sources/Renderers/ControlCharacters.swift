/// Removes what a feed could use to take over a terminal or corrupt a document: ANSI/VT escape sequences (CSI, OSC,
/// DCS and the like, in their 7-bit `ESC` and 8-bit C1 forms; the 8-bit DCS and OSC alone, see below) and every
/// other C0 and C1 control character.
/// Whitespace controls (tab, line feed, carriage return, vertical tab, form feed, NEL, and the Unicode line and
/// paragraph separators) become spaces, so words on either side stay apart.
enum ControlCharacters {
    /// The text without escape sequences and control characters; whitespace controls become spaces.
    static func removing(from text: String) -> String {
        guard holdsControls(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let value = scalars[index].value
            switch value {
            case 0x1B:
                index = endOfEscapeSequence(scalars, startingAt: index + 1)
            case 0x9B:
                index = endOfControlSequence(scalars, startingAt: index + 1)
            case 0x98, 0x9E, 0x9F:
                index = endOfControlString(scalars, startingAt: index + 1)
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
                result.append(" ")
                index += 1
            // U+0090 (DCS) and U+009D (OSC) go alone, never with the text after them: they are two of the five
            // positions windows-1252 leaves empty, so in a feed they are what a doubly encoded `”` (`â€\u{9D}`)
            // or `Đ` leaves, and the parser keeps them as feedparser does.
            case 0x00...0x1F, 0x7F...0x9F:
                index += 1
            default:
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    // MARK: - Private

    /// Whether the text holds a C0 control, DEL, a C1 control (C2 80 to C2 9F in UTF-8) or U+2028/U+2029 (E2 80
    /// A8/A9), read from its UTF-8 without decoding it (in valid UTF-8, C2 and E2 only ever lead a character).
    private static func holdsControls(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Printable ASCII, nearly every byte, costs one comparison; C1 controls are `C2 80` to `C2 9F`, the line
            // and paragraph separators `E2 80 A8` and `E2 80 A9`.
            let count = bytes.count
            for index in 0..<count {
                let byte = bytes[index]
                if byte >= 0x20, byte < 0x7F { continue }
                if byte < 0x20 || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                {
                    return true
                }
            }
            return false
        }
    }

    /// The index after an escape sequence whose `ESC` was just before `start`.
    private static func endOfEscapeSequence(_ scalars: [Unicode.Scalar], startingAt start: Int) -> Int {
        guard start < scalars.count else { return start }
        switch scalars[start].value {
        case 0x5B:  // `[`: control sequence
            return endOfControlSequence(scalars, startingAt: start + 1)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // `]` OSC, `P` DCS, `X` SOS, `^` PM, `_` APC: strings up to ST or BEL
            return endOfControlString(scalars, startingAt: start + 1)
        case 0x20...0x2F:  // intermediates, then one final byte (`ESC ( B`)
            var index = start
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        case 0x30...0x7E:  // a two-character sequence (`ESC c`, `ESC 7`)
            return start + 1
        default:
            return start
        }
    }

    /// The index after a control sequence (parameters, intermediates, one final byte) starting at `start`.
    private static func endOfControlSequence(_ scalars: [Unicode.Scalar], startingAt start: Int) -> Int {
        var index = start
        while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) { index += 1 }
        if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
        return index
    }

    /// The index after a control string ended by BEL, `ESC \` or ST; an unterminated string runs to the end, as it
    /// would in a terminal.
    private static func endOfControlString(_ scalars: [Unicode.Scalar], startingAt start: Int) -> Int {
        var index = start
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C:
                return index + 1
            case 0x1B:
                return index + 1 < scalars.count && scalars[index + 1] == "\\" ? index + 2 : index + 1
            default:
                index += 1
            }
        }
        return index
    }
}
