/// What a URL's bytes say without parsing it: the one home of the checks that let the hot paths (the normaliser,
/// canonical URLs, the renderers' link policy) take a URL as written when nothing about it needs work.
public enum URLBytes {
    /// Whether the text starts with `http://` or `https://`, as written (lower case).
    public static func hasWebScheme(_ text: String) -> Bool {
        webSchemeLength(text) != nil
    }

    /// The length of the text's `http://` (7) or `https://` (8), as written (lower case), or `nil`.
    public static func webSchemeLength(_ text: String) -> Int? {
        if hasPrefix(text, "https://") { return 8 }
        if hasPrefix(text, "http://") { return 7 }
        return nil
    }

    /// Whether the text's UTF-8 starts with `prefix`'s, compared as bytes in place: the generic `starts(with:)` of
    /// two UTF-8 views was 1% of a cold digest, for every link of every item.
    public static func hasPrefix(_ text: String, _ prefix: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = prefix.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            let start = prefix.utf8Start
            for index in 0..<count where bytes[index] != start[index] { return false }
            return true
        }
    }

    /// Whether a byte may stand in a URL as written: printable ASCII but `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`,
    /// `|` and `}` (space and controls are not printable).
    ///
    /// A `switch` over the bytes rather than a search of a string of them: every byte of every link of a digest
    /// comes through here (a search of the string's UTF-8 view was 2.5% of a cold 1,000-feed run).
    @inline(__always)
    public static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D: false  // " < > \ ^ ` { | }
        case 0x21...0x7E: true
        default: false
        }
    }

    /// Whether a URL's byte is `[` or `]`, which may only stand in its host.
    @inline(__always)
    public static func isBracket(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }
}
