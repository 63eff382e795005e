import TributaryCore

/// Makes feed strings inert in Markdown (CommonMark and GitHub Flavored Markdown): whatever a title holds, it stays
/// text inside the one line it was given and cannot start a list, a heading, a link, emphasis, a table cell, raw
/// HTML or an entity.
public enum MarkdownEscaping {
    /// The characters that are always backslash-escaped: they open or close inline structure anywhere in a line.
    public static let alwaysEscaped: Set<Character> = [
        "\\", "`", "*", "_", "[", "]", "<", ">", "#", "|", "!", "~", "&", "(", ")", "{", "}",
    ]

    /// The text as one line of inline Markdown that renders as exactly that text.
    ///
    /// Escape sequences and control characters are removed, whitespace runs (newlines included) become one space,
    /// the characters in ``alwaysEscaped`` are backslash-escaped, and so are `+`, `-`, `=` and `.` where they could
    /// start a block (at the start of the text, or a `.` after leading digits).
    public static func text(_ text: String) -> String {
        let line = FeedText.collapseWhitespace(ControlCharacters.removing(from: text))
        var result = ""
        result.reserveCapacity(line.utf8.count)
        var leadingDigits = true
        for (offset, character) in line.enumerated() {
            if alwaysEscaped.contains(character)
                || (offset == 0 && "+-=".contains(character))
                || (leadingDigits && offset > 0 && character == ".")
            {
                result.append("\\")
            }
            leadingDigits = leadingDigits && character.isASCII && character.isNumber
            result.append(character)
        }
        return result
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
