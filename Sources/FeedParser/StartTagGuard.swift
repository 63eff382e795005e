import CByteScan
import Foundation

/// Cuts start tags with more attributes than any feed has before libxml2 sees them.
///
/// libxml2 2.9 checks a start tag's attributes for duplicates in time quadratic in their number, inside one
/// `xmlParseChunk` call that nothing can interrupt: an RSS start tag with 300,000 attributes (3.5 MB) took 21 s,
/// 900,000 more than 300 s, past every timeout. So the byte stream is watched as it is fed: markup is followed
/// (tags with their quoted values, comments, CDATA sections, processing instructions, across chunk boundaries) and a
/// tag whose attributes pass ``limit`` keeps its first ``limit`` attributes; the rest of it, up to its `>`, is
/// dropped, with a warning. Text is skipped with `memchr` for the next `<`, so the watch costs little: most bytes
/// of a feed are text.
///
/// The same watch finds `]]>` in text, outside any CDATA section (a feed that closes a section it never opened, or
/// closes one twice: `<title>Some headline]]></title>`, Winds' saved Hacker News feed). XML forbids it there, and
/// libxml2's recovery dropped the text before it (the title read `]>`); its `>` is passed on as `&gt;`, so the text
/// reads as written, with a warning.
///
/// Only ASCII-compatible documents are watched (the caller decides); in them `<`, `>`, `"`, `'` and `=` are
/// always those characters.
struct StartTagGuard {
    /// Attributes a start tag may have. Feeds use a handful; Atom's and media's elements a dozen at most.
    static let limit = 1024

    private enum State {
        /// Between tags: looking for `<`.
        case text
        /// Just after `<`: what follows tells a tag from a comment, CDATA or a processing instruction.
        case open(seen: [UInt8])
        /// Inside a start or end tag, outside any quoted value.
        case tag
        /// Inside a quoted attribute value.
        case quoted(UInt8)
        /// Inside a comment, CDATA section or processing instruction, until `terminator` (which ends in `>`).
        case skipping(terminator: [UInt8])
        /// In a tag cut at the limit: dropping until the `>` that ends it (quotes followed).
        case cutting(quote: UInt8?)
    }

    private var state = State.text
    /// The last two bytes of the previous chunk, for a terminator cut by a chunk boundary.
    private var tail: (UInt8, UInt8) = (0, 0)
    private var equalsSigns = 0
    /// How many tags were cut, for the warning.
    private(set) var cutTags = 0
    /// How many `]]>` stood in text, for the warning.
    private(set) var strayCDATAEnds = 0

    /// Passes `bytes` on to `feed`, with the attributes beyond the limit dropped; in one piece when nothing is cut.
    mutating func process(
        _ bytes: UnsafeRawBufferPointer,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return }
        let count = bytes.count
        var index = 0
        // Where the bytes not yet passed on start; a cut passes on what came before it and skips what it drops (in
        // a tag being cut, nothing is kept until its `>`).
        var keptFrom = 0
        if case .cutting = state { keptFrom = count }
        while index < count {
            switch state {
            case .text:
                let found = memchr(base + index, 0x3C, count - index)
                let end = found.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
                try passStrayCDATAEnds(base, from: index, to: end, keptFrom: &keptFrom, feed)
                guard end < count else {
                    index = count
                    continue
                }
                index = end + 1
                // Most `<` open a tag: only `<!` and `<?` need a closer look.
                if index < count, base[index] != 0x21, base[index] != 0x3F {
                    state = .tag
                    equalsSigns = 0
                } else {
                    state = .open(seen: [])
                }
            case .open(var seen):
                seen.append(base[index])
                index += 1
                state = classify(seen)
                if case .tag = state { equalsSigns = 0 }
            case .tag:
                // Skip to the next byte that matters inside a tag: `>`, a quote or `=` (SSE2, 16 bytes a step).
                index = tributary_find_first(base, index, count, Self.tagBytes)
                guard index < count else { continue }
                let byte = base[index]
                index += 1
                switch byte {
                case 0x3E: state = .text
                case 0x22, 0x27: state = .quoted(byte)
                case 0x3D:
                    equalsSigns += 1
                    if equalsSigns > Self.limit {
                        // Cut here: the previous attribute's value has ended (this `=` is outside any quote).
                        // Drop back to the white space before this attribute's name.
                        var cut = index - 1
                        while cut > keptFrom, Self.isSpace(base[cut - 1]) { cut -= 1 }
                        while cut > keptFrom, !Self.isSpace(base[cut - 1]) { cut -= 1 }
                        if cut > keptFrom {
                            try feed(UnsafeRawBufferPointer(start: base + keptFrom, count: cut - keptFrom))
                        }
                        keptFrom = count  // nothing more of this chunk is kept until the tag ends
                        cutTags += 1
                        state = .cutting(quote: nil)
                    }
                default: break
                }
            case .quoted(let quote):
                guard let found = memchr(base + index, Int32(quote), count - index) else {
                    index = count
                    continue
                }
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                state = .tag
            case .skipping(let terminator):
                // Jump from `>` to `>`; the terminator is there when the bytes before the `>` spell the rest of it.
                guard let found = memchr(base + index, 0x3E, count - index) else {
                    index = count
                    continue
                }
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                index = end + 1
                var matches = true
                for back in 1..<terminator.count {
                    let position = end - back
                    let byte = position >= 0 ? base[position] : (position == -1 ? tail.1 : tail.0)
                    if byte != terminator[terminator.count - 1 - back] { matches = false }
                }
                if matches { state = .text }
            case .cutting(let quote):
                let byte = base[index]
                index += 1
                if let quote {
                    if byte == quote { state = .cutting(quote: nil) }
                } else if byte == 0x22 || byte == 0x27 {
                    state = .cutting(quote: byte)
                } else if byte == 0x3E {
                    // The tag's end is kept: from its `>` on, bytes pass again.
                    keptFrom = index - 1
                    state = .text
                }
            }
        }
        tail = count >= 2 ? (base[count - 2], base[count - 1]) : (tail.1, base[count - 1])
        if keptFrom < count {
            if keptFrom == 0 {
                try feed(bytes)
            } else {
                try feed(UnsafeRawBufferPointer(start: base + keptFrom, count: count - keptFrom))
            }
        }
    }

    /// Passes on text from `keptFrom` with the `>` of each `]]>` in `start..<end` (text, up to the next `<`) as
    /// `&gt;`. Looked for with `memchr` for `]`, which text rarely holds; a `]]` at the end of the previous chunk
    /// counts.
    private mutating func passStrayCDATAEnds(
        _ base: UnsafePointer<UInt8>,
        from start: Int,
        to end: Int,
        keptFrom: inout Int,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        var index = start
        // A `]]>` begun at the end of the previous chunk (text runs on across chunks only from the first byte).
        var split: Int?
        if start == 0, end > 0, base[0] == 0x3E, tail == (0x5D, 0x5D) {
            split = 0
        } else if start == 0, end > 1, tail.1 == 0x5D, base[0] == 0x5D, base[1] == 0x3E {
            split = 1
        }
        while index < end {
            let greaterThan: Int
            if let position = split.take() {
                greaterThan = position
            } else {
                guard let found = memchr(base + index, 0x5D, end - index) else { return }
                let bracket = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard bracket + 2 < end, base[bracket + 1] == 0x5D, base[bracket + 2] == 0x3E else {
                    index = bracket + 1
                    continue
                }
                greaterThan = bracket + 2
            }
            if greaterThan > keptFrom {
                try feed(UnsafeRawBufferPointer(start: base + keptFrom, count: greaterThan - keptFrom))
            }
            try Self.escapedGreaterThan.withUnsafeBytes { try feed($0) }
            keptFrom = greaterThan + 1
            strayCDATAEnds += 1
            index = greaterThan + 1
        }
    }

    private static let escapedGreaterThan: [UInt8] = Array("&gt;".utf8)

    /// What the bytes after a `<` start: a comment, a CDATA section, a processing instruction or other
    /// declaration (skipped to their ends), or a tag; `.open` while they do not tell yet.
    private static let tagBytes = tributary_byte_set(below: 0, count: 4, equal: (0x3E, 0x22, 0x27, 0x3D, 0x3E, 0x3E))
    private static let comment = Array("!--".utf8)
    private static let cdata = Array("![CDATA[".utf8)

    private func classify(_ seen: [UInt8]) -> State {
        if seen.first == 0x3F { return .skipping(terminator: Array("?>".utf8)) }
        if seen.first != 0x21 { return .tag }
        if Self.comment.starts(with: seen) || Self.cdata.starts(with: seen) {
            if seen == Self.comment { return .skipping(terminator: Array("-->".utf8)) }
            if seen == Self.cdata { return .skipping(terminator: Array("]]>".utf8)) }
            return .open(seen: seen)
        }
        // `<!DOCTYPE ...>` and other declarations: read as a tag (their quotes are followed).
        return .tag
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
