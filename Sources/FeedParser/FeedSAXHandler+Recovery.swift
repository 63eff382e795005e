import CLibXML2
import Foundation
import TributaryCore

/// Recovering from malformed XML: libxml2's errors, undeclared HTML entities, broken references and attributes, mismatched end tags.
extension FeedSAXHandler {
    /// Handles an end while tag mismatch recovery is under way; returns whether it did.
    ///
    /// libxml2 answers a mismatched end tag (`<description>bold <b>x</description>`) by closing only its innermost
    /// open element (`b`), so `description` would swallow the item's following `<link>` and `<guid>`. Instead, when
    /// the end tag names an element of the text being captured, this closes everything down to that element, as
    /// HTML parsers do, and remembers the elements libxml2 still thinks open ("phantoms"), to ignore their ends.
    func recoverEnd() -> Bool {
        let target = pendingCloseDepth
        pendingCloseDepth = -1
        let libxml2TopIsPhantom = phantomBases.last == stack.count
        guard target >= 0, target < stack.count else {
            guard libxml2TopIsPhantom else { return false }
            phantomBases.removeLast()
            return true
        }
        if libxml2TopIsPhantom { phantomBases.removeLast() }
        let closing = stack.count - target
        for index in phantomBases.indices where phantomBases[index] > target { phantomBases[index] = target }
        for _ in 0..<closing {
            guard let top = stack.last else { break }
            closeTop(top.localName, prefix: top.prefix)
        }
        phantomBases.append(contentsOf: repeatElement(target, count: libxml2TopIsPhantom ? closing : closing - 1))
        return true
    }

    /// Called for libxml2's "Opening and ending tag mismatch" error, just before it ends its innermost element:
    /// when the end tag names an open element (at or inside the captured one, while text is captured), the next end
    /// closes down to it. libxml2's innermost element is the one it found mismatched, unless it is one already
    /// closed here (a phantom): then the element on top of the stack may be the one named. Without that, raw HTML
    /// in a description (`<a><img></a>`, the `img` never closed) left `</description>` and then `</item>` each
    /// closing the wrong element, and the item's link, date and enclosure were read as its description's text.
    func noteMismatch(_ endTagName: UnsafeMutablePointer<CChar>?) {
        guard skippedDepth == 0, let endTagName else { return }
        var local = UnsafePointer(endTagName)
        if let colon = strrchr(endTagName, 0x3A) { local = UnsafePointer(colon + 1) }
        var index = stack.count - (phantomBases.last == stack.count ? 1 : 2)
        let floor = capturing != nil ? captureDepth : 0
        while index >= floor, index >= 0 {
            if strcmp(UnsafeRawPointer(stack[index].localName).assumingMemoryBound(to: CChar.self), local) == 0 {
                pendingCloseDepth = index
                return
            }
            index -= 1
        }
    }

    func error(_ error: UnsafePointer<xmlError>, context errorContext: xmlParserCtxtPtr) {
        let value = error.pointee
        switch xmlParserErrors(UInt32(bitPattern: value.code)) {
        case XML_ERR_HYPHEN_IN_COMMENT:
            // `<!-- ---- -->`: XML forbids `--` inside a comment, but nothing a comment holds is read, so nothing
            // is lost and there is nothing to warn about (feedparser does not either).
            return
        case XML_ERR_TAG_NAME_MISMATCH:
            if tributary_xml_is_open_element(errorContext, value.str2) == 0,
                tributary_xml_keep_element_open(errorContext) != 0
            {
                // A stray end tag (it names no open element): libxml2 would close the innermost element and, at
                // the item's real end tag, the feed, losing every later item. It is ignored instead, as HTML parsers
                // do; libxml2 still reports the end of the element it kept open, which ``endElement(_:prefix:)``
                // skips.
                strayEnds += 1
            } else {
                noteMismatch(value.str2)
            }
        case XML_ERR_UNDECLARED_ENTITY where errorContext.pointee.instate == XML_PARSER_DTD,
            XML_WAR_UNDECLARED_ENTITY where errorContext.pointee.instate == XML_PARSER_DTD:
            // `%HTMLlat1;` in the DOCTYPE: external entity sets are never loaded (no network, no XXE), and the HTML
            // entities they would declare are known anyway (``entityDocument``), so nothing is lost to warn about.
            // libxml2 still counts it as an error, after which it would stop expanding entities: see below.
            malformed = true
            return
        case XML_ERR_NAME_REQUIRED, XML_ERR_ENTITYREF_SEMICOL_MISSING, XML_ERR_UNDECLARED_ENTITY,
            XML_WAR_UNDECLARED_ENTITY:
            if errorContext.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE {
                attributeReferenceDropped = true
            } else {
                keepReferenceText(errorContext)
            }
        case XML_ERR_INVALID_CHAR:
            // `&#0;`, `&#xD800;`, `&#1114112;`: libxml2 drops a reference to a character XML does not allow.
            guard let text = value.message, strncmp(text, "xmlParseCharRef", 15) == 0 else { break }
            if errorContext.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE {
                attributeReferenceDropped = true
            } else {
                replaceInvalidCharacterReference(errorContext)
            }
        default:
            break
        }
        var message = value.message.map { String(cString: $0) } ?? "unknown error"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        let line = Int(value.line)
        let column = Int(value.int2)
        lastError = (message, line, column)
        if value.code == XML_ERR_ENTITY_LOOP.rawValue {
            stop(FeedParseError(.entityLimit))
            return
        }
        // libxml2 stops expanding entity references once a document is known to be malformed
        // (`xmlParseReference` returns early), which would drop every `&eacute;` after the first recovered error
        // (Fixtures/broken-bad-entities.xml). Recovery is tracked here, so the flag is reset at the next entity
        // lookup (libxml2 clears it only after this callback returns).
        malformed = true
        errorCount += 1
        if errorCount <= 20 {
            let kind = value.level == XML_ERR_WARNING ? "XML warning" : "malformed XML (recovered)"
            warnings.append(SourceWarning("\(kind): \(message)", location: "line \(line), column \(column)"))
        } else if errorCount == 21 {
            warn("more XML errors follow; only the first 20 are reported")
        }
    }

    /// Puts back the text of a reference libxml2 rejected in element content, as HTML5 and feedparser read it: a raw
    /// `&` not starting a reference (`Fish & Chips`), one whose name is not closed by `;` (`?id=1&lang=en`) and an
    /// undefined entity (`&doesnotexist;`) stay as written. libxml2's recovery drops the `&`, the name and the `;`.
    ///
    /// Called from the error callback, when the rejected bytes are still in the input buffer just before the cursor:
    /// `&` (no name), `&name` (no `;`) or `&name;` (undefined). Attribute values are repaired separately (the parser
    /// is then reading an attribute value; see ``repairAttributeValues(_:count:)``); other errors about a missing name
    /// (`a < b`) lack the `&` and are left alone.
    func keepReferenceText(_ parserContext: xmlParserCtxtPtr) {
        guard parserContext.pointee.instate == XML_PARSER_CONTENT, let input = parserContext.pointee.input,
            let base = input.pointee.base, let cursor = input.pointee.cur, cursor > base
        else { return }
        var start = cursor - 1
        if start.pointee == 0x3B { start -= 1 }  // ;
        let limit = max(base, cursor - 64)
        while start >= limit, start.pointee != 0x26 {
            switch start.pointee {
            case 0x09, 0x0A, 0x0D, 0x20, 0x3B, 0x3C, 0x3E: return
            default: start -= 1
            }
        }
        guard start >= limit, start.pointee == 0x26 else { return }
        characters(start, count: cursor - start)
        keepPredefinedReferences(after: cursor, end: input.pointee.end)
    }

    /// Puts back the predefined references (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`) that follow a rejected
    /// one with nothing between (`&foo;&amp;`, `&&lt;`): libxml2 stops expanding references once the document is
    /// malformed and looks none of these up (``markWellFormed()`` runs at a lookup), so it would leave them out, and
    /// `Pat E&lt;/p&gtgt;&lt;p&gt;` lost its `<`. Called from the error callback, before libxml2 reads them; those
    /// not yet in the input are read after ``markWellFormed()`` runs between chunks.
    private func keepPredefinedReferences(after cursor: UnsafePointer<xmlChar>, end: UnsafePointer<xmlChar>?) {
        guard let end else { return }
        var position = cursor
        while position < end, position.pointee == 0x26 {
            let length = end - position
            func named(_ name: StaticString) -> Bool {
                let count = name.utf8CodeUnitCount
                guard length >= count + 2, (position + count + 1).pointee == 0x3B else { return false }
                return memcmp(position + 1, name.utf8Start, count) == 0
            }
            let character: UInt8
            let count: Int
            if named("amp") {
                (character, count) = (0x26, 5)
            } else if named("lt") {
                (character, count) = (0x3C, 4)
            } else if named("gt") {
                (character, count) = (0x3E, 4)
            } else if named("quot") {
                (character, count) = (0x22, 6)
            } else if named("apos") {
                (character, count) = (0x27, 6)
            } else {
                return
            }
            withUnsafePointer(to: character) { characters($0, count: 1) }
            position += count
        }
    }

    /// Puts U+FFFD where libxml2 dropped a numeric character reference to a character XML does not allow (`&#0;`,
    /// a surrogate such as `&#xD800;`, `&#1114112;` beyond Unicode), as HTML5 and feedparser read it, instead of
    /// losing it silently. A reference to a control character (`&#x1F;` in a French news site's `o&#x1F;ffre`) is
    /// left out, as the raw control character is: U+FFFD in the middle of a word helps no reader. Called from the
    /// error callback with the cursor just after the reference's `;`; attribute values are repaired by
    /// ``repairAttributeValues(_:count:)``, which reads such references the same way.
    func replaceInvalidCharacterReference(_ parserContext: xmlParserCtxtPtr) {
        guard parserContext.pointee.instate == XML_PARSER_CONTENT, let input = parserContext.pointee.input,
            let base = input.pointee.base, let cursor = input.pointee.cur, cursor - base >= 4,
            (cursor - 1).pointee == 0x3B
        else { return }
        var start = cursor - 2
        let limit = max(base, cursor - 16)
        while start > limit, start.pointee != 0x26 {
            let byte = start.pointee | 0x20
            guard
                (0x30...0x39).contains(start.pointee) || (0x61...0x66).contains(byte) || byte == 0x78
                    || start.pointee == 0x23
            else { return }
            start -= 1
        }
        guard start.pointee == 0x26, (start + 1).pointee == 0x23 else { return }
        if let (value, _) = FeedText.entity(UnsafeBufferPointer(start: start, count: cursor - start), at: 0),
            (1...0x1F).contains(value)
        {
            return
        }
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        replacement.withUnsafeBufferPointer { buffer in
            guard let pointer = buffer.baseAddress else { return }
            characters(pointer, count: buffer.count)
        }
    }

    /// Reads again, from the raw start tag, the attribute values in which libxml2 dropped a reference: a raw `&`
    /// (`href="/x?a=1&b=2"` would become `/x?a=1=2`) stays `&`, as in element text (``keepReferenceText(_:)``).
    ///
    /// When `startElementNs` is called the whole start tag is still in the input buffer, with the cursor on its `>`
    /// or `/>`. The values are decoded leniently (``FeedText/decodeEntities(_:)``), normalised as XML does (tab, line
    /// feed and carriage return become spaces) and written with `&` as `&#38;`, libxml2's own convention that
    /// ``Attributes/value(at:)`` undoes. The attribute array points at the new values until
    /// ``restoreAttributeValues(_:_:)`` puts libxml2's pointers back (libxml2 frees its own values after the call).
    func repairAttributeValues(
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        count: Int
    ) -> [AttributePatch] {
        guard let attributes, count > 0, let context, let input = context.pointee.input,
            let base = input.pointee.base, let cursor = input.pointee.cur, cursor > base
        else { return [] }
        var start = cursor - 1
        let limit = max(base, cursor - 65536)
        while start > limit, start.pointee != 0x3C { start -= 1 }
        guard start.pointee == 0x3C else { return [] }
        let raw = Self.rawAttributes(UnsafeBufferPointer(start: start, count: cursor - start))
        var patches: [AttributePatch] = []
        for index in 0..<count {
            guard let local = attributes[index * 5] else { continue }
            var name: [UInt8] = []
            if let prefix = attributes[index * 5 + 1] {
                name.append(contentsOf: UnsafeBufferPointer(start: prefix, count: strlen(prefix)))
                name.append(0x3A)
            }
            name.append(contentsOf: UnsafeBufferPointer(start: local, count: strlen(local)))
            guard let value = raw.first(where: { $0.name == name })?.value, value.contains(0x26) else { continue }
            var output: [UInt8] = []
            for byte in value.withUnsafeBufferPointer({ FeedText.decodeEntities($0) }) {
                switch byte {
                case 0x26: output.append(contentsOf: [0x26, 0x23, 0x33, 0x38, 0x3B])
                case 0x09, 0x0A, 0x0D: output.append(0x20)
                default: output.append(byte)
                }
            }
            let storage = UnsafeMutablePointer<xmlChar>.allocate(capacity: max(output.count, 1))
            storage.initialize(from: output, count: output.count)
            patches.append(
                AttributePatch(
                    index: index,
                    start: attributes[index * 5 + 3],
                    end: attributes[index * 5 + 4],
                    storage: storage
                )
            )
            attributes[index * 5 + 3] = UnsafePointer(storage)
            attributes[index * 5 + 4] = UnsafePointer(storage + output.count)
        }
        return patches
    }

    func restoreAttributeValues(
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        _ patches: [AttributePatch]
    ) {
        guard let attributes else { return }
        for patch in patches {
            attributes[patch.index * 5 + 3] = patch.start
            attributes[patch.index * 5 + 4] = patch.end
            patch.storage.deallocate()
        }
    }

    /// The attributes of a raw start tag (`<name a="1" b='2'>`) as written, names with their prefixes.
    static func rawAttributes(_ tag: UnsafeBufferPointer<UInt8>) -> [(name: [UInt8], value: [UInt8])] {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var index = 1
        while index < tag.count, !isSpace(tag[index]), tag[index] != 0x3E, tag[index] != 0x2F { index += 1 }
        var result: [(name: [UInt8], value: [UInt8])] = []
        while index < tag.count {
            while index < tag.count, isSpace(tag[index]) { index += 1 }
            let nameStart = index
            while index < tag.count, !isSpace(tag[index]), tag[index] != 0x3D, tag[index] != 0x3E, tag[index] != 0x2F {
                index += 1
            }
            let name = Array(tag[nameStart..<index])
            while index < tag.count, isSpace(tag[index]) { index += 1 }
            guard index < tag.count, tag[index] == 0x3D else {
                if name.isEmpty { index += 1 }
                continue
            }
            index += 1
            while index < tag.count, isSpace(tag[index]) { index += 1 }
            guard index < tag.count, tag[index] == 0x22 || tag[index] == 0x27 else { continue }
            let quote = tag[index]
            index += 1
            let valueStart = index
            while index < tag.count, tag[index] != quote { index += 1 }
            result.append((name, Array(tag[valueStart..<index])))
            index += 1
        }
        return result
    }

    /// Returns an entity for a name libxml2 does not know: HTML's named entities (`&nbsp;`, `&eacute;`), which
    /// feeds use without declaring them. Predefined and internally declared entities come from libxml2 itself.
    func htmlEntity(_ name: UnsafePointer<xmlChar>) -> xmlEntityPtr? {
        markWellFormed()
        var bytes: [UInt8] = []
        var cursor = name
        while cursor.pointee != 0, bytes.count < 32 {
            bytes.append(cursor.pointee)
            cursor += 1
        }
        guard let value = FeedText.namedEntity(bytes) else { return nil }
        if entityDocument == nil {
            entityDocument = xmlNewDoc(nil)
            _ = xmlCreateIntSubset(entityDocument, nil, nil, nil)
        }
        guard let document = entityDocument else { return nil }
        if let existing = xmlGetDocEntity(document, name) { return existing }
        var content: [UInt8] = []
        FeedText.appendUTF8(value, to: &content)
        if value == 0x26 || value == 0x3C {
            content = Array((value == 0x26 ? "&#38;" : "&#60;").utf8)
        }
        content.append(0)
        return content.withUnsafeBufferPointer {
            xmlAddDocEntity(document, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, $0.baseAddress)
        }
    }

    /// See ``error(_:)``: lets libxml2 expand entities again after a recovered error.
    func markWellFormed() {
        if malformed, let context {
            context.pointee.wellFormed = 1
            malformed = false
        }
    }
}
