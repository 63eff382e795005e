import TributaryCore

/// Cleans and bounds the input before libxml2 sees it, so that time and memory stay bounded whatever it holds.
///
/// libxml2 2.9's HTML parser compares every end tag with each open element and every attribute with the earlier
/// ones of its tag, so deeply nested or attribute-stuffed input costs quadratic time, and it stops reading at 256
/// levels, losing the rest of the input. A quick scan that reads tags roughly as the parser does leaves out the start
/// tags that would nest deeper than ``nestingLimit`` and the tags that have more than ``attributeLimit``
/// attributes; their text stays. Only hostile input comes near either.
enum InputBounds {
    /// The deepest nesting read, below libxml2's 256 with room for the `html` and `body` it adds; a start tag that
    /// would go deeper is left out.
    static let nestingLimit = 240
    /// The most attributes in one tag; a tag that has more is left out.
    static let attributeLimit = 128

    /// `html` as UTF-8, at most `maximumBytes` long, cut at a character boundary, without NUL, DEL and C0
    /// control characters other than tab and line feed, with carriage returns turned into line feeds (as HTML parsers do)
    /// and form feeds into spaces, then cut again by ``cut(_:)``.
    static func prepare(_ html: String, maximumBytes: Int) -> [UInt8] {
        cut(clean(html, maximumBytes: maximumBytes))
    }

    /// ``prepare(_:maximumBytes:)`` without ``cut(_:)``: for ``SimpleFragmentReader``, which refuses every
    /// fragment the cut would change (it reads at most 32 levels and 16 attributes per tag, well below the cut's
    /// limits).
    static func clean(_ html: String, maximumBytes: Int) -> [UInt8] {
        var html = html
        return html.withUTF8 { clean($0, maximumBytes: maximumBytes) }
    }

    /// Whether ``clean(_:maximumBytes:)-(UnsafeBufferPointer<UInt8>,_)`` leaves `utf8` as it is.
    static func isClean(_ utf8: UnsafeBufferPointer<UInt8>, maximumBytes: Int) -> Bool {
        utf8.count <= maximumBytes && !needsCleaning(utf8)
    }

    /// ``clean(_:maximumBytes:)-(String,_)`` for valid UTF-8.
    static func clean(_ utf8: UnsafeBufferPointer<UInt8>, maximumBytes: Int) -> [UInt8] {
        // Most fragments need no change at all: copy them whole.
        if isClean(utf8, maximumBytes: maximumBytes) {
            return Array(utf8)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(utf8.count, maximumBytes))
        var previousWasCR = false
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            // The length of the character that starts here (the input is valid UTF-8).
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            defer { index += length }
            if byte == 0x0D {
                previousWasCR = true
                guard bytes.count < maximumBytes else { break }
                bytes.append(0x0A)
                continue
            }
            defer { previousWasCR = false }
            if byte == 0x0A, previousWasCR { continue }
            if byte == 0x0C {
                // A space to HTML, an invalid character to libxml2.
                guard bytes.count < maximumBytes else { break }
                bytes.append(0x20)
                continue
            }
            if byte < 0x20, byte != 0x09, byte != 0x0A { continue }
            if byte == 0x7F { continue }
            guard bytes.count + length <= maximumBytes, index + length <= utf8.count else { break }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<index + length]))
        }
        return bytes
    }

    /// `bytes` without the start tags that would nest deeper than ``nestingLimit``, the tags that have more than
    /// ``attributeLimit`` attributes, the tags of prefixed elements (Word's `<o:p>`, unknown to HTML, which libxml2
    /// reads as `<p>`: an empty paragraph after each pasted one), and what HTML reads as a bogus comment from `<?` to
    /// the next `>` (to the end when there is none: PHP left in a post, `<? echo $x; ?>`, which libxml2 showed as
    /// text when a space follows the `?`); a `<br />` between a tag's attributes becomes a space. A copy only when
    /// any of these is there; the text inside a tag left out stays.
    static func cut(_ bytes: [UInt8]) -> [UInt8] {
        // Open elements by a hash of their name, and how many of each are open: most end tags of hostile input
        // match nothing, and the count says so without a search.
        var open: [UInt64] = []
        var openCounts: [UInt64: Int] = [:]
        var index = 0
        let count = bytes.count
        // The bytes kept so far when a tag was left out, and where the bytes not yet copied start.
        var kept: [UInt8]?
        var copied = 0
        // Where both stood when the current tag began: a tag left out whole takes back what was replaced in it.
        var atTagStart = (kept: 0, copied: 0)
        func leaveOut(_ range: Range<Int>, keeping replacement: [UInt8] = []) {
            if kept == nil { kept = [] }
            kept?.append(contentsOf: bytes[copied..<range.lowerBound])
            kept?.append(contentsOf: replacement)
            copied = range.upperBound
        }
        func leaveOutTag(_ tag: Range<Int>) {
            if copied > tag.lowerBound {
                kept?.removeSubrange(atTagStart.kept...)
                copied = atTagStart.copied
            }
            leaveOut(tag)
        }
        // A legacy name written without its `;` (`&copy 2005`, `&quotHi`, `&AMP`): HTML reads the character
        // (``FeedText/legacyEntityPrefix(_:)``), libxml2 keeps the text as written; it is written as a numeric
        // reference, which libxml2 reads (it knows neither these names without `;` nor `AMP` or `COPY` with one). In
        // an attribute value, not when a letter, digit or `=` follows the name (`?a=1&copy=2`). Returns where the
        // name's run ends.
        func completeLegacyReference(at ampersand: Int, end: Int, inAttribute: Bool) -> Int {
            let nameStart = ampersand + 1
            var cursor = nameStart
            while cursor < end, bytes[cursor].isASCIILetter || (cursor > nameStart && bytes[cursor].isASCIIDigit) {
                cursor += 1
            }
            let next = cursor < end ? bytes[cursor] : nil
            guard cursor > nameStart, next != 0x3B,
                let legacy = bytes[nameStart..<cursor].withUnsafeBufferPointer({
                    FeedText.legacyEntityPrefix($0, inAttribute: inAttribute, next: next)
                })
            else { return cursor }
            leaveOut(ampersand..<(nameStart + legacy.length), keeping: Array("&#\(legacy.value);".utf8))
            return cursor
        }
        // `&#` without digits (`` `&#${code};` ``): text to HTML, dropped by libxml2; its `&` is escaped. Returns where
        // to go on, or `nil` when the `&` starts something else.
        func escapeBareNumericAmpersand(at ampersand: Int, end: Int) -> Int? {
            guard ampersand + 1 < end, bytes[ampersand + 1] == 0x23,
                !bytes.withUnsafeBufferPointer({ FeedText.startsNumericReference($0, hash: ampersand + 1, end: end) })
            else { return nil }
            leaveOut(ampersand..<(ampersand + 1), keeping: Array("&amp;".utf8))
            return ampersand + 2
        }
        func reference(at ampersand: Int, end: Int, inAttribute: Bool) -> Int {
            escapeBareNumericAmpersand(at: ampersand, end: end)
                ?? completeLegacyReference(at: ampersand, end: end, inAttribute: inAttribute)
        }
        func completeLegacyReferences(in value: Range<Int>) {
            var at = value.lowerBound
            while at < value.upperBound {
                at = bytes[at] == 0x26 ? reference(at: at, end: value.upperBound, inAttribute: true) : at + 1
            }
        }
        while index < count {
            guard bytes[index] == 0x3C else {  // <
                index = bytes[index] == 0x26 ? reference(at: index, end: count, inAttribute: false) : index + 1
                continue
            }
            let tagStart = index
            atTagStart = (kept?.count ?? 0, copied)
            var cursor = index + 1
            var isEnd = false
            if cursor < count, bytes[cursor] == 0x2F {  // /
                isEnd = true
                cursor += 1
            }
            if !isEnd, cursor < count, bytes[cursor] == 0x3F {  // <? a bogus comment
                index = (find([0x3E], in: bytes, from: cursor) ?? count - 1) + 1
                leaveOut(tagStart..<index)
                continue
            }
            if isEnd, count - cursor >= 3, bytes[cursor].asciiLowercased == 0x62,
                bytes[cursor + 1].asciiLowercased == 0x72,
                isSpace(bytes[cursor + 2]) || bytes[cursor + 2] == 0x3E || bytes[cursor + 2] == 0x2F
            {
                // `</br>` is a line break to HTML (an indexer's feed writes `</b></br><b>Category:`); libxml2 dropped
                // it and ran the lines together.
                index = (find([0x3E], in: bytes, from: cursor) ?? count - 1) + 1
                leaveOut(tagStart..<index, keeping: Array("<br>".utf8))
                continue
            }
            if isEnd, cursor < count, !bytes[cursor].isASCIILetter {
                // `</ br>`, `</>`, `</1>`: HTML reads a bogus comment to the next `>` (a lowendbox.com post wrote
                // `</ br>`); libxml2 dropped the `</` and showed the rest as text (`br>`).
                index = (find([0x3E], in: bytes, from: cursor) ?? count - 1) + 1
                leaveOut(tagStart..<index)
                continue
            }
            if cursor < count, bytes[cursor] == 0x21 {  // <!-- comments and declarations hold no tags
                if count - cursor >= 3, bytes[cursor + 1] == 0x2D, bytes[cursor + 2] == 0x2D {
                    // `<!-->` and `<!--->` are empty comments to HTML; libxml2 read on to the next `-->`.
                    let abruptEnd =
                        cursor + 3 < count && bytes[cursor + 3] == 0x3E
                        ? cursor + 4
                        : cursor + 4 < count && bytes[cursor + 3] == 0x2D && bytes[cursor + 4] == 0x3E
                            ? cursor + 5 : nil
                    if let abruptEnd {
                        index = abruptEnd
                        leaveOut(tagStart..<index)
                        continue
                    }
                    index = find([0x2D, 0x2D, 0x3E], in: bytes, from: cursor + 3) ?? count
                } else if count - cursor > 7,
                    bytes[(cursor + 1)..<(cursor + 8)].map(\.asciiLowercased).elementsEqual("doctype".utf8)
                {
                    index = find([0x3E], in: bytes, from: cursor) ?? count
                } else {
                    // `<![CDATA[...]]>` in HTML, Word's `<![if !supportLists]>`: HTML reads a bogus comment to the
                    // next `>`, which libxml2 showed as text.
                    index = (find([0x3E], in: bytes, from: cursor) ?? count - 1) + 1
                    leaveOut(tagStart..<index)
                }
                continue
            }
            guard cursor < count, bytes[cursor].isASCIILetter else {
                index = cursor
                continue
            }
            let nameStart = cursor
            while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != 0x3E, bytes[cursor] != 0x2F {
                cursor += 1
            }
            let name = hash(bytes[nameStart..<cursor])
            // A prefixed name (`o:p`, `st1:place`) is an element HTML does not know, but libxml2 drops the prefix
            // and reads `<o:p>` as a paragraph. One whose local name is dropped with its content (`svg:script` in
            // XHTML content, `x:style`) is left to libxml2, which drops it so.
            let isPrefixed =
                bytes[nameStart..<cursor].lastIndex(of: 0x3A).map {
                    !droppedNames.contains(hash(bytes[($0 + 1)..<cursor]))
                } ?? false
            var attributes = 0
            var tooManyAttributes = false
            var selfClosing = false
            // Attributes, until `>`.
            while cursor < count, bytes[cursor] != 0x3E {
                if isSpace(bytes[cursor]) {
                    cursor += 1
                    continue
                }
                if bytes[cursor] == 0x2F {
                    selfClosing = cursor + 1 < count && bytes[cursor + 1] == 0x3E
                    cursor += 1
                    continue
                }
                if bytes[cursor] == 0x3C, let end = lineBreakEnd(in: bytes, at: cursor) {
                    // WordPress turns each line break of a post into `<br />`, inside a tag written over several
                    // lines too (`<iframe src="..."<br />` and `scrolling="no">` on the next line). libxml2 would end
                    // the tag at the `<` and show the rest of it as text; it is a space between attributes.
                    leaveOut(cursor..<end, keeping: [0x20])
                    cursor = end
                    continue
                }
                attributes += 1
                if attributes > attributeLimit { tooManyAttributes = true }
                while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != 0x3E, bytes[cursor] != 0x3D {
                    cursor += 1
                }
                while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < count, bytes[cursor] == 0x3D else { continue }  // =
                cursor += 1
                while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
                if cursor < count, bytes[cursor] == 0x22 || bytes[cursor] == 0x27 {
                    let valueEnd = find([bytes[cursor]], in: bytes, from: cursor + 1) ?? count
                    completeLegacyReferences(in: (cursor + 1)..<valueEnd)
                    cursor = min(valueEnd + 1, count)
                } else {
                    let valueStart = cursor
                    while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != 0x3E { cursor += 1 }
                    completeLegacyReferences(in: valueStart..<cursor)
                }
            }
            index = min(cursor + 1, count)
            if tooManyAttributes || isPrefixed {
                leaveOutTag(tagStart..<index)
            } else if isEnd {
                if openCounts[name, default: 0] > 0, let match = open.lastIndex(of: name) {
                    for closed in open[match...] { openCounts[closed, default: 1] -= 1 }
                    open.removeSubrange(match...)
                }
            } else if !selfClosing, !voidNames.contains(name) {
                closeImplied(by: name, open: &open, openCounts: &openCounts)
                if open.count >= nestingLimit {
                    leaveOutTag(tagStart..<index)
                } else {
                    open.append(name)
                    openCounts[name, default: 0] += 1
                }
            }
        }
        guard var kept else { return bytes }
        kept.append(contentsOf: bytes[copied...])
        return kept
    }

    // MARK: - Private

    /// What a start tag closes without an end tag, as HTML's parsers (libxml2's among them) close it: a cell the
    /// row's open cell, a row the open row, an item the list's open item, a block an open paragraph. An element of
    /// `closes` is closed when it is open above every element of `scope` (the table, the list) and at most
    /// ``impliedEndReach`` levels down. Without this, a table written without end tags (research.swtch.com's, 480
    /// cells) or 600 paragraphs without `</p>` counted as nested 512 deep and lost the rest of the post.
    private static let impliedEnds: [UInt64: (closes: Set<UInt64>, scope: Set<UInt64>)] = {
        func hashes(_ names: [String]) -> Set<UInt64> { Set(names.map { hash(ArraySlice($0.utf8)) }) }
        let cells = (closes: hashes(["td", "th"]), scope: hashes(["tr", "table", "thead", "tbody", "tfoot"]))
        let rows = (closes: hashes(["tr"]), scope: hashes(["table", "thead", "tbody", "tfoot"]))
        let sections = (closes: hashes(["thead", "tbody", "tfoot"]), scope: hashes(["table"]))
        let items = (closes: hashes(["li"]), scope: hashes(["ul", "ol", "menu"]))
        let terms = (closes: hashes(["dt", "dd"]), scope: hashes(["dl"]))
        let options = (closes: hashes(["option"]), scope: hashes(["select", "datalist", "optgroup"]))
        let paragraph = (
            closes: hashes(["p"]),
            scope: hashes(["td", "th", "table", "caption", "button", "object", "marquee", "applet", "html", "li"])
        )
        var ends: [UInt64: (closes: Set<UInt64>, scope: Set<UInt64>)] = [:]
        for (names, rule) in [
            (["td", "th"], cells), (["tr"], rows), (["thead", "tbody", "tfoot"], sections), (["li"], items),
            (["dt", "dd"], terms), (["option"], options),
        ] {
            for name in hashes(names) { ends[name] = rule }
        }
        // Every other block (`p` among them) closes an open paragraph.
        for name in hashes(Array(HTMLElements.blocks)) where ends[name] == nil { ends[name] = paragraph }
        return ends
    }()

    /// How far down the open elements an implied end looks: hostile input cannot make every start tag search a
    /// deep stack.
    private static let impliedEndReach = 32

    /// Closes what the start tag `name` closes without an end tag (see ``impliedEnds``).
    private static func closeImplied(by name: UInt64, open: inout [UInt64], openCounts: inout [UInt64: Int]) {
        guard let rule = impliedEnds[name], !open.isEmpty else { return }
        var index = open.count - 1
        let lowest = max(0, open.count - impliedEndReach)
        while index >= lowest {
            let element = open[index]
            if rule.closes.contains(element) {
                for closed in open[index...] { openCounts[closed, default: 1] -= 1 }
                open.removeSubrange(index...)
                return
            }
            if rule.scope.contains(element) { return }
            index -= 1
        }
    }

    /// Whether any byte of `utf8` is one ``prepare(_:maximumBytes:)`` changes: a C0 control other than tab and
    /// line feed, or DEL (sixteen bytes at a time). C1 controls pass: ``HTMLWriter`` writes them as feedparser
    /// reads them.
    private static func needsCleaning(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < utf8.count {
            index = ByteScan.find(utf8, from: index, below: 0x20, (0x7F, 0, 0, 0, 0, 0), count: 1)
            guard index < utf8.count else { break }
            if utf8[index] != 0x09, utf8[index] != 0x0A { return true }
            index += 1
        }
        return false
    }

    /// Where `<br>`, `<br/>` or `<br />` at `start` ends (after its `>`), if one is there.
    private static func lineBreakEnd(in bytes: [UInt8], at start: Int) -> Int? {
        guard start + 3 < bytes.count, bytes[start + 1] | 0x20 == 0x62, bytes[start + 2] | 0x20 == 0x72,
            isSpace(bytes[start + 3]) || bytes[start + 3] == 0x2F || bytes[start + 3] == 0x3E
        else { return nil }
        return find([0x3E], in: bytes, from: start + 3).map { $0 + 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static let voidNames = Set(HTMLPolicy.voidElements.map { hash(ArraySlice($0.utf8)) })
    private static let droppedNames = Set(HTMLPolicy.droppedWithContent.map { hash(ArraySlice($0.utf8)) })

    /// FNV-1a of the lower-cased name.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte.asciiLowercased)) &* 0x100_0000_01B3
        }
        return hash
    }

    /// The index just before the end of the first occurrence of `pattern` at or after `start`: the index of its
    /// last byte, so that `+ 1` is past it.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, start < bytes.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) {
                return index + pattern.count - 1
            }
            index += 1
        }
        return nil
    }
}
