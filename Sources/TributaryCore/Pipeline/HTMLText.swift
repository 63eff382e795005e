import Foundation

/// Turns small pieces of HTML (titles, summaries) into text: tag stripping and entity decoding.
///
/// This is not a sanitizer: it is for fields that must end up as plain text, where removing markup is the goal.
public enum HTMLText {
    /// Removes tags, comments and the bodies of `script` and `style` elements. A `<` that does not open a tag
    /// (as in `a < b`) is kept. Tags other than inline ones (`b`, `em`, `span`, `a`...) leave a space in their place,
    /// so that `a<br>b` reads `a b` while `<b>Bo</b>ld` reads `Bold`.
    public static func stripTags(_ text: String) -> String {
        guard text.contains("<") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "<" else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let rest = text[text.index(after: index)...]
            if rest.hasPrefix("!--") {
                // A comment: skip to its end (or to the end of the text when it is unclosed).
                index = rest.range(of: "-->")?.upperBound ?? text.endIndex
                continue
            }
            guard let first = rest.first, first.isLetter || first == "/" || first == "!" || first == "?" else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            guard let close = rest.firstIndex(of: ">") else {
                // An unclosed tag: drop the rest, which is not text.
                break
            }
            let name = rest[..<close].drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
            index = text.index(after: close)
            if first != "/", name == "script" || name == "style" {
                let tail = text[index...]
                if let end = tail.range(of: "</\(name)", options: .caseInsensitive) {
                    index = tail[end.upperBound...].firstIndex(of: ">").map { text.index(after: $0) } ?? text.endIndex
                } else {
                    index = text.endIndex
                }
            }
            // A block or line-break tag separates words (`a<br>b`, `</p><p>`): leave a space, which whitespace
            // collapsing tidies up. Inline tags (`<b>Bo</b>ld`) join what surrounds them.
            if !inlineElements.contains(name) { output.append(" ") }
        }
        return output
    }

    /// Decodes named entities (the common ones), decimal (`&#8217;`) and hexadecimal (`&#x2019;`) references, once:
    /// `&amp;lt;` becomes `&lt;`. Unknown entities stay as written; invalid code points become U+FFFD.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&" else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let rest = text[text.index(after: index)...]
            if let semicolon = rest.prefix(32).firstIndex(of: ";"),
                let decoded = decode(reference: rest[..<semicolon])
            {
                output.append(decoded)
                index = text.index(after: semicolon)
            } else {
                output.append(character)
                index = text.index(after: index)
            }
        }
        return output
    }

    // MARK: - Private

    private static let inlineElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd", "mark",
        "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ]

    private static func decode(reference: Substring) -> String? {
        if reference.hasPrefix("#") {
            let digits = reference.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = digits.allSatisfy(\.isASCII) ? UInt32(digits, radix: 10) : nil
            }
            guard let value else { return nil }
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return String(Character(scalar))
        }
        return namedEntities[String(reference)]
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "hellip": "\u{2026}", "mdash": "\u{2014}", "ndash": "\u{2013}", "rsquo": "\u{2019}", "lsquo": "\u{2018}",
        "rdquo": "\u{201D}", "ldquo": "\u{201C}", "sbquo": "\u{201A}", "bdquo": "\u{201E}", "laquo": "\u{00AB}",
        "raquo": "\u{00BB}", "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "bull": "\u{2022}", "middot": "\u{00B7}",
        "copy": "\u{00A9}", "reg": "\u{00AE}", "trade": "\u{2122}", "deg": "\u{00B0}", "euro": "\u{20AC}",
        "pound": "\u{00A3}", "yen": "\u{00A5}", "cent": "\u{00A2}", "sect": "\u{00A7}", "para": "\u{00B6}",
        "times": "\u{00D7}", "divide": "\u{00F7}", "shy": "\u{00AD}", "ensp": "\u{2002}", "emsp": "\u{2003}",
        "thinsp": "\u{2009}", "iexcl": "\u{00A1}", "iquest": "\u{00BF}", "prime": "\u{2032}",
        "eacute": "\u{00E9}", "egrave": "\u{00E8}", "aacute": "\u{00E1}", "agrave": "\u{00E0}", "ccedil": "\u{00E7}",
        "uuml": "\u{00FC}", "ouml": "\u{00F6}", "auml": "\u{00E4}", "szlig": "\u{00DF}", "ntilde": "\u{00F1}",
        "plusmn": "\u{00B1}", "frac12": "\u{00BD}", "zwj": "\u{200D}", "zwnj": "\u{200C}", "acirc": "\u{00E2}",
        "ecirc": "\u{00EA}", "euml": "\u{00EB}", "iacute": "\u{00ED}", "oacute": "\u{00F3}", "Eacute": "\u{00C9}",
        "Auml": "\u{00C4}", "Ouml": "\u{00D6}", "Uuml": "\u{00DC}",
    ]
}
