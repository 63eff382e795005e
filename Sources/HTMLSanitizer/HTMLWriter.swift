import TributaryCore

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
        // Void elements are written `<br />`, as feedparser and XHTML-minded readers write them; HTML5 reads the
        // slash as nothing.
        if isVoid { bytes.append(contentsOf: " /".utf8) }
        bytes.append(0x3E)
        afterPreStart = element == "pre"
    }

    /// An allowed element's start tag, with the attributes the policy kept of those its tag had.
    mutating func start(
        _ element: HTMLPolicy.Element,
        attributes: StartTagAttributes,
        kept: [TreeWalker.KeptAttribute]
    ) {
        bytes.append(0x3C)
        bytes.append(contentsOf: element.nameBytes)
        attributes.withNamesAndValues { _, value in
            for attribute in kept {
                bytes.append(0x20)
                bytes.append(contentsOf: element.attributeNameBytes[attribute.index])
                bytes.append(contentsOf: "=\"".utf8)
                switch attribute.value {
                case .asRead(let position): Self.escape(utf8: value(position), quotes: true, into: &bytes)
                case .checked(let checked): Self.escape(checked, quotes: true, into: &bytes)
                }
                bytes.append(0x22)
            }
        }
        if element.isVoid { bytes.append(contentsOf: " /".utf8) }
        bytes.append(0x3E)
        afterPreStart = element.name == "pre"
    }

    /// The end tag of an element passed to ``start(_:attributes:kept:)``.
    mutating func end(_ element: HTMLPolicy.Element) {
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: element.nameBytes)
        bytes.append(0x3E)
        afterPreStart = false
    }

    /// Makes room for `count` bytes of output.
    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    mutating func end(_ element: String) {
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: element.utf8)
        bytes.append(0x3E)
        afterPreStart = false
    }

    mutating func unwrapped(_ element: String, starts: Bool) {}

    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { self.text(utf8: $0) }
    }

    /// Text given as UTF-8, decoded.
    mutating func text(utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        if afterPreStart {
            while start < utf8.count, utf8[start] == 0x0A { start += 1 }
        }
        guard start < utf8.count else { return }
        afterPreStart = false
        Self.escape(utf8: UnsafeBufferPointer(rebasing: utf8[start...]), quotes: false, into: &bytes)
    }

    /// Appends `text` escaped, without control characters other than tab and line feed (a carriage return becomes
    /// a line feed, a form feed a space; C1 controls become windows-1252's characters where it has them).
    static func escape(_ text: String, quotes: Bool, into bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { escape(utf8: $0, quotes: quotes, into: &bytes) }
    }

    /// ``escape(_:quotes:into:)`` for text given as UTF-8.
    static func escape(utf8: UnsafeBufferPointer<UInt8>, quotes: Bool, into bytes: inout [UInt8]) {
        var index = 0
        while index < utf8.count {
            // Copy the run of bytes that stay as they are in one go: up to the next byte that may have to be
            // written differently (a C1 control starts with 0xC2; `"` only matters in attribute values).
            let runStart = index
            index = ByteScan.find(
                utf8,
                from: index,
                below: 0x20,
                (0x26, 0x3C, 0x3E, 0x7F, 0xC2, 0x22),
                count: quotes ? 6 : 5
            )
            if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            guard index < utf8.count else { break }
            let byte = utf8[index]
            index += 1
            switch byte {
            case 0x26: bytes.append(contentsOf: "&amp;".utf8)
            case 0x3C: bytes.append(contentsOf: "&lt;".utf8)
            case 0x3E: bytes.append(contentsOf: "&gt;".utf8)
            case 0x22 where quotes: bytes.append(contentsOf: "&quot;".utf8)
            case 0x09, 0x0A: bytes.append(byte)
            case 0x0D: bytes.append(0x0A)
            case 0x0C: bytes.append(0x20)
            case ..<0x20, 0x7F: continue
            case 0xC2 where index < utf8.count && utf8[index] < 0xA0:
                // A C1 control (U+0080 to U+009F): what windows-1252 has there (`&#146;` is `’`, as HTML5 reads
                // it); one of the five it leaves empty stays, as HTML5 and feedparser keep it (every output
                // removes or escapes it).
                FeedText.appendUTF8(FeedText.windows1252[Int(utf8[index] - 0x80)], to: &bytes)
                index += 1
            default: bytes.append(byte)
            }
        }
    }
}
