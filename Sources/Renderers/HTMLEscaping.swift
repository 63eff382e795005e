/// The one way text reaches HTML output. Every string, from a feed or not, goes through ``text(_:)`` or
/// ``attribute(_:)``, and every URL through ``linkURL(_:)``; feed HTML is never inserted raw.
public enum HTMLEscaping {
    /// The text escaped for an element's content: `&`, `<`, `>`, `"` and `'` become character references, and
    /// escape sequences and control characters are removed (they are not allowed in HTML; line breaks and tabs
    /// become spaces).
    public static func text(_ text: String) -> String {
        var result = ""
        let cleaned = ControlCharacters.removing(from: text)
        result.reserveCapacity(cleaned.utf8.count)
        for character in cleaned {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The text escaped for a quoted attribute value; the same escaping as ``text(_:)``, which covers both quote
    /// characters.
    public static func attribute(_ value: String) -> String {
        text(value)
    }

    /// The URL escaped for an `href`, or `nil` when it must not become a link: only `http`, `https` and `mailto`
    /// URLs are linked, with characters that URLs may not hold percent-encoded.
    public static func linkURL(_ url: String) -> String? {
        LinkPolicy.linkable(url).map(attribute)
    }
}
