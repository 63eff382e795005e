/// Reads a simple, well-formed fragment directly, without libxml2, and hands it to a ``TreeWalker``'s policy in
/// the same order and shape as the walker would hand libxml2's tree of it; anything outside the simple subset is
/// refused (`nil`), and the caller parses it with libxml2 as usual.
///
/// Feed items mostly carry small, tidy fragments (Google News sends a link and a `font` per item), and parsing each
/// of them twice with libxml2's HTML parser was most of the cost of reading a feed. The subset is chosen so that
/// libxml2 builds exactly the tree the tags spell, with no repair:
///
/// - elements: the phrasing elements `a`, `abbr`, `b`, `cite`, `code`, `em`, `font`, `i`, `s`, `small`, `span`,
///   `strike`, `strong`, `sub`, `sup`, `tt`, `u`, the void `br` and `img`, and the blocks `p`, `pre`, `div`,
///   `blockquote`, `ul`, `ol`, `li`;
/// - every element explicitly closed, in order (void ones may be written `<br>` or `<br/>`); phrasing elements and
///   `p`, `pre` hold only text and phrasing elements, `a` holds no `a`, `ul` and `ol` hold only `li` and `li` is only in
///   them; at most 32 elements deep;
/// - attributes: at most 16, named with letters, digits and `-`, each once, with a quoted value and no `<` in it;
/// - references: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&nbsp;`, numeric ones for characters from U+0021 up that
///   are neither C1 controls nor outside XML's character range, and an `&` that starts no reference (`?a=1&b=2`);
/// - no comment, declaration or processing instruction; no text directly in a list but white space;
/// - no U+FFFE or U+FFFF (libxml2 drops them).
///
/// The differential tests and the `FuzzHTMLSanitizer` target hold it to this: whenever it reads a fragment, the
/// result equals libxml2's.
struct SimpleFragmentReader {
    /// How an element of the subset may nest.
    private enum Kind {
        /// Text and phrasing elements inside; allowed in blocks, `li` and other phrasing elements.
        case phrasing
        /// No content, no end tag.
        case void
        /// `p`, `pre`: text and phrasing elements inside.
        case paragraph
        /// `div`, `blockquote`, `li`: anything of the subset inside (but `li` only in a list).
        case flow
        /// `ul`, `ol`: only `li` inside.
        case list
    }

    /// The subset's elements: how each may nest, and what the policy says about it.
    private static let elements: [String: (kind: Kind, policy: HTMLPolicy.Element)] = {
        var kinds: [String: Kind] = [:]
        for name in [
            "a", "abbr", "b", "cite", "code", "em", "font", "i", "s", "small", "span", "strike", "strong", "sub", "sup",
            "tt", "u",
        ] {
            kinds[name] = .phrasing
        }
        for name in ["br", "img"] { kinds[name] = .void }
        for name in ["p", "pre"] { kinds[name] = .paragraph }
        for name in ["div", "blockquote", "li"] { kinds[name] = .flow }
        for name in ["ul", "ol"] { kinds[name] = .list }
        return Dictionary(uniqueKeysWithValues: kinds.map { ($0.key, ($0.value, HTMLPolicy.Element.named($0.key))) })
    }()

    private static let maximumNesting = 32
    private static let maximumAttributes = 16

    private struct Open {
        var name: String
        var kind: Kind
        /// Whether its start tag was written (else it was unwrapped or dropped).
        var written: Bool
        var dropped: Bool
    }

    /// The fragment; valid while ``render(_:walker:)`` runs.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let walker: TreeWalker
    private var index = 0
    private var stack: [Open] = []
    private var depth = 0
    private var insideLink = 0
    /// How many of the open elements are dropped with their content: nothing inside them is written.
    private var droppedDepth = 0
    private var writer = HTMLWriter()
    /// The attributes of the start tag being read.
    private var attributeNames: [String] = []
    private var attributeValues: [String] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, walker: TreeWalker) {
        self.bytes = bytes
        self.walker = walker
    }

    /// The sanitized HTML of `bytes` (cleaned and bounded by ``InputBounds``), written as ``TreeWalker`` would
    /// write libxml2's tree of them, untrimmed; `nil` when the fragment is outside the subset.
    static func render(_ bytes: [UInt8], walker: TreeWalker) -> [UInt8]? {
        // libxml2 drops the noncharacters U+FFFE and U+FFFF (EF BF BE, EF BF BF), which are not XML characters.
        var position = bytes.startIndex
        while let lead = bytes[position...].firstIndex(of: 0xEF) {
            if lead + 2 < bytes.count, bytes[lead + 1] == 0xBF, bytes[lead + 2] >= 0xBE { return nil }
            position = lead + 1
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = SimpleFragmentReader(bytes: buffer, walker: walker)
            // The output is about as long as the input (links gain `rel` and `target`, `font` tags go).
            reader.writer.reserveCapacity(bytes.count + bytes.count / 4 + 64)
            return reader.read() ? reader.writer.bytes : nil
        }
    }

    // MARK: - Private

    private mutating func read() -> Bool {
        while index < bytes.count {
            if bytes[index] == 0x3C {  // <
                guard readTag() else { return false }
            } else {
                let start = index
                guard let decoded = readText() else { return false }
                // A list holds only items, and white space between them.
                if stack.last?.kind == .list,
                    !bytes[start..<index].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A })
                {
                    return false
                }
                guard droppedDepth == 0 else { continue }
                if let decoded {
                    decoded.withUnsafeBufferPointer { writer.text(utf8: $0) }
                } else {
                    writer.text(utf8: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                }
            }
        }
        return stack.isEmpty
    }

    /// Reads text up to the next `<` or the end, references decoded: `.some(nil)` when it holds no reference (the
    /// bytes read are the text), `nil` for a reference outside the subset.
    private mutating func readText() -> [UInt8]?? {
        var decoded: [UInt8]?
        var runStart = index
        while index < bytes.count, bytes[index] != 0x3C {
            if bytes[index] == 0x26 {  // &
                var text = decoded ?? []
                text.append(contentsOf: bytes[runStart..<index])
                guard readReference(into: &text) else { return nil }
                decoded = text
                runStart = index
            } else {
                index += 1
            }
        }
        decoded?.append(contentsOf: bytes[runStart..<index])
        return .some(decoded)
    }

    /// Reads the reference at `index` (at its `&`), moves past it and appends what libxml2 makes of it to
    /// `decoded`; `false` when it is outside the subset.
    ///
    /// As libxml2 reads it: `&#…;` is a character; `&name;` a named character (only five names are in the subset);
    /// `&name` without `;` and an `&` not followed by a name stay as written (`?a=1&b=2` is common in links).
    private mutating func readReference(into decoded: inout [UInt8]) -> Bool {
        let start = index
        index += 1
        if index < bytes.count, bytes[index] == 0x23 {  // #
            guard let semicolon = bytes[index..<min(bytes.count, index + 10)].firstIndex(of: 0x3B),
                let scalar = Self.numericReference(bytes[index..<semicolon])
            else { return false }
            index = semicolon + 1
            decoded.append(contentsOf: String(scalar).utf8)
            return true
        }
        let nameStart = index
        while index < bytes.count, bytes[index].isASCIILetter || (index > nameStart && bytes[index].isASCIIDigit) {
            index += 1
        }
        let name = bytes[nameStart..<index]
        let next = index < bytes.count ? bytes[index] : 0
        // libxml2's names also take `_`, `:`, `.`, `-` and non-ASCII letters: leave those to it.
        if next >= 0x80 || next == 0x5F || next == 0x3A || (!name.isEmpty && (next == 0x2E || next == 0x2D)) {
            return false
        }
        guard next == 0x3B, !name.isEmpty else {
            decoded.append(contentsOf: bytes[start..<index])  // `&` or `&name`, as written
            return true
        }
        let scalar: Unicode.Scalar
        if name.elementsEqual("amp".utf8) {
            scalar = "&"
        } else if name.elementsEqual("lt".utf8) {
            scalar = "<"
        } else if name.elementsEqual("gt".utf8) {
            scalar = ">"
        } else if name.elementsEqual("quot".utf8) {
            scalar = "\""
        } else if name.elementsEqual("nbsp".utf8) {
            scalar = "\u{A0}"
        } else {
            return false  // one of libxml2's other named characters, or a name it keeps as written
        }
        index += 1
        decoded.append(contentsOf: String(scalar).utf8)
        return true
    }

    /// The character of a numeric reference's body (`#65`, `#x41`) when it is in the subset.
    private static func numericReference(_ body: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        guard body.first == 0x23 else { return nil }  // #
        var digits = body.dropFirst()
        var radix: UInt32 = 10
        if let marker = digits.first, marker == 0x78 || marker == 0x58 {  // x X
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 7 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            let number: UInt32
            switch digit {
            case 0x30...0x39: number = UInt32(digit - 0x30)
            case 0x61...0x66 where radix == 16: number = UInt32(digit - 0x61 + 10)
            case 0x41...0x46 where radix == 16: number = UInt32(digit - 0x41 + 10)
            default: return nil
            }
            value = value * radix + number
        }
        switch value {
        case 0x21...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return Unicode.Scalar(value)
        default: return nil
        }
    }

    /// Reads a start or end tag at `index` (at its `<`).
    private mutating func readTag() -> Bool {
        index += 1
        let isEnd = index < bytes.count && bytes[index] == 0x2F  // /
        if isEnd { index += 1 }
        guard let name = readName(allowingHyphen: false), let (kind, element) = Self.elements[name] else {
            return false
        }
        if isEnd {
            skipSpaces()
            guard index < bytes.count, bytes[index] == 0x3E, let open = stack.popLast(), open.name == name else {
                return false
            }
            index += 1
            close(open)
            return true
        }
        // Reused from tag to tag: most tags have an attribute or two, and two arrays per tag were a good part of
        // the allocations.
        attributeNames.removeAll(keepingCapacity: true)
        attributeValues.removeAll(keepingCapacity: true)
        while true {
            let hadSpace = skipSpaces()
            guard index < bytes.count else { return false }
            if bytes[index] == 0x3E {
                index += 1
                break
            }
            if bytes[index] == 0x2F {
                guard kind == .void, index + 1 < bytes.count, bytes[index + 1] == 0x3E else { return false }
                index += 2
                break
            }
            guard hadSpace, attributeNames.count < Self.maximumAttributes,
                let attribute = readName(allowingHyphen: true), !attributeNames.contains(attribute)
            else { return false }
            skipSpaces()
            guard index < bytes.count, bytes[index] == 0x3D else { return false }  // =
            index += 1
            skipSpaces()
            guard let value = readQuotedValue() else { return false }
            attributeNames.append(attribute)
            attributeValues.append(value)
        }
        return open(element, kind: kind)
    }

    /// Checks that `element` may start here and hands it, with the attributes just read, to the policy.
    private mutating func open(_ element: HTMLPolicy.Element, kind: Kind) -> Bool {
        let name = element.name
        let parent = stack.last?.kind
        switch (kind, parent) {
        case (.phrasing, .list), (.void, .list): return false
        case (.paragraph, .phrasing), (.paragraph, .paragraph), (.paragraph, .list): return false
        case (.flow, .phrasing), (.flow, .paragraph): return false
        case (.list, .phrasing), (.list, .paragraph), (.list, .list): return false
        default: break
        }
        if (name == "li") != (parent == .list) { return false }
        if name == "a" {
            guard insideLink == 0 else { return false }
        }
        guard stack.count < Self.maximumNesting else { return false }
        var open = Open(name: name, kind: kind, written: false, dropped: false)
        if droppedDepth > 0 {
            open.dropped = true
        } else {
            let values = attributeValues
            switch walker.decide(element, depth: depth, attributeNames: attributeNames, value: { values[$0] }) {
            case .drop:
                open.dropped = true
            case .write(let kept, let isVoid):
                writer.start(name, attributes: kept, isVoid: isVoid)
                open.written = true
            case .unwrap, .nothing:
                break
            }
        }
        guard kind != .void else { return true }
        if open.written { depth += 1 }
        if open.dropped { droppedDepth += 1 }
        if name == "a" { insideLink += 1 }
        stack.append(open)
        return true
    }

    private mutating func close(_ open: Open) {
        if open.written {
            writer.end(open.name)
            depth -= 1
        }
        if open.dropped { droppedDepth -= 1 }
        if open.name == "a" { insideLink -= 1 }
    }

    /// A tag or attribute name, lower-cased: an ASCII letter, then letters and digits (and `-` for attributes),
    /// followed by a space, `/`, `>` or `=`.
    private mutating func readName(allowingHyphen: Bool) -> String? {
        let start = index
        guard index < bytes.count, bytes[index].isASCIILetter else { return nil }
        while index < bytes.count,
            bytes[index].isASCIILetter || bytes[index].isASCIIDigit
                || (allowingHyphen && bytes[index] == 0x2D)
        {
            index += 1
        }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x2F, 0x3E, 0x3D: break
        default: return nil
        }
        let name = bytes[start..<index]
        if name.contains(where: { (0x41...0x5A).contains($0) }) {
            return String(decoding: name.map(\.asciiLowercased), as: UTF8.self)
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// A value in double or single quotes, references decoded.
    private mutating func readQuotedValue() -> String? {
        guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else { return nil }
        let quote = bytes[index]
        index += 1
        let start = index
        // Only a value with a reference in it needs a buffer of its own.
        var decoded: [UInt8]?
        var runStart = index
        while index < bytes.count, bytes[index] != quote {
            switch bytes[index] {
            case 0x3C:
                return nil
            case 0x26:
                var value = decoded ?? []
                value.append(contentsOf: bytes[runStart..<index])
                guard readReference(into: &value) else { return nil }
                decoded = value
                runStart = index
            default:
                index += 1
            }
        }
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        guard var decoded else { return String(decoding: bytes[start..<index], as: UTF8.self) }
        decoded.append(contentsOf: bytes[runStart..<index])
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Skips spaces, tabs and line feeds; whether there were any.
    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A {
            index += 1
        }
        return index > start
    }

}
