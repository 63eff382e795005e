import TributaryCore

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

    /// An element of the subset: its name, how it may nest, and what the policy says about it.
    private struct Entry {
        let name: [UInt8]
        let kind: Kind
        let policy: HTMLPolicy.Element
        /// `a`, which may not hold another `a`.
        let isLink: Bool
        /// `li`, which is only in a list.
        let isListItem: Bool

        init(_ name: String, _ kind: Kind) {
            self.name = Array(name.utf8)
            self.kind = kind
            policy = HTMLPolicy.Element.named(name)
            isLink = name == "a"
            isListItem = name == "li"
        }
    }

    /// The subset's elements.
    private static let entries: [Entry] = {
        let phrasing = [
            "a", "abbr", "b", "cite", "code", "em", "font", "i", "s", "small", "span", "strike", "strong", "sub", "sup",
            "tt", "u",
        ]
        return phrasing.map { Entry($0, .phrasing) } + ["br", "img"].map { Entry($0, .void) }
            + ["p", "pre"].map { Entry($0, .paragraph) } + ["div", "blockquote", "li"].map { Entry($0, .flow) }
            + ["ul", "ol"].map { Entry($0, .list) }
    }()

    /// For each first letter, `a` to `z`, the positions in ``entries`` of the elements whose name starts with it.
    private static let entriesByFirstLetter: [[Int]] = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { letter in
        entries.indices.filter { entries[$0].name[0] == letter }
    }

    private static let maximumNesting = 32
    private static let maximumAttributes = 16

    private struct Open {
        /// A position in ``entries``.
        var entry: Int
        /// Whether its start tag was written (else it was unwrapped or dropped).
        var written: Bool
        var dropped: Bool
    }

    /// What a reference reads as.
    private enum Reference {
        /// A character.
        case character(Unicode.Scalar)
        /// The reference's bytes as written (an `&` that starts no reference, or `&name` without `;`).
        case asWritten
    }

    /// The fragment; valid while ``render(_:walker:)-(UnsafeBufferPointer<UInt8>,_)`` runs.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let walker: TreeWalker
    private let entries = Self.entries
    private var index = 0
    private var stack: [Open] = []
    private var depth = 0
    private var insideLink = 0
    /// How many of the open elements are dropped with their content: nothing inside them is written.
    private var droppedDepth = 0
    private var writer = HTMLWriter()
    /// The attributes of the start tag being read, and those the policy keeps: reused from tag to tag.
    private var attributes = StartTagAttributes()
    private var kept: [TreeWalker.KeptAttribute] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, walker: TreeWalker) {
        self.bytes = bytes
        self.walker = walker
    }

    /// The sanitized HTML of `bytes` (cleaned and bounded by ``InputBounds``), written as ``TreeWalker`` would
    /// write libxml2's tree of them, untrimmed; `nil` when the fragment is outside the subset.
    static func render(_ bytes: UnsafeBufferPointer<UInt8>, walker: TreeWalker) -> [UInt8]? {
        // libxml2 drops the noncharacters U+FFFE and U+FFFF (EF BF BE, EF BF BF), which are not XML characters.
        // The lead bytes are found sixteen at a time: a byte-by-byte search was a tenth of the sanitizer's time on
        // Google News.
        var lead = ByteScan.find(bytes, from: 0, (0xEF, 0, 0, 0, 0, 0), count: 1)
        while lead < bytes.count {
            if lead + 2 < bytes.count, bytes[lead + 1] == 0xBF, bytes[lead + 2] >= 0xBE { return nil }
            lead = ByteScan.find(bytes, from: lead + 1, (0xEF, 0, 0, 0, 0, 0), count: 1)
        }
        var reader = SimpleFragmentReader(bytes: bytes, walker: walker)
        // The output is about as long as the input (links gain `rel` and `target`, `font` tags go).
        reader.writer.reserveCapacity(bytes.count + bytes.count / 4 + 64)
        return reader.read() ? reader.writer.bytes : nil
    }

    /// ``render(_:walker:)-(UnsafeBufferPointer<UInt8>,_)`` for bytes in an array.
    static func render(_ bytes: [UInt8], walker: TreeWalker) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { render($0, walker: walker) }
    }

    // MARK: - Private

    private mutating func read() -> Bool {
        while index < bytes.count {
            if bytes[index] == 0x3C {  // <
                guard readTag() else { return false }
            } else {
                guard readText() else { return false }
            }
        }
        return stack.isEmpty
    }

    /// Reads text up to the next `<` or the end and writes it, references decoded; `false` for a reference outside
    /// the subset, or text other than white space directly in a list.
    private mutating func readText() -> Bool {
        // A list holds only items, and white space between them.
        let inList = stack.last.map { entries[$0.entry].kind == .list } ?? false
        var runStart = index
        while index < bytes.count {
            if !inList {
                // Runs of plain text are skipped sixteen bytes at a time, to the next `<` or `&`.
                index = ByteScan.find(bytes, from: index, (0x3C, 0x26, 0, 0, 0, 0), count: 2)
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == 0x3C { break }
            if inList, byte != 0x20, byte != 0x09, byte != 0x0A { return false }
            guard byte == 0x26 else {  // &
                index += 1
                continue
            }
            let ampersand = index
            guard let reference = readReference(inAttribute: false) else { return false }
            if case .character(let scalar) = reference, droppedDepth == 0 {
                writer.text(utf8: UnsafeBufferPointer(rebasing: bytes[runStart..<ampersand]))
                withUTF8(of: scalar) { writer.text(utf8: $0) }
                runStart = index
            }
        }
        if droppedDepth == 0 { writer.text(utf8: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        return true
    }

    /// Reads the reference at `index` (at its `&`) and moves past it; `nil` when it is outside the subset.
    ///
    /// `&#…;` is a character; `&name;` a named character (only five names are in the subset); `&name` without `;`
    /// is the legacy name that starts it, as HTML reads it (`&copy 2005`, `&quotHi`: ``FeedText/legacyEntityPrefix(_:)``;
    /// libxml2 keeps them as written), except in an attribute value when a letter, digit or `=` follows
    /// (`?a=1&copy=2`); other names without `;` and an `&` not followed by a name stay as written (`?a=1&b=2`).
    private mutating func readReference(inAttribute: Bool) -> Reference? {
        index += 1
        if index < bytes.count, bytes[index] == 0x23 {  // #
            // `&#` without digits is text to HTML (libxml2 would drop it).
            guard FeedText.startsNumericReference(bytes, hash: index) else { return .asWritten }
            guard let semicolon = bytes[index..<min(bytes.count, index + 10)].firstIndex(of: 0x3B),
                let scalar = Self.numericReference(bytes[index..<semicolon])
            else { return nil }
            index = semicolon + 1
            return .character(scalar)
        }
        let nameStart = index
        while index < bytes.count, bytes[index].isASCIILetter || (index > nameStart && bytes[index].isASCIIDigit) {
            index += 1
        }
        let name = bytes[nameStart..<index]
        let next = index < bytes.count ? bytes[index] : 0
        // libxml2's names also take `_`, `:`, `.`, `-` and non-ASCII letters: leave those to it.
        if next >= 0x80 || next == 0x5F || next == 0x3A || (!name.isEmpty && (next == 0x2E || next == 0x2D)) {
            return nil
        }
        guard !name.isEmpty else { return .asWritten }  // `&`
        guard next == 0x3B else {
            guard
                let legacy = FeedText.legacyEntityPrefix(
                    UnsafeBufferPointer(rebasing: name),
                    inAttribute: inAttribute,
                    next: index < bytes.count ? next : nil
                ),
                let scalar = Unicode.Scalar(legacy.value)
            else { return .asWritten }
            index = nameStart + legacy.length
            return .character(scalar)
        }
        // Compared byte by byte: `elementsEqual` with a `String.UTF8View` went through the generic path, and cost
        // more than the rest of the reference (Google News writes two `&nbsp;` per item).
        guard let scalar = Self.namedCharacter(name) else {
            return nil  // one of libxml2's other named characters, or a name it keeps as written
        }
        index += 1
        return .character(scalar)
    }

    /// The character of the named references in the subset: `amp`, `lt`, `gt`, `quot` and `nbsp` (case-sensitive,
    /// as in HTML).
    private static func namedCharacter(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        guard name.count <= 4 else { return nil }
        // The name's bytes, big-endian in one word: "lt" is 0x6C74.
        var word: UInt32 = 0
        for byte in name { word = word << 8 | UInt32(byte) }
        switch word {
        case 0x6C74: return "<"  // lt
        case 0x6774: return ">"  // gt
        case 0x61_6D70: return "&"  // amp
        case 0x7175_6F74: return "\""  // quot
        case 0x6E62_7370: return "\u{A0}"  // nbsp
        default: return nil
        }
    }

    /// Calls `body` with the UTF-8 of `scalar`.
    private func withUTF8(of scalar: Unicode.Scalar, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            var count = 0
            for unit in UTF8.encode(scalar)! {
                buffer[count] = unit
                count += 1
            }
            body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
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
        guard let name = readName(allowingHyphen: false), let entry = entry(named: name) else { return false }
        if isEnd {
            skipSpaces()
            guard index < bytes.count, bytes[index] == 0x3E, let open = stack.popLast(), open.entry == entry else {
                return false
            }
            index += 1
            close(open)
            return true
        }
        attributes.removeAll()
        while true {
            let hadSpace = skipSpaces()
            guard index < bytes.count else { return false }
            if bytes[index] == 0x3E {
                index += 1
                break
            }
            if bytes[index] == 0x2F {
                guard entries[entry].kind == .void, index + 1 < bytes.count, bytes[index + 1] == 0x3E else {
                    return false
                }
                index += 2
                break
            }
            guard hadSpace, attributes.count < Self.maximumAttributes, let name = readName(allowingHyphen: true)
            else { return false }
            attributes.startAttribute(named: name)
            guard !attributes.containsEarlier(named: name) else { return false }
            skipSpaces()
            guard index < bytes.count, bytes[index] == 0x3D else { return false }  // =
            index += 1
            skipSpaces()
            guard readQuotedValue() else { return false }
        }
        return open(entry)
    }

    /// The position in ``entries`` of the element named `name` (compared ASCII case-insensitively).
    private func entry(named name: UnsafeBufferPointer<UInt8>) -> Int? {
        let letter = Int(name[0].asciiLowercased) - 0x61
        for candidate in Self.entriesByFirstLetter[letter] where entries[candidate].name.count == name.count {
            if entries[candidate].name.withUnsafeBufferPointer({ candidateName in
                name.indices.allSatisfy { name[$0].asciiLowercased == candidateName[$0] }
            }) {
                return candidate
            }
        }
        return nil
    }

    /// Checks that the element at `entryIndex` of ``entries`` may start here and hands it, with the attributes just
    /// read, to the policy.
    private mutating func open(_ entryIndex: Int) -> Bool {
        let kind = entries[entryIndex].kind
        let isLink = entries[entryIndex].isLink
        let parent = stack.last.map { entries[$0.entry].kind }
        switch (kind, parent) {
        case (.phrasing, .list), (.void, .list): return false
        case (.paragraph, .phrasing), (.paragraph, .paragraph), (.paragraph, .list): return false
        case (.flow, .phrasing), (.flow, .paragraph): return false
        case (.list, .phrasing), (.list, .paragraph), (.list, .list): return false
        default: break
        }
        if entries[entryIndex].isListItem != (parent == .list) { return false }
        if isLink, insideLink > 0 { return false }
        guard stack.count < Self.maximumNesting else { return false }
        var open = Open(entry: entryIndex, written: false, dropped: false)
        if droppedDepth > 0 {
            open.dropped = true
        } else {
            let element = entries[entryIndex].policy
            switch walker.decide(element, depth: depth, attributes: attributes, keeping: &kept) {
            case .drop:
                open.dropped = true
            case .write:
                writer.start(element, attributes: attributes, kept: kept)
                open.written = true
            case .unwrap, .nothing:
                break
            }
        }
        guard kind != .void else { return true }
        if open.written { depth += 1 }
        if open.dropped { droppedDepth += 1 }
        if isLink { insideLink += 1 }
        stack.append(open)
        return true
    }

    private mutating func close(_ open: Open) {
        if open.written {
            writer.end(entries[open.entry].policy)
            depth -= 1
        }
        if open.dropped { droppedDepth -= 1 }
        if entries[open.entry].isLink { insideLink -= 1 }
    }

    /// A tag or attribute name: an ASCII letter, then letters and digits (and `-` for attributes), followed by a
    /// space, `/`, `>` or `=`.
    private mutating func readName(allowingHyphen: Bool) -> UnsafeBufferPointer<UInt8>? {
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
        case 0x20, 0x09, 0x0A, 0x2F, 0x3E, 0x3D: return UnsafeBufferPointer(rebasing: bytes[start..<index])
        default: return nil
        }
    }

    /// Reads a value in double or single quotes into the attribute being read, references decoded.
    private mutating func readQuotedValue() -> Bool {
        guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else { return false }
        let quote = bytes[index]
        index += 1
        var runStart = index
        while index < bytes.count {
            // Values are mostly long URLs: skip sixteen bytes at a time to the quote, a `<` or an `&`.
            index = ByteScan.find(bytes, from: index, (quote, 0x3C, 0x26, 0, 0, 0), count: 3)
            guard index < bytes.count, bytes[index] != quote else { break }
            switch bytes[index] {
            case 0x3C:
                return false
            case 0x26:
                let ampersand = index
                guard let reference = readReference(inAttribute: true) else { return false }
                if case .character(let scalar) = reference {
                    attributes.appendToValue(UnsafeBufferPointer(rebasing: bytes[runStart..<ampersand]))
                    attributes.appendToValue(scalar)
                    runStart = index
                }
            default:
                index += 1
            }
        }
        guard index < bytes.count else { return false }
        attributes.appendToValue(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        return true
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
