/// The one way text reaches HTML output. Every string, from a feed or not, goes through ``text(_:)`` or
/// ``attribute(_:)``, and every URL through ``linkURL(_:)``; feed HTML is never inserted raw.
public enum HTMLEscaping {
    /// The text escaped for an element's content: `&`, `<`, `>`, `"` and `'` become character references, and
    /// escape sequences and control characters are removed (they are not allowed in HTML; line breaks and tabs
    /// become spaces).
    public static func text(_ text: String) -> String {
        var result: [UInt8] = []
        let cleaned = ControlCharacters.removing(from: text)
        result.reserveCapacity(cleaned.utf8.count)
        appendEscaped(cleaned, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends text already free of control characters (the template context's), escaped as ``text(_:)``
    /// escapes it, as UTF-8.
    static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            // Runs of bytes that need no escaping (most of any text) are copied whole.
            var runStart = 0
            for (index, byte) in bytes.enumerated() {
                let reference: StaticString
                switch byte {
                case 0x26: reference = "&amp;"
                case 0x3C: reference = "&lt;"
                case 0x3E: reference = "&gt;"
                case 0x22: reference = "&quot;"
                case 0x27: reference = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                output.append(
                    contentsOf: UnsafeBufferPointer(start: reference.utf8Start, count: reference.utf8CodeUnitCount)
                )
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
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
