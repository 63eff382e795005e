/// Writes the sanitized tree as HTML: only allowed names, every attribute value double-quoted, `&`, `<`, `>` and
/// `"` escaped, so nothing in the output can be read as markup it was not written as.
struct HTMLWriter: TreeEmitter {
    private(set) var bytes: [UInt8] = []
    /// Whether the last thing written was the start tag of a `pre`. Browsers drop a line feed right after it and
    /// libxml2 does not; line feeds there are dropped, so both read the output alike and it stays stable.
    private var afterPreStart = false

    mutating func start(_ element: String, attributes: [(name: String, value: String)], isVoid: Bool) {
        bytes.append(0x3C)
        bytes.append(contentsOf: element.utf8)
        for attribute in attributes {
            bytes.append(0x20)
            bytes.append(contentsOf: attribute.name.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            Self.escape(attribute.value, quotes: true, into: &bytes)
            bytes.append(0x22)
        }
        bytes.append(0x3E)
        afterPreStart = element == "pre"
    }

    mutating func end(_ element: String) {
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: element.utf8)
        bytes.append(0x3E)
        afterPreStart = false
    }

    mutating func unwrapped(_ element: String, starts: Bool) {}

    mutating func text(_ text: String) {
        var text = Substring(text)
        if afterPreStart { text = text.drop { $0 == "\n" } }
        guard !text.isEmpty else { return }
        afterPreStart = false
        Self.escape(String(text), quotes: false, into: &bytes)
    }

    /// Appends `text` escaped, without control characters other than tab and line feed (a carriage return becomes
    /// a line feed, a form feed a space; C1 controls are dropped).
    static func escape(_ text: String, quotes: Bool, into bytes: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x22 where quotes: bytes.append(contentsOf: "&quot;".utf8)
            case 0x09, 0x0A: bytes.append(UInt8(scalar.value))
            case 0x0D: bytes.append(0x0A)
            case 0x0C: bytes.append(0x20)
            case ..<0x20, 0x7F...0x9F: continue
            case ..<0x80: bytes.append(UInt8(scalar.value))
            default: bytes.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
