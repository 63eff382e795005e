import TributaryCore

/// Text for a terminal: feed strings made harmless, measured in columns and wrapped.
///
/// A feed must not be able to rewrite the terminal, so ``sanitize(_:)`` removes escape sequences, control characters
/// and bidirectional overrides. Widths are measured in terminal columns: East Asian wide and fullwidth characters
/// and emoji take two, combining marks and format characters none (a small version of `wcwidth`, enough for
/// Japanese, Chinese and Korean text and emoji).
public enum TerminalText {
    /// The text as one line that is safe to print: ANSI/VT escape sequences, C0 and C1 control characters and
    /// bidirectional embedding, override and isolate controls are removed, and whitespace runs become one space.
    public static func sanitize(_ text: String) -> String {
        let withoutControls = ControlCharacters.removing(from: text)
        var scalars = String.UnicodeScalarView()
        for scalar in withoutControls.unicodeScalars
        where !(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value) {
            scalars.append(scalar)
        }
        return FeedText.collapseWhitespace(String(scalars))
    }

    /// The number of terminal columns the text takes.
    public static func displayWidth(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + displayWidth(of: $1) }
    }

    /// The number of terminal columns one character (grapheme cluster) takes: 0, 1 or 2.
    public static func displayWidth(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: \.properties.isEmojiPresentation) { return 2 }
        if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return min(2, scalars.reduce(0) { $0 + width(of: $1) })
    }

    /// Wraps one line of text into lines of at most `width` columns.
    ///
    /// Lines break at spaces, and between East Asian wide characters, which need no spaces, except before closing
    /// punctuation and small kana or after opening brackets. A word wider than the line is split between
    /// characters, except a URL (`scheme://…`, `www.…`): it is never broken, and overflows a line of its own. A
    /// character wider than `width` itself gets a line of its own.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for piece in pieces(of: text) {
            let separator = piece.spaceBefore && !line.isEmpty ? 1 : 0
            if lineWidth + separator + piece.width <= width {
                if separator == 1 { line.append(" ") }
                line += piece.text
                lineWidth += separator + piece.width
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            lineWidth = 0
            if piece.width > width, isURL(piece.text) {
                // A URL split across lines no longer opens when clicked or copied: it overflows its line instead.
                line = piece.text
                lineWidth = piece.width
                continue
            }
            for character in piece.text {
                let characterWidth = displayWidth(of: character)
                if lineWidth + characterWidth > width, !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The text cut to at most `width` columns, ending in `…` when it was cut.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = displayWidth(of: character)
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// The text followed by spaces up to `width` columns.
    public static func pad(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - displayWidth(text)))
    }

    // MARK: - Private

    /// Whether a word is a URL a terminal or a person would open: `scheme://…` (after any opening punctuation) or
    /// `www.…`.
    private static func isURL(_ word: String) -> Bool {
        let trimmed = word.drop { !$0.isLetter }
        if trimmed.hasPrefix("www.") { return true }
        let characters = Array(trimmed)
        guard let colon = characters.firstIndex(of: ":"), characters[colon...].starts(with: [":", "/", "/"]) else {
            return false
        }
        let scheme = characters[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    private struct Piece {
        var text: String
        var width: Int
        var spaceBefore: Bool
    }

    /// Splits text into the units a line may not break inside.
    private static func pieces(of text: String) -> [Piece] {
        var pieces: [Piece] = []
        var pendingSpace = false
        var previous: (character: Character, width: Int)?
        for character in text {
            if character.isWhitespace {
                pendingSpace = true
                previous = nil
                continue
            }
            let characterWidth = displayWidth(of: character)
            let breaksHere: Bool
            if let previous, !pendingSpace, !pieces.isEmpty {
                breaksHere =
                    (previous.width >= 2 || characterWidth >= 2) && !noBreakBefore.contains(character)
                    && !noBreakAfter.contains(previous.character)
            } else {
                breaksHere = true
            }
            if breaksHere {
                pieces.append(Piece(text: String(character), width: characterWidth, spaceBefore: pendingSpace))
            } else {
                pieces[pieces.count - 1].text.append(character)
                pieces[pieces.count - 1].width += characterWidth
            }
            pendingSpace = false
            previous = (character, characterWidth)
        }
        return pieces
    }

    /// Characters a line must not start with (Japanese kinsoku shori, and ASCII closing punctuation).
    private static let noBreakBefore = Set("、。，．・：；？！ー」』）〕］｝〉》】〟ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〜…‥,.;:!?)]}%")

    /// Characters a line must not end with (opening brackets).
    private static let noBreakAfter = Set("「『（〔［｛〈《【〝([{")

    private static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (UAX #11), without the emoji, which `isEmojiPresentation` covers.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
            0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
