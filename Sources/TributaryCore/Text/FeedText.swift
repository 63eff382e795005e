import CByteScan
import Foundation

/// The one home of Tributary's text rules: HTML to plain text, character references, whitespace.
///
/// Text becomes plain once, where a feed is read (the parser, the JSON Feed reader); nothing after that strips it
/// again, and renderers only escape it for their syntax. Everything that has to make text plain or decode references
/// calls this type: the parser on its hot path (straight on the UTF-8 bytes libxml2 hands the SAX callbacks, with no
/// `String` built unless the text needs work), the JSON Feed reader, the Google News shaper and the digest's
/// one-line excerpt of an item's HTML.
public enum FeedText {
    /// Plain text from HTML or text: tags stripped, entities decoded, whitespace collapsed and trimmed.
    ///
    /// A `<` only opens a tag when a letter, `/`, `!` or `?` follows, so `a < b` survives.
    public static func plainText(_ bytes: [UInt8], stripTags: Bool = true, decodeEntities: Bool = true) -> String {
        bytes.withUnsafeBufferPointer { plainText($0, stripTags: stripTags, decodeEntities: decodeEntities) }
    }

    /// Plain text from bytes; see ``plainText(_:stripTags:decodeEntities:)-([UInt8],_,_)``.
    public static func plainText(
        _ bytes: UnsafeBufferPointer<UInt8>,
        stripTags: Bool = true,
        decodeEntities: Bool = true
    ) -> String {
        if !needsWork(bytes) {
            let kept = trimmedOfSpaces(bytes)
            return String(
                decoding: kept.count == bytes.count ? bytes : UnsafeBufferPointer(rebasing: bytes[kept]),
                as: UTF8.self
            )
        }
        guard let base = bytes.baseAddress else { return "" }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        func append(_ byte: UInt8) {
            if pendingSpace, !output.isEmpty { output.append(0x20) }
            pendingSpace = false
            output.append(byte)
        }
        func appendNoBreakSpace() {
            guard !output.isEmpty else { return }
            append(0xC2)
            output.append(0xA0)
        }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                pendingSpace = true
                index += 1
            } else if byte == 0xC2, index + 1 < count, bytes[index + 1] == 0xA0 {
                // U+00A0 NO-BREAK SPACE is a character, not white space to fold (HTML keeps it; French writes
                // `Bonjour\u{A0}!`); only at either end is it trimmed, as feedparser trims it.
                appendNoBreakSpace()
                index += 2
            } else if stripTags, byte == 0x3C, let end = commentEnd(bytes, from: index) {
                index = end
            } else if stripTags, byte == 0x3C, index + 1 < count, isTagStart(bytes[index + 1]),
                let close = tagEnd(bytes, from: index)
            {
                let name = tagName(bytes, from: index + 1)
                // An opening `script` or `style` tag takes its body with it; a stray closing one only itself.
                if name == "script" || name == "style", bytes[index + 1] != 0x2F {
                    index = skipElement(bytes, from: close + 1, name: name)
                } else {
                    index = close + 1
                }
                // A block or a line break separates words, and so does a script or style taken out with its body;
                // inline markup (`ft<sup>2</sup>`) does not.
                if name == "script" || name == "style" || HTMLElements.separatesWords(name) { pendingSpace = true }
            } else if decodeEntities, byte == 0x26, let (scalar, next) = entity(bytes, at: index, inText: true) {
                if scalar == 0x20 || scalar == 0x09 || scalar == 0x0A || scalar == 0x0D {
                    pendingSpace = true
                } else if scalar < 0x20 || scalar == 0x7F {
                    // A reference to a control character (`o&#x1F;ffre`) is left out, as the character itself is.
                } else if scalar == 0xA0 {
                    appendNoBreakSpace()
                } else {
                    var encoded: [UInt8] = []
                    appendUTF8(scalar, to: &encoded)
                    for byte in encoded { append(byte) }
                }
                index = next
            } else {
                // A run of bytes that need no work, found sixteen at a time, is copied in one step: most of an
                // excerpt's bytes are plain words between a few tags.
                let end = tributary_find_first(base, index + 1, count, plainRunStops)
                if pendingSpace, !output.isEmpty { output.append(0x20) }
                pendingSpace = false
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
        // No-break spaces and the other Unicode spaces at either end are trimmed like white space.
        let kept = output.withUnsafeBufferPointer { trimmedOfSpaces($0) }
        return output.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[kept]), as: UTF8.self)
        }
    }

    /// Plain text from a `String` that may hold markup; see ``plainText(_:stripTags:decodeEntities:)-([UInt8],_,_)``.
    public static func plainText(_ text: String, stripTags: Bool = true, decodeEntities: Bool = true) -> String {
        var copy = text
        return copy.withUTF8 { plainText($0, stripTags: stripTags, decodeEntities: decodeEntities) }
    }

    /// Text that is already plain with every run of white space (spaces, tabs, line breaks) made one space, and
    /// both ends trimmed (of no-break spaces as well): the same white space rule as ``plainText(_:stripTags:decodeEntities:)-([UInt8],_,_)``,
    /// so that text the parser made plain passes unchanged (an ideographic space U+3000 in a Japanese title is a
    /// character of the title, not white space to fold). Nothing else changes: `<` and `&` stay as written.
    public static func collapseWhitespace(_ text: String) -> String {
        plainText(text, stripTags: false, decodeEntities: false)
    }

    /// Character references decoded once in a `String`: `&amp;lt;` becomes `&lt;`. Unknown names stay as written.
    public static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(0x26) else { return text }
        var copy = text
        return copy.withUTF8 { String(decoding: decodeEntities($0), as: UTF8.self) }
    }

    /// `text` without the white space and line breaks around it (`.whitespacesAndNewlines`, Unicode's included),
    /// returned as it is without bridging to `NSString` when it starts and ends with a printable ASCII character,
    /// as URLs and ids almost always do.
    public static func trimmingWhitespace(_ text: String) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where `bytes` stand without the white space and control characters (every byte up to the space) at either
    /// end: the one rule for text read as written (ids, links, attribute values, types). Plain text is trimmed by
    /// ``trimmedOfSpaces(_:)``, which also takes Unicode's spaces.
    public static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] <= 0x20 { start += 1 }
        while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
        return start..<end
    }

    /// The text without the white space (and control characters) around it (``trimmedRange(_:)``).
    public static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[trimmedRange(bytes)]), as: UTF8.self)
    }

    /// `string` trimmed as ``trimmedRange(_:)`` says, without Foundation (which bridges through `NSString`: it was
    /// 40% of parse time); the string itself when there is nothing to trim.
    public static func trimmed(_ string: String) -> String {
        let utf8 = string.utf8
        guard let first = utf8.first, let last = utf8.last, first <= 0x20 || last <= 0x20 else { return string }
        var copy = string
        return copy.withUTF8 { trimmed($0) }
    }

    /// Decodes character and entity references once, leaving everything else (double-escaped HTML becomes HTML).
    public static func decodeEntities(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x26, let (scalar, next) = entity(bytes, at: index) {
                appendUTF8(scalar, to: &output)
                index = next
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// Whether text from a field that is plain text by its format (`itunes:summary`) looks like HTML a feed wrote
    /// there anyway, as feedparser guesses it: it has an end tag or a character reference (or, beyond feedparser, a
    /// line break or image tag, `Notes<br>Links`), every tag names an HTML element, and every named reference is an
    /// HTML one. `<p>Notes</p>` and `Tom &amp; Jerry` are HTML; `fscklog <http://www.fscklog.com/>` and `a < b` are
    /// text.
    public static func looksLikeHTML(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x5F
        }
        func word(from start: Int) -> Int {
            var end = start
            while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
            return end
        }
        var endTagOrReference = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x3C:  // <
                let isEnd = index + 1 < bytes.count && bytes[index + 1] == 0x2F
                let name = tagName(bytes, from: index + 1)
                let nameEnd = index + (isEnd ? 2 : 1) + name.utf8.count
                if !name.isEmpty {
                    // A name that goes on (`b_x`, or longer than any element's) is none of HTML's.
                    guard nameEnd == word(from: nameEnd), HTMLElements.isElement(name) else { return false }
                    if isEnd, nameEnd < bytes.count, bytes[nameEnd] == 0x3E { endTagOrReference = true }
                    if !isEnd, name == "br" || name == "img" || name == "hr" { endTagOrReference = true }
                }
                index = max(nameEnd, index + 1)
            case 0x26:  // &
                let isNumeric = index + 1 < bytes.count && bytes[index + 1] == 0x23
                let nameStart = index + (isNumeric ? 2 : 1)
                let nameEnd = word(from: nameStart)
                if nameEnd > nameStart, nameEnd < bytes.count, bytes[nameEnd] == 0x3B {
                    if !isNumeric, namedEntity(Array(bytes[nameStart..<nameEnd])) == nil { return false }
                    endTagOrReference = true
                }
                index = max(nameEnd, index + 1)
            default:
                index += 1
            }
        }
        return endTagOrReference
    }

    /// Rewrites relative `href="..."` and `src="..."` values in escaped HTML through `resolve`, so that content
    /// carries absolute links (as feedparser does). Values with a scheme, fragment-only values and HTML without
    /// such attributes are left alone; the scan is one pass over the bytes.
    public static func resolvingRelativeURLs(_ html: String, _ resolve: (String) -> String) -> String {
        var html = html
        return html.withUTF8 { resolvingRelativeURLs(in: $0, resolve).map { String(decoding: $0, as: UTF8.self) } }
            ?? html
    }

    /// ``resolvingRelativeURLs(_:_:)`` on UTF-8: the rewritten bytes, or `nil` when nothing changed.
    public static func resolvingRelativeURLs(in bytes: UnsafeBufferPointer<UInt8>, _ resolve: (String) -> String)
        -> [UInt8]?
    {
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        while index + 2 < count {
            // Jump to the next '=' (memchr), then look for `href=` or `src=` after whitespace, and a quote.
            guard let found = memchr(base + index, 0x3D, count - index) else { break }
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard index + 2 < count, index >= 4 else {
                index += 1
                continue
            }
            let isHref =
                index >= 5 && bytes[index - 4] | 0x20 == 0x68 && bytes[index - 3] | 0x20 == 0x72
                && bytes[index - 2] | 0x20 == 0x65 && bytes[index - 1] | 0x20 == 0x66
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 5])
            let isSrc =
                bytes[index - 3] | 0x20 == 0x73 && bytes[index - 2] | 0x20 == 0x72
                && bytes[index - 1] | 0x20 == 0x63
                && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 4])
            let quote = bytes[index + 1]
            guard isHref || isSrc, quote == 0x22 || quote == 0x27, isInsideStartTag(bytes, at: index) else {
                index += 1
                continue
            }
            let start = index + 2
            // Values are long (a Google News link is some 200 bytes): find the closing quote with memchr too.
            guard let closing = memchr(base + start, Int32(quote), count - start) else { break }
            let end = base.distance(to: closing.assumingMemoryBound(to: UInt8.self))
            let valueBytes = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !valueBytes.isEmpty, valueBytes[0] != 0x23, !hasScheme(valueBytes) {
                let value = String(decoding: valueBytes, as: UTF8.self)
                let resolved = resolve(value)
                if resolved != value {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                    output.append(contentsOf: resolved.utf8)
                    copied = end
                }
            }
            index = end + 1
        }
        guard copied > 0 else { return nil }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<count]))
        return output
    }

    /// Whether `index` is inside a start tag: the nearest `<` or `>` before it is a `<` that opens one. An
    /// `href="..."` in text (a code sample showing escaped markup, `&lt;a href="issues/1"&gt;`) is text, not a
    /// link to rewrite. A `>` inside an earlier quoted value of the same tag makes this say no: that link is then
    /// left as written (and resolved against the feed's address later, by the sanitizer).
    private static func isInsideStartTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var position = index - 1
        while position >= 0 {
            switch bytes[position] {
            case 0x3E: return false  // >
            case 0x3C:
                return position + 1 < bytes.count && (bytes[position + 1] | 0x20) >= 0x61
                    && (bytes[position + 1] | 0x20) <= 0x7A  // <
            default: position -= 1
            }
        }
        return false
    }

    /// Whether a URL reference starts with a scheme (`https:`, `mailto:`).
    public static func hasScheme(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { hasScheme($0) }
    }

    /// Whether a URL reference given as UTF-8 starts with a scheme (`https:`, `mailto:`).
    public static func hasScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var sawLetter = false
        for byte in bytes {
            switch byte {
            case 0x3A: return sawLetter
            case 0x41...0x5A, 0x61...0x7A: sawLetter = true
            case 0x30...0x39, 0x2B, 0x2D, 0x2E: if !sawLetter { return false }
            default: return false
            }
        }
        return false
    }

    /// Appends a code point as UTF-8 (U+FFFD for an invalid one).
    public static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        let scalar = value > 0x10FFFF || (0xD800...0xDFFF).contains(value) ? 0xFFFD : value
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: - Private

    /// Where a run of bytes that ``plainText(_:stripTags:decodeEntities:)-([UInt8],_,_)`` copies as they are ends:
    /// white space (and any other byte below `!`), `<`, `&`, or the lead byte of a no-break space.
    private static let plainRunStops = tributary_byte_set(below: 0x21, count: 3, equal: (0x3C, 0x26, 0xC2, 0, 0, 0))

    /// Bytes that make text need the slow path: `<`, `&`, tab, newline, return and 0xC2 (U+00A0).
    private static let slowBytes: [Bool] = (0..<256).map { [0x3C, 0x26, 0x09, 0x0A, 0x0D, 0xC2].contains($0) }

    /// Where `bytes` (UTF-8) stand without the white space at either end: ASCII's, and the Unicode spaces Python's
    /// `str.strip` also trims, as feedparser trims a title (U+0085, U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029,
    /// U+202F, U+205F, U+3000: habr.com ends titles with U+2028, Japanese feeds with U+3000). Only the first and last
    /// bytes are looked at when there is none.
    static func trimmedOfSpaces(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end {
            let length = spaceLength(bytes, at: start, limit: end)
            if length == 0 { break }
            start += length
        }
        while end > start {
            let last = bytes[end - 1]
            let length: Int
            if last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
                length = 1
            } else if last < 0x80 {
                length = 0
            } else if end - start >= 2, spaceLength(bytes, at: end - 2, limit: end) == 2 {
                length = 2
            } else if end - start >= 3, spaceLength(bytes, at: end - 3, limit: end) == 3 {
                length = 3
            } else {
                length = 0
            }
            if length == 0 { break }
            end -= length
        }
        return start..<end
    }

    /// The length of the white space character that starts at `index` (see ``trimmedOfSpaces(_:)``), 0 for none.
    private static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, limit: Int) -> Int {
        let byte = bytes[index]
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return 1 }
        guard byte >= 0xC2, index + 1 < limit else { return 0 }
        let second = bytes[index + 1]
        if byte == 0xC2 { return second == 0x85 || second == 0xA0 ? 2 : 0 }
        guard index + 2 < limit else { return 0 }
        let third = bytes[index + 2]
        switch (byte, second) {
        case (0xE1, 0x9A): return third == 0x80 ? 3 : 0
        case (0xE2, 0x80): return third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
        case (0xE2, 0x81): return third == 0x9F ? 3 : 0
        case (0xE3, 0x80): return third == 0x80 ? 3 : 0
        default: return 0
        }
    }

    private static func needsWork(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == 0x20 || last == 0x20 { return true }
        return slowBytes.withUnsafeBufferPointer { slow in
            var previous: UInt8 = 0
            for byte in bytes {
                if slow[Int(byte)] || (byte == 0x20 && previous == 0x20) { return true }
                previous = byte
            }
            return false
        }
    }

    private static func isTagStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x2F || byte == 0x21 || byte == 0x3F
    }

    /// The index after the `-->` of a comment that starts at `start` (the end of the text when it is unclosed), or
    /// `nil` when no comment starts there.
    private static func commentEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start + 3 < bytes.count, bytes[start + 1] == 0x21, bytes[start + 2] == 0x2D, bytes[start + 3] == 0x2D
        else { return nil }
        var index = start + 4
        while index + 2 < bytes.count {
            if bytes[index] == 0x2D, bytes[index + 1] == 0x2D, bytes[index + 2] == 0x3E { return index + 3 }
            index += 1
        }
        return bytes.count
    }

    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        var quote: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x3E {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func tagName(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        var index = start
        if index < bytes.count, bytes[index] == 0x2F { index += 1 }
        // Lower-cased on the stack: a name of up to 15 bytes is then a small string, with no allocation (an array
        // for each tag was most of the cost of a digest's excerpts).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { name in
            var count = 0
            while index < bytes.count, count < 16 {
                let lower = bytes[index] | 0x20
                guard (lower >= 0x61 && lower <= 0x7A) || (bytes[index] >= 0x30 && bytes[index] <= 0x39) else { break }
                name[count] = lower
                count += 1
                index += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: name[..<count]), as: UTF8.self)
        }
    }

    private static func skipElement(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, name: String) -> Int {
        let closing = Array("</\(name)".utf8)
        var index = start
        while index + closing.count <= bytes.count {
            var matches = true
            for offset in 0..<closing.count where bytes[index + offset] | (offset > 1 ? 0x20 : 0) != closing[offset] {
                matches = false
                break
            }
            if matches, let end = tagEnd(bytes, from: index) { return end + 1 }
            index += 1
        }
        return bytes.count
    }

    /// Decodes `&name;`, `&#123;` or `&#x7B;` at `start`; returns the scalar and the index after the `;`. A numeric
    /// reference to U+0080-U+009F gives the windows-1252 character, as HTML reads it.
    ///
    /// `inText`: the reference stands in text, where HTML also decodes a legacy name written without its `;` (`&amp`,
    /// `&copy`, `&eacute`: HTML 4's Latin-1 names, as browsers and Python's `html.unescape` read them): the longest
    /// such name that starts the run of letters and digits (`&copy2026` is `©2026`, `&ampx` is `&x`). In HTML that is
    /// kept as HTML such a name is left alone, for it may stand in an attribute (`href="?a=1&copy=2"`).
    public static func entity(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at start: Int,
        inText: Bool = false
    ) -> (UInt32, Int)? {
        var index = start + 1
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x23 {
            index += 1
            var hex = false
            if index < bytes.count, bytes[index] | 0x20 == 0x78 {
                hex = true
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.count, digits < 8 {
                let byte = bytes[index]
                let digit: UInt32
                if byte >= 0x30 && byte <= 0x39 {
                    digit = UInt32(byte - 0x30)
                } else if hex, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x66 {
                    digit = UInt32((byte | 0x20) - 0x61 + 10)
                } else {
                    break
                }
                value = value * (hex ? 16 : 10) + digit
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if index < bytes.count, bytes[index] == 0x3B { index += 1 }
            guard value > 0, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return (0xFFFD, index) }
            // HTML reads a reference to a C1 control as the windows-1252 character it stands for (`&#146;` is `’`,
            // `&#128;` is `€`), as browsers and feedparser do; the five positions windows-1252 leaves empty stay.
            return (windows1252Character(forC1: value) ?? value, index)
        }
        let nameStart = index
        while index < bytes.count, index - nameStart < 32, bytes[index] != 0x3B {
            let byte = bytes[index]
            guard (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || (byte >= 0x30 && byte <= 0x39) else { break }
            index += 1
        }
        guard index > nameStart else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<index])
        if index < bytes.count, bytes[index] == 0x3B, let value = namedEntity(Array(name)) { return (value, index + 1) }
        guard inText, let legacy = legacyEntityPrefix(name) else { return nil }
        return (legacy.value, nameStart + legacy.length)
    }

    /// Whether the `#` at `hash` (after an `&`) starts a numeric reference: a decimal digit follows it, or `x` (or
    /// `X`) and a hexadecimal digit. HTML reads `&#` without them as text (`` `&#${code};` `` in a post's code, `&#;`);
    /// libxml2 drops the `&#`, so the sanitizer escapes the `&` of those before it reads them. The bytes looked at
    /// end at `end` (the buffer's end by default).
    @inlinable
    public static func startsNumericReference(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int, end: Int? = nil) -> Bool {
        let end = end ?? bytes.count
        let isDigit = { (byte: UInt8) in byte &- 0x30 < 10 }
        var index = hash + 1
        guard index < end else { return false }
        if bytes[index] == 0x78 || bytes[index] == 0x58 {  // x X
            index += 1
            return index < end && (isDigit(bytes[index]) || (bytes[index] | 0x20) &- 0x61 < 6)
        }
        return isDigit(bytes[index])
    }

    /// The legacy name (one HTML reads without its `;`, see ``entity(_:at:inText:)``) that starts `name`, a run of
    /// letters and digits after an `&`: the longest, as HTML matches it (they are two to six letters long), with
    /// its code point and length. `&copy2026` is `©2026`; `&notit` is `¬it`.
    ///
    /// In an attribute value (`inAttribute`) HTML reads one only when neither a letter, a digit nor `=` follows it
    /// (`?a=1&copy=2` stays as written): only a name that is the whole run, and `next`, the byte after the run
    /// (`nil` at the end of the input), is not `=`.
    public static func legacyEntityPrefix(
        _ name: UnsafeBufferPointer<UInt8>,
        inAttribute: Bool = false,
        next: UInt8? = nil
    ) -> (value: UInt32, length: Int)? {
        var length = min(name.count, 6)
        while length >= 2 {
            if let value = legacyEntity(Array(name[0..<length])) {
                guard !inAttribute || (length == name.count && next != 0x3D) else { return nil }
                return (value, length)
            }
            length -= 1
        }
        return nil
    }

    /// The code point of a name HTML reads without its `;` in text: `amp`, `lt`, `gt`, `quot`, HTML 4's Latin-1 names
    /// (`nbsp` to `yuml`), and `AMP`, `COPY`, `GT`, `LT`, `QUOT`, `REG`.
    static func legacyEntity(_ name: [UInt8]) -> UInt32? {
        switch name {
        case Array("AMP".utf8): return 0x26
        case Array("LT".utf8): return 0x3C
        case Array("GT".utf8): return 0x3E
        case Array("QUOT".utf8): return 0x22
        case Array("COPY".utf8): return 0xA9
        case Array("REG".utf8): return 0xAE
        case Array("apos".utf8): return nil
        default: break
        }
        guard let value = namedEntity(name), value <= 0xFF else { return nil }
        return value
    }

    /// The code point of a named HTML 4 entity, plus `&apos;`; see ``htmlNamedEntities``.
    public static func namedEntity(_ name: [UInt8]) -> UInt32? {
        // The common ones without a hash lookup.
        switch name {
        case [0x61, 0x6D, 0x70]: return 0x26  // amp
        case [0x6C, 0x74]: return 0x3C  // lt
        case [0x67, 0x74]: return 0x3E  // gt
        case [0x71, 0x75, 0x6F, 0x74]: return 0x22  // quot
        case [0x61, 0x70, 0x6F, 0x73]: return 0x27  // apos
        case [0x6E, 0x62, 0x73, 0x70]: return 0xA0  // nbsp
        default: break
        }
        return htmlNamedEntities[String(decoding: name, as: UTF8.self)]
    }
}
