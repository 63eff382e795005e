import TributaryCore

/// Makes feed strings inert in Markdown (CommonMark and GitHub Flavored Markdown): whatever a title holds, it stays
/// text inside the one line it was given and cannot start a list, a heading, a link, emphasis, a table cell, raw
/// HTML or an entity.
public enum MarkdownEscaping {
    /// The text as one line of inline Markdown that renders as exactly that text, with no more backslashes than
    /// that takes: a title read raw (in a terminal, a commit message) reads as the title.
    ///
    /// Escape sequences and control characters are removed and whitespace runs (newlines included) become one
    /// space. A backslash goes before a character only where it would otherwise start or end structure:
    /// - always `*`, `` ` ``, `[`, `]` (links, emphasis, code; the text may sit inside a link's brackets) and `~`
    ///   (GitHub's strikethrough);
    /// - `\` before ASCII punctuation or at the end (where it would escape what follows the text);
    /// - `_` unless it is inside a word (`snake_case` cannot open emphasis);
    /// - `<` before a letter, `/`, `!` or `?` (raw HTML, an autolink), `&` that starts a character reference;
    /// - at the start of the text, what starts a block (`#`, `>`, `+`, `-`, `=`, and `.` or `)` after leading
    ///   digits; `#` only as a heading opens, `#1` stays); a trailing run of `#` after a space (it would close a
    ///   heading);
    /// - `|` in a table cell (`inTableCell`).
    /// `(`, `)`, `{`, `}`, `!`, `&` in `Example & Sons` and the like stay as they are.
    public static func text(_ text: String, inTableCell: Bool = false) -> String {
        let line = Array(FeedText.collapseWhitespace(ControlCharacters.removing(from: text)))
        var result = ""
        result.reserveCapacity(line.count + 8)
        var leadingDigits = true
        for (offset, character) in line.enumerated() {
            let previous: Character? = offset > 0 ? line[offset - 1] : nil
            let next: Character? = offset + 1 < line.count ? line[offset + 1] : nil
            let escape: Bool
            switch character {
            case "*", "`", "[", "]", "~":
                escape = true
            case "\\":
                escape = next.map { $0.isASCII && $0.isPunctuation || $0.isASCII && $0.isSymbol } ?? true
            case "_":
                escape = !(previous.map(isWordCharacter) ?? false) || !(next.map(isWordCharacter) ?? false)
            case "<":
                escape = next.map { $0.isASCII && $0.isLetter || "/!?".contains($0) } ?? false
            case "&":
                escape = startsCharacterReference(line, at: offset + 1)
            case "|":
                escape = inTableCell
            case "#":
                // An ATX heading opens with up to six `#` then a space or the end; a trailing run closes one.
                let run = line[offset...].prefix { $0 == "#" }.count
                let opensHeading = offset == 0 && run <= 6 && (offset + run == line.count || line[offset + run] == " ")
                escape = opensHeading || (previous == " " && offset + run == line.count)
            case ">", "+", "-", "=":
                escape = offset == 0
            case ".", ")":
                escape = leadingDigits && offset > 0
            default:
                escape = false
            }
            if escape { result.append("\\") }
            leadingDigits = leadingDigits && character.isASCII && character.isNumber
            result.append(character)
        }
        return result
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Whether `&` followed by `line[start...]` is a character reference: a name, `#digits` or `#xhex`, then `;`.
    private static func startsCharacterReference(_ line: [Character], at start: Int) -> Bool {
        var index = start
        while index < line.count, index - start <= 32, line[index].isASCII,
            line[index].isLetter || line[index].isNumber || (index == start && line[index] == "#")
        {
            index += 1
        }
        return index > start && index < line.count && line[index] == ";"
    }

    /// The link destination for `[title](<…>)`, or `nil` when the URL must not become a link (only `http`, `https`
    /// and `mailto` do). Spaces, `<`, `>` and other characters URLs may not hold are percent-encoded, and `&` is
    /// backslash-escaped so that no character reference is decoded inside the URL.
    public static func linkDestination(_ url: String) -> String? {
        guard let safe = LinkPolicy.linkable(url) else { return nil }
        var result = "<"
        for character in safe {
            if character == "&" { result.append("\\") }
            result.append(character)
        }
        return result + ">"
    }
}
