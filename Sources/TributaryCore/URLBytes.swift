/// What a URL's bytes say without parsing it: the one home of the checks that let the hot paths (the normaliser,
/// canonical URLs, the renderers' link policy) take a URL as written when nothing about it needs work.
public enum URLBytes {
    /// Whether the text starts with `http://` or `https://`, as written (lower case).
    public static func hasWebScheme(_ text: String) -> Bool {
        text.utf8.starts(with: "https://".utf8) || text.utf8.starts(with: "http://".utf8)
    }

    /// Whether a byte may stand in a URL as written: printable ASCII but `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`,
    /// `|` and `}` (space and controls are not printable).
    public static func isURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x7E: !"\"<>\\^`{|}".utf8.contains(byte)
        default: false
        }
    }
}
