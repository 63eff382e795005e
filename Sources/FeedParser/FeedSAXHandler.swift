import CLibXML2
import Foundation
import TributaryCore

/// The state behind libxml2's SAX2 callbacks: it records element starts and ends, appends text to one buffer,
/// and builds an item each time an item or entry element closes.
///
/// Callbacks never throw and never call back into Swift concurrency; problems are recorded (``stopReason``,
/// ``warnings``) and picked up by ``StreamingFeedParser`` between chunks.
final class FeedSAXHandler {
    /// How the text of a captured element is to be read.
    enum TextType {
        /// Plain text (Atom `type="text"`, RSS fields such as `guid`).
        case text
        /// HTML, escaped in the feed (RSS `description`, Atom `type="html"`).
        case html
        /// Inline XHTML markup (Atom `type="xhtml"`), serialized back to HTML.
        case xhtml
        /// Base64 (Atom 0.3 `mode="base64"`, an Atom 1.0 type that is neither text nor XML), decoded to text.
        case base64
    }

    /// Whose field a captured element fills.
    enum Scope {
        case item, channel, author, origin, channelImage
    }

    // The hot stored properties are marked `@exclusivity(unchecked)`: the handler is only ever used from one
    // callback at a time, and the runtime's dynamic exclusivity checks cost about 8% of parse time.
    /// The feed's copyright or licence statement, plain text.
    private var channelRights: String?

    /// The `xml:lang` of the root or channel element: the feed's language when no `language` element names one.
    private var channelXMLLang: String?

    /// The `xml:lang` values in force: the depth of the element that set each, innermost last.
    private var languages: [(depth: Int, value: String)] = []

    /// The `xml:lang` in force, `nil` when none is (or the innermost one is empty, which unsets it).
    private var currentLanguage: String? {
        guard let value = languages.last?.value, !value.isEmpty else { return nil }
        return value
    }

    private struct Frame {
        var kind: ElementKind
        var baseCount: Int
        /// The element's local name and prefix, interned in the parser's dictionary, for tag mismatch recovery.
        var localName: UnsafePointer<xmlChar>
        var prefix: UnsafePointer<xmlChar>?
        /// The prefix written for the element in captured markup: its own, or none for an XHTML element.
        var writtenPrefix: UnsafePointer<xmlChar>? = nil
    }

    private struct NameKey: Hashable {
        var localName: UInt
        var namespace: UInt
    }

    private struct CacheEntry {
        var localName: UnsafePointer<xmlChar>?
        var namespace: UnsafePointer<xmlChar>?
        var kind: ElementKind
    }

    let options: FeedParserOptions
    /// The parser context, for line numbers and for stopping the parser.
    var context: xmlParserCtxtPtr?
    /// Set when the parser must stop: not a feed, entity limit.
    @exclusivity(unchecked) private(set) var stopReason: FeedParseError?
    private(set) var format: FeedFormat?
    private(set) var rootSeen = false
    /// The most recent libxml2 error message, for messages about input that could not be read at all.
    private(set) var lastError: (message: String, line: Int, column: Int)?
    /// The items closed since the parser last took them, not yet built (see ``PendingFeedItem``).
    @exclusivity(unchecked) var completed: [PendingFeedItem] = []
    private let itemContext: PendingFeedItem.Context
    var warnings: [SourceWarning] = []
    private var errorCount = 0
    @exclusivity(unchecked) private var malformed = false

    // Channel header.
    private var channelTitle: String?
    private var channelLink: String?
    private var channelFeedURL: String?
    private var channelDescription: String?
    private var channelLanguage: String?
    private var channelGenerator: String?
    private var channelImage: String?
    private var channelUpdated: Date?
    private var channelAuthors: [FeedItem.Author] = []

    // Element state.
    @exclusivity(unchecked) private var stack: [Frame] = []
    @exclusivity(unchecked) private var bases: [String] = []
    @exclusivity(unchecked) private var skippedDepth = 0
    /// Tag mismatch recovery (see ``noteMismatch(_:)``): the depth of the element the next end closes down to, and
    /// for each element closed here but still open for libxml2, the stack depth at which libxml2 will end it.
    @exclusivity(unchecked) private var pendingCloseDepth = -1
    @exclusivity(unchecked) private var phantomBases: [Int] = []
    /// Set when libxml2 dropped a reference in an attribute value of the start tag being read; see
    /// ``repairAttributeValues(_:count:)``.
    @exclusivity(unchecked) private var attributeReferenceDropped = false
    /// Ends libxml2 reports for elements it was made to keep open after a stray end tag; see ``error(_:context:)``.
    @exclusivity(unchecked) private var strayEnds = 0
    private var depthWarned = false
    private var atomWithoutNamespace = false
    @exclusivity(unchecked) private var cache = [CacheEntry](
        repeating: CacheEntry(localName: nil, namespace: nil, kind: .other),
        count: 1024
    )
    private var overflow: [NameKey: ElementKind] = [:]
    @exclusivity(unchecked) private var item = ItemBuilder()
    /// The capacity the next item's text starts with: from the length of the last one's.
    @exclusivity(unchecked) private var itemTextCapacity = 0
    /// Whether ``item`` is the new builder ``completeItem()`` left, ready for the next item.
    @exclusivity(unchecked) private var itemIsNew = false
    @exclusivity(unchecked) private var inItem = false
    @exclusivity(unchecked) private var itemDepth = -1
    private var author: FeedItem.Author?
    private var authorScope = Scope.item
    @exclusivity(unchecked) private var sourceDepth = -1
    private var origin = TributaryExtension.Origin()

    // Text capture.
    @exclusivity(unchecked) private var capturing: ElementKind?
    @exclusivity(unchecked) private var captureScope = Scope.item
    @exclusivity(unchecked) private var captureDepth = -1
    @exclusivity(unchecked) private var captureType = TextType.text
    /// What the text of a `mode="base64"` element is once decoded (Atom 0.3 says it with `type`).
    private var base64Type = TextType.text
    @exclusivity(unchecked) private var captureBaseCount = 0
    private var captureAttribute: String?
    @exclusivity(unchecked) private var xhtmlWrapperDepth = -1
    private let text = TextBuffer()
    @exclusivity(unchecked) private var truncated = false

    // Entity expansion accounting.
    @exclusivity(unchecked) private var charactersDelivered = 0
    @exclusivity(unchecked) var bytesFed = 0

    // HTML entities that feeds use without declaring them, served from a private document.
    private var entityDocument: xmlDocPtr?

    private let baseURLString: String?
    /// The last base URL used, split once.
    private var resolverBase: URLResolver.Base?

    init(options: FeedParserOptions) {
        self.options = options
        baseURLString = options.baseURL?.absoluteString
        itemContext = PendingFeedItem.Context(options: options)
    }

    deinit {
        if let entityDocument { xmlFreeDoc(entityDocument) }
    }

    /// The channel header, once the root element told the format.
    var metadata: FeedMetadata? {
        guard let format else { return nil }
        return FeedMetadata(
            format: format,
            title: channelTitle,
            link: channelLink,
            feedURL: channelFeedURL,
            description: channelDescription,
            language: channelLanguage ?? channelXMLLang,
            authors: channelAuthors,
            generator: channelGenerator,
            image: channelImage,
            updated: channelUpdated,
            rights: channelRights.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    // MARK: - Elements

    func startElement(
        _ localName: UnsafePointer<xmlChar>,
        prefix: UnsafePointer<xmlChar>?,
        namespace: UnsafePointer<xmlChar>?,
        attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard stopReason == nil else { return }
        if malformed { markWellFormed() }
        if attributeReferenceDropped {
            attributeReferenceDropped = false
            let patches = repairAttributeValues(attributes, count: attributeCount)
            defer { restoreAttributeValues(attributes, patches) }
            startElementBody(
                localName,
                prefix: prefix,
                namespace: namespace,
                attributeCount: attributeCount,
                attributes: attributes
            )
            return
        }
        startElementBody(
            localName,
            prefix: prefix,
            namespace: namespace,
            attributeCount: attributeCount,
            attributes: attributes
        )
    }

    private func startElementBody(
        _ localName: UnsafePointer<xmlChar>,
        prefix: UnsafePointer<xmlChar>?,
        namespace: UnsafePointer<xmlChar>?,
        attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let depth = stack.count
        if skippedDepth > 0 || depth >= options.maxDepth {
            skippedDepth += 1
            if !depthWarned {
                depthWarned = true
                warn("elements nested deeper than \(options.maxDepth) levels were skipped")
            }
            return
        }
        let attributes = Attributes(pointer: attributes, count: attributeCount)
        let kind = classify(localName, namespace)
        var baseCount = stack.last?.baseCount ?? 0
        if attributeCount > 0, let base = attributes.xmlBase() {
            if bases.count > baseCount { bases.removeSubrange(baseCount...) }
            bases.append(resolve(base, baseCount: baseCount))
            baseCount += 1
        }
        if attributeCount > 0, let language = attributes.xmlLang() {
            languages.append((depth, language.trimmingCharacters(in: .whitespaces)))
        }
        stack.append(Frame(kind: kind, baseCount: baseCount, localName: localName, prefix: prefix))

        if capturing != nil, captureScope == .item, kind == .item || kind == .atomEntry {
            // An unclosed element inside the previous item (Fixtures/broken-unclosed-tags.xml): close it.
            finishCapture()
        }
        if capturing != nil {
            if captureType == .xhtml, depth == captureDepth + 1, xhtmlWrapperDepth < 0, isXHTMLDiv(localName, namespace)
            {
                xhtmlWrapperDepth = depth
                return
            }
            // XHTML elements are written without their prefix (`<xhtml:p>` is `<p>` to an HTML reader).
            let written = Self.isXHTMLNamespace(namespace) ? nil : prefix
            stack[depth].writtenPrefix = written
            appendStartTag(localName, prefix: written, attributes: attributes)
            return
        }
        if depth == 0 || (depth == 1 && kind == .channel), channelXMLLang == nil, let language = currentLanguage {
            channelXMLLang = language
        }
        if depth == 0 {
            detectRoot(kind, localName, namespace, attributes)
            return
        }
        let parent = stack[depth - 1].kind
        if sourceDepth >= 0 {
            startInAtomSource(kind, parent: parent, attributes: attributes, baseCount: baseCount)
            return
        }
        if inItem {
            startInItem(kind, parent: parent, depth: depth, attributes: attributes, baseCount: baseCount)
        } else {
            startOutsideItem(kind, parent: parent, depth: depth, namespace: namespace, attributes: attributes)
        }
    }

    func endElement(_ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        if strayEnds > 0 {
            strayEnds -= 1
            return
        }
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        if pendingCloseDepth >= 0 || !phantomBases.isEmpty, recoverEnd() { return }
        closeTop(localName, prefix: prefix)
    }

    /// Handles an end while tag mismatch recovery is under way; returns whether it did.
    ///
    /// libxml2 answers a mismatched end tag (`<description>bold <b>x</description>`) by closing only its innermost
    /// open element (`b`), so `description` would swallow the item's following `<link>` and `<guid>`. Instead, when
    /// the end tag names an element of the text being captured, this closes everything down to that element, as
    /// HTML parsers do, and remembers the elements libxml2 still thinks open ("phantoms"), to ignore their ends.
    private func recoverEnd() -> Bool {
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
    /// when the end tag names an open element at or inside the captured one, the next end closes down to it.
    private func noteMismatch(_ endTagName: UnsafeMutablePointer<CChar>?) {
        guard capturing != nil, skippedDepth == 0, let endTagName else { return }
        var local = UnsafePointer(endTagName)
        if let colon = strrchr(endTagName, 0x3A) { local = UnsafePointer(colon + 1) }
        var index = stack.count - 2
        while index >= captureDepth, index >= 0 {
            if strcmp(UnsafeRawPointer(stack[index].localName).assumingMemoryBound(to: CChar.self), local) == 0 {
                pendingCloseDepth = index
                return
            }
            index -= 1
        }
    }

    private func closeTop(_ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        guard let frame = stack.popLast() else { return }
        let depth = stack.count
        if let last = languages.last, last.depth >= depth { languages.removeLast() }
        if capturing != nil {
            if depth == captureDepth {
                finishCapture()
            } else if depth == xhtmlWrapperDepth {
                xhtmlWrapperDepth = -1
            } else if depth > captureDepth {
                appendEndTag(localName, prefix: frame.writtenPrefix)
            }
            return
        }
        switch frame.kind {
        case .item, .atomEntry:
            if depth == itemDepth, inItem {
                completeItem()
                inItem = false
                itemDepth = -1
            }
        case .atomAuthor, .atomContributor:
            if let author {
                if author.name != nil || author.email != nil || author.url != nil, frame.kind == .atomAuthor {
                    if authorScope == .item { item.authors.append(author) } else { channelAuthors.append(author) }
                }
                self.author = nil
            }
        case .atomSource:
            if depth == sourceDepth {
                sourceDepth = -1
                if origin.title != nil || origin.url != nil { item.origin = origin }
            }
        default:
            break
        }
    }

    /// Called at the end of the input. An item cut off by truncation is kept with a warning, without the field
    /// the input ended in: a title or link cut in the middle is missing rather than partial (`http://exa`).
    func finishDocument() {
        if capturing != nil {
            if captureScope == .item {
                capturing = nil
                captureAttribute = nil
                warn("the input ended inside a field of the last item; the partial field was dropped")
            } else {
                finishCapture()
            }
        }
        if inItem {
            completeItem()
            warn("the input ended inside an item; the partial item was kept")
        }
        inItem = false
    }

    /// Moves the item being read to ``completed``, leaving an empty builder for the next one.
    private func completeItem() {
        // The next item's text will likely be about as long: reserved at once (with room to spare), it is seldom
        // reallocated as it grows.
        let length = item.rawBytes.count
        itemTextCapacity = min(length + length / 2, 1 << 16)
        var finished = ItemBuilder(textCapacity: itemTextCapacity)
        swap(&finished, &item)
        itemIsNew = true
        completed.append(PendingFeedItem(builder: finished, context: itemContext))
    }

    // MARK: - Text

    func characters(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        charactersDelivered &+= count
        if charactersDelivered > (64 << 20) + bytesFed &* 16, stopReason == nil {
            stop(FeedParseError(.entityLimit))
            return
        }
        // After a recovered error libxml2 drops even `&amp;` (see ``error(_:context:)``); the text after the error
        // is the first chance to undo that.
        if malformed { markWellFormed() }
        guard capturing != nil, skippedDepth == 0, !truncated else { return }
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        if captureType == .xhtml || stack.count - 1 > captureDepth && captureType != .text {
            if text.count + count * 6 > options.maxTextBytes {
                // Escaped text is cut at the last whole run rather than mid-escape.
                truncate(adding: UnsafeBufferPointer(start: bytes, count: 0))
            } else {
                text.appendEscaped(buffer)
            }
        } else if text.count + count > options.maxTextBytes {
            truncate(adding: buffer)
        } else {
            text.append(bytes, count: count)
        }
    }

    // MARK: - Errors

    func error(_ error: UnsafePointer<xmlError>, context errorContext: xmlParserCtxtPtr) {
        let value = error.pointee
        switch xmlParserErrors(UInt32(bitPattern: value.code)) {
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
    private func keepReferenceText(_ parserContext: xmlParserCtxtPtr) {
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
    }

    /// Puts U+FFFD where libxml2 dropped a numeric character reference to a character XML does not allow (`&#0;`,
    /// a surrogate such as `&#xD800;`, `&#1114112;` beyond Unicode), as HTML5 and feedparser read it, instead of
    /// losing it silently. Called from the error callback with the cursor just after the reference's `;`; attribute
    /// values are repaired by ``repairAttributeValues(_:count:)``, which reads such references the same way.
    private func replaceInvalidCharacterReference(_ parserContext: xmlParserCtxtPtr) {
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
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        replacement.withUnsafeBufferPointer { buffer in
            guard let pointer = buffer.baseAddress else { return }
            characters(pointer, count: buffer.count)
        }
    }

    /// An attribute value replaced for the duration of one `startElement` call.
    private struct AttributePatch {
        var index: Int
        var start: UnsafePointer<xmlChar>?
        var end: UnsafePointer<xmlChar>?
        var storage: UnsafeMutablePointer<xmlChar>
    }

    /// Reads again, from the raw start tag, the attribute values in which libxml2 dropped a reference: a raw `&`
    /// (`href="/x?a=1&b=2"` would become `/x?a=1=2`) stays `&`, as in element text (``keepReferenceText(_:)``).
    ///
    /// When `startElementNs` is called the whole start tag is still in the input buffer, with the cursor on its `>`
    /// or `/>`. The values are decoded leniently (``FeedText/decodeEntities(_:)``), normalised as XML does (tab, line
    /// feed and carriage return become spaces) and written with `&` as `&#38;`, libxml2's own convention that
    /// ``Attributes/value(at:)`` undoes. The attribute array points at the new values until
    /// ``restoreAttributeValues(_:_:)`` puts libxml2's pointers back (libxml2 frees its own values after the call).
    private func repairAttributeValues(
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

    private func restoreAttributeValues(
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

    // MARK: - Private

    private func stop(_ error: FeedParseError) {
        stopReason = error
        if let context { xmlStopParser(context) }
    }

    private func warn(_ message: String) {
        let line = context.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) }
        warnings.append(SourceWarning(message, location: line.map { "line \($0)" }))
    }

    private func classify(_ localName: UnsafePointer<xmlChar>, _ namespace: UnsafePointer<xmlChar>?) -> ElementKind {
        // Fibonacci hashing of both interned pointers into a 1024-slot direct-mapped cache, backed by a dictionary
        // so that two names sharing a slot cost a hash lookup, not a classification by strings.
        let hash =
            UInt(bitPattern: localName) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: namespace) &* 0xC2B2_AE3D_27D4_EB4F
        let slot = Int(truncatingIfNeeded: hash >> 54)
        let entry = cache[slot]
        if entry.localName == localName, entry.namespace == namespace { return entry.kind }
        let key = NameKey(localName: UInt(bitPattern: localName), namespace: UInt(bitPattern: namespace))
        if let kind = overflow[key] {
            cache[slot] = CacheEntry(localName: localName, namespace: namespace, kind: kind)
            return kind
        }
        let kind = ElementKind.classify(
            namespace: namespace.map { String(cString: $0) } ?? "",
            localName: String(cString: localName),
            atomWithoutNamespace: atomWithoutNamespace
        )
        cache[slot] = CacheEntry(localName: localName, namespace: namespace, kind: kind)
        overflow[key] = kind
        return kind
    }

    private func detectRoot(
        _ kind: ElementKind,
        _ localName: UnsafePointer<xmlChar>,
        _ namespace: UnsafePointer<xmlChar>?,
        _ attributes: Attributes
    ) {
        rootSeen = true
        switch kind {
        case .rss:
            switch attributes.value("version")?.trimmingCharacters(in: .whitespaces) {
            case "0.91": format = .rss091
            case "0.92": format = .rss092
            case "0.90", "0.9": format = .rss090
            default: format = .rss20
            }
        case .rdf:
            format = .rss10
        case .atomFeed:
            let uri = namespace.map { String(cString: $0) }
            format = uri == "http://purl.org/atom/ns#" ? .atom03 : .atom10
        case .atomEntry:
            // An Atom entry document (RFC 4287 section 4.1.2): one entry, read as a feed of one item.
            let uri = namespace.map { String(cString: $0) }
            format = uri == "http://purl.org/atom/ns#" ? .atom03 : .atom10
            if !itemIsNew { item = ItemBuilder(textCapacity: itemTextCapacity) }
            itemIsNew = false
            inItem = true
            itemDepth = 0
            item.language = currentLanguage
        default:
            let name = String(cString: localName)
            if name == "feed", namespace == nil {
                // A namespace-less Atom feed: read its elements as Atom.
                atomWithoutNamespace = true
                cache = cache.map { _ in CacheEntry(localName: nil, namespace: nil, kind: .other) }
                overflow.removeAll()
                // The root frame was classified before the flag was set; its entries are matched on it.
                stack[0].kind = .atomFeed
                format = attributes.value("version") == "0.3" ? .atom03 : .atom10
                warn("the <feed> element has no Atom namespace; read as Atom anyway")
            } else {
                let uri = namespace.map { " in namespace \(String(cString: $0))" } ?? ""
                stop(FeedParseError(.notAFeed("the root element is <\(name)>\(uri)")))
            }
        }
    }

    private func startOutsideItem(
        _ kind: ElementKind,
        parent: ElementKind,
        depth: Int,
        namespace: UnsafePointer<xmlChar>?,
        attributes: Attributes
    ) {
        let inChannel = parent == .channel || parent == .atomFeed
        switch kind {
        case .channel where format == .rss10:
            if namespace.map({ String(cString: $0) }) == "http://my.netscape.com/rdf/simple/0.9/" { format = .rss090 }
        case .item where parent == .channel || parent == .rdf || parent == .rss,
            .atomEntry where parent == .atomFeed:
            // A builder left by an item that never ended is replaced; one that ``completeItem()`` put there is new.
            if !itemIsNew { item = ItemBuilder(textCapacity: itemTextCapacity) }
            itemIsNew = false
            inItem = true
            itemDepth = depth
            item.language = currentLanguage
            if kind == .item { readRDFAbout(attributes) }
        case .title, .atomTitle, .dcTitle, .link, .description, .dcDescription, .atomSubtitle, .language, .dcLanguage,
            .generator, .atomGenerator, .lastBuildDate, .pubDate, .dcDate, .atomUpdated, .managingEditor, .dcCreator,
            .atomLogo, .atomIcon, .author, .itunesAuthor, .rights, .itunesSummary:
            guard inChannel else { return }
            if kind == .atomGenerator, channelGenerator == nil, let version = attributes.value("version") {
                captureAttribute = version
            } else {
                captureAttribute = nil
            }
            beginCapture(kind, scope: .channel, depth: depth, type: textType(kind, attributes))
        case .url where parent == .image:
            beginCapture(kind, scope: .channelImage, depth: depth, type: .text)
        case .atomLink where inChannel:
            let rel = attributes.value("rel") ?? "alternate"
            guard let href = attributes.value("href") ?? attributes.value("url") else { return }
            let resolved = resolve(href, baseCount: stack[depth].baseCount)
            if rel == "self" {
                channelFeedURL = channelFeedURL ?? resolved
            } else if rel == "alternate", channelLink == nil || format == .atom10 || format == .atom03 {
                if channelLink == nil || attributes.value("type").map({ $0.contains("html") }) == true {
                    channelLink = channelLink ?? resolved
                }
            }
        case .atomAuthor where inChannel:
            author = FeedItem.Author()
            authorScope = .channel
        case .atomName, .atomEmail, .atomURI:
            guard author != nil, parent == .atomAuthor || parent == .atomContributor else { return }
            beginCapture(kind, scope: .author, depth: depth, type: .text)
        case .itunesImage where inChannel:
            if channelImage == nil, let href = attributes.value("href") {
                channelImage = resolve(href, baseCount: stack[depth].baseCount)
            }
        default:
            break
        }
    }

    private func startInItem(
        _ kind: ElementKind,
        parent: ElementKind,
        depth: Int,
        attributes: Attributes,
        baseCount: Int
    ) {
        let direct = depth == itemDepth + 1
        let inMedia = direct || (parent == .mediaGroup && depth == itemDepth + 2)
        switch kind {
        case .item, .atomEntry:
            // The previous item was never closed (broken markup): keep it and start the next one.
            completeItem()
            warn("an item was not closed before the next one started")
            itemDepth = depth
            item.language = currentLanguage
            if kind == .item { readRDFAbout(attributes) }
        case .title, .atomTitle, .dcTitle, .link, .description, .dcDescription, .contentEncoded, .atomContent,
            .atomSummary, .guid, .atomID, .pubDate, .dcDate, .atomPublished, .atomUpdated, .author, .dcCreator,
            .itunesAuthor, .category, .dcSubject, .itunesDuration, .source, .itunesSummary, .language, .dcLanguage,
            .fullitem, .xhtmlBody, .rights:
            guard direct else { return }
            if kind == .guid {
                item.guidIsPermaLink = !attributes.has("isPermaLink", equalTo: "false")
            } else if kind == .source {
                captureAttribute = attributes.value("url")
            }
            if kind == .atomContent, item.firstAtomLink == nil, let src = attributes.value("src") {
                let resolved = resolve(src, baseCount: baseCount)
                item.firstAtomLink = resolved
            }
            beginCapture(kind, scope: .item, depth: depth, type: textType(kind, attributes))
        case .atomLink:
            guard direct, let href = attributes.value("href") ?? attributes.value("url") else { return }
            let resolved = resolve(href, baseCount: baseCount)
            let rel = attributes.value("rel") ?? "alternate"
            switch rel {
            case "alternate":
                if item.alternateLink == nil { item.alternateLink = resolved }
            case "enclosure":
                item.addAttachment(
                    FeedItem.Attachment(
                        url: resolved,
                        mimeType: attributes.value("type"),
                        title: attributes.value("title"),
                        sizeInBytes: attributes.value("length").flatMap { Int($0) }
                    )
                )
            default:
                if item.firstAtomLink == nil, rel != "self", rel != "replies" { item.firstAtomLink = resolved }
            }
        case .atomAuthor where direct:
            author = FeedItem.Author()
            authorScope = .item
        case .atomContributor where direct:
            author = FeedItem.Author()
            authorScope = .item
        case .atomName, .atomEmail, .atomURI:
            guard author != nil, parent == .atomAuthor || parent == .atomContributor else { return }
            beginCapture(kind, scope: .author, depth: depth, type: .text)
        case .atomCategory where direct:
            if let term = attributes.value("term") ?? attributes.value("label") {
                let tag = FeedText.plainText(Array(term.utf8), stripTags: false, decodeEntities: false)
                if !tag.isEmpty { item.tags.append(tag) }
            } else {
                beginCapture(.category, scope: .item, depth: depth, type: .text)
            }
        case .enclosure where direct:
            guard let url = attributes.value("url") else { return }
            item.addAttachment(
                FeedItem.Attachment(
                    url: resolve(url, baseCount: baseCount),
                    mimeType: attributes.value("type"),
                    sizeInBytes: attributes.value("length").flatMap { Int(Self.trimmed($0)) }
                )
            )
        case .mediaContent where inMedia:
            guard let url = attributes.value("url") else { return }
            var mime = attributes.value("type")
            if mime == nil, attributes.value("medium") == "image" { mime = "image/*" }
            item.addAttachment(
                FeedItem.Attachment(
                    url: resolve(url, baseCount: baseCount),
                    mimeType: mime,
                    sizeInBytes: attributes.value("fileSize").flatMap { Int($0) },
                    durationInSeconds: attributes.value("duration").flatMap { Double($0) }
                )
            )
        case .mediaTitle where inMedia:
            beginCapture(kind, scope: .item, depth: depth, type: textType(kind, attributes))
        case .mediaThumbnail where inMedia:
            if item.thumbnail == nil, let url = attributes.value("url") {
                item.thumbnail = resolve(url, baseCount: baseCount)
            }
        case .itunesImage where direct:
            if let href = attributes.value("href") { item.itunesImage = resolve(href, baseCount: baseCount) }
        case .atomSource where direct:
            sourceDepth = depth
            origin = TributaryExtension.Origin()
        default:
            break
        }
    }

    /// RSS 1.0 names each item by its `rdf:about` URI, which is its id when it has no guid.
    private func readRDFAbout(_ attributes: Attributes) {
        guard attributes.count > 0,
            let about = attributes.value("about", namespace: "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
        else { return }
        let trimmed = Self.trimmed(about)
        if !trimmed.isEmpty { item.rdfAbout = trimmed }
    }

    private func startInAtomSource(_ kind: ElementKind, parent: ElementKind, attributes: Attributes, baseCount: Int) {
        guard parent == .atomSource else { return }
        switch kind {
        case .atomTitle:
            beginCapture(kind, scope: .origin, depth: stack.count - 1, type: textType(kind, attributes))
        case .atomLink:
            let rel = attributes.value("rel") ?? "alternate"
            if rel == "alternate", origin.url == nil, let href = attributes.value("href") {
                origin.url = resolve(href, baseCount: baseCount)
            }
        default:
            break
        }
    }

    private func textType(_ kind: ElementKind, _ attributes: Attributes) -> TextType {
        switch kind {
        case .atomTitle, .atomContent, .atomSummary, .atomSubtitle, .rights:
            if let mode = attributes.value("mode") {  // Atom 0.3
                if mode == "escaped" { return .html }
                if mode == "xml" { return .xhtml }
                if mode == "base64" {
                    // What the decoded text is: HTML when the type says so (read as escaped HTML), else text.
                    let type = attributes.value("type")?.lowercased()
                    base64Type =
                        type == "html" || type == "text/html" || type?.hasSuffix("xhtml+xml") == true
                            || type == "xhtml" ? .html : .text
                    return .base64
                }
            }
            switch attributes.value("type") {
            case "html", "text/html": return .html
            case "xhtml", "application/xhtml+xml": return .xhtml
            case nil, "text", "text/plain": return attributes.value("mode") == "xml" ? .xhtml : .text
            case let type?:
                // Atom 1.0 (RFC 4287 3.1.1.3): any other media type that is not text or XML is base64-encoded.
                let lowered = type.lowercased()
                if lowered != "text", !lowered.hasPrefix("text/"), !lowered.hasSuffix("+xml"),
                    !lowered.hasSuffix("/xml"),
                    lowered.contains("/")
                {
                    return .base64
                }
                return attributes.value("mode") == "xml" ? .xhtml : .text
            }
        case .description, .dcDescription, .contentEncoded, .itunesSummary, .title, .dcTitle, .fullitem:
            return .html
        case .xhtmlBody:
            return .xhtml
        default:
            return .text
        }
    }

    private func beginCapture(_ kind: ElementKind, scope: Scope, depth: Int, type: TextType) {
        capturing = kind
        captureScope = scope
        captureDepth = depth
        captureType = type
        captureBaseCount = stack[depth].baseCount
        xhtmlWrapperDepth = -1
        truncated = false
        text.removeAll()
    }

    private func truncate(adding buffer: UnsafeBufferPointer<UInt8>) {
        let room = max(0, options.maxTextBytes - text.count)
        var end = min(room, buffer.count)
        // Do not cut a UTF-8 sequence in half.
        while end > 0, end < buffer.count, buffer[end] & 0xC0 == 0x80 { end -= 1 }
        text.append(UnsafeBufferPointer(rebasing: buffer[..<end]))
        truncated = true
        warn("a text node was longer than the budget of \(options.maxTextBytes) bytes and was truncated")
    }

    private func finishCapture() {
        guard let kind = capturing else { return }
        capturing = nil
        if captureType == .base64 { decodeBase64() }
        defer { captureAttribute = nil }
        switch captureScope {
        case .item: finishItemField(kind)
        case .channel: finishChannelField(kind)
        case .author:
            let value = trimmedText()
            guard !value.isEmpty else { return }
            switch kind {
            case .atomName: author?.name = FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
            case .atomEmail: author?.email = value
            default: author?.url = resolve(value, baseCount: captureBaseCount)
            }
        case .origin:
            origin.title = plainTitle()
        case .channelImage:
            let value = trimmedText()
            if !value.isEmpty, channelImage == nil { channelImage = resolve(value, baseCount: captureBaseCount) }
        }
    }

    private func finishItemField(_ kind: ElementKind) {
        guard inItem else { return }
        switch kind {
        case .title, .atomTitle:
            item.title = rawText(.plainText(markup: captureType != .text))
        case .dcTitle:
            if item.title == nil { item.title = rawText(.plainText(markup: captureType != .text)) }
        case .link:
            if item.link == nil { item.link = trimmedRawText(.url(RawText.LinkBase(base: urlBase(captureBaseCount)))) }
        case .description:
            item.description = rawText(.html(unescapingTwice: true, links: linkBase()))
        case .dcDescription, .itunesSummary:
            if item.description == nil { item.description = rawText(.html(unescapingTwice: true, links: linkBase())) }
        case .contentEncoded:
            item.contentEncoded = rawText(.html(unescapingTwice: false, links: linkBase()))
        case .rights:
            if item.rights == nil { item.rights = rawText(.plainText(markup: captureType != .text)) }
        case .fullitem:
            if item.contentEncoded == nil {
                item.contentEncoded = rawText(.html(unescapingTwice: false, links: linkBase()))
            }
        case .xhtmlBody:
            if item.contentEncoded == nil { item.contentEncoded = rawText(.trimmed) }
        case .atomContent:
            switch captureType {
            case .text, .base64: item.atomContentText = rawText(.verbatim)
            case .html: item.atomContentHTML = rawText(.html(unescapingTwice: false, links: linkBase()))
            case .xhtml: item.atomContentHTML = rawText(.trimmed)
            }
        case .atomSummary:
            item.summary = rawText(.plainText(markup: captureType != .text))
        case .guid:
            if let value = trimmedRawText(.verbatim) { item.guid = value }
        case .atomID:
            if let value = trimmedRawText(.verbatim) { item.atomID = value }
        case .pubDate, .atomPublished:
            if item.published == nil { item.published = parseDate() }
        case .dcDate:
            if item.dcDate == nil { item.dcDate = parseDate() }
        case .atomUpdated:
            item.updated = parseDate()
        case .author:
            if let author = Self.rssAuthor(trimmedText()) { item.authors.append(author) }
        case .dcCreator, .itunesAuthor:
            if let author = Self.rssAuthor(authorText()),
                item.authors.contains(where: { $0.name == author.name && $0.email == author.email }) == false
            {
                item.authors.append(author)
            }
        case .category, .dcSubject:
            let tag = FeedText.plainText(text.bytes)
            if !tag.isEmpty, item.tags.contains(tag) == false { item.tags.append(tag) }
        case .itunesDuration:
            item.itunesDuration = Self.duration(trimmedText())
        case .language, .dcLanguage:
            let value = trimmedText()
            if !value.isEmpty { item.language = value }
        case .mediaTitle:
            if item.mediaTitle == nil { item.mediaTitle = rawText(.plainText(markup: captureType != .text)) }
        case .source:
            let title = plainTitle()
            let url = captureAttribute.map { resolve($0, baseCount: captureBaseCount) }
            if !title.isEmpty || url != nil {
                item.origin = TributaryExtension.Origin(title: title.isEmpty ? nil : title, url: url)
            }
        default:
            break
        }
    }

    private func finishChannelField(_ kind: ElementKind) {
        switch kind {
        case .title, .atomTitle:
            channelTitle = plainTitle()
        case .dcTitle:
            if channelTitle == nil { channelTitle = plainTitle() }
        case .link:
            let value = trimmedText()
            if !value.isEmpty, channelLink == nil { channelLink = resolve(value, baseCount: captureBaseCount) }
        case .rights:
            if channelRights == nil { channelRights = plainTitle() }
        case .description, .dcDescription, .atomSubtitle, .itunesSummary:
            if channelDescription == nil {
                channelDescription =
                    captureType == .text
                    ? FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
                    : FeedText.plainText(text.bytes)
            }
        case .language, .dcLanguage:
            let value = trimmedText()
            if !value.isEmpty, channelLanguage == nil { channelLanguage = value }
        case .generator, .atomGenerator:
            let value = FeedText.plainText(text.bytes)
            if !value.isEmpty, channelGenerator == nil {
                channelGenerator = captureAttribute.map { "\(value) \($0)" } ?? value
            }
        case .lastBuildDate, .atomUpdated:
            channelUpdated = parseDate() ?? channelUpdated
        case .pubDate, .dcDate:
            if channelUpdated == nil { channelUpdated = parseDate() }
        case .managingEditor, .author, .dcCreator, .itunesAuthor:
            // `me@example.com (Jane Doe)` and `Jane Doe <me@example.com>` become a name and an address.
            if let author = Self.rssAuthor(authorText()), !channelAuthors.contains(author) {
                channelAuthors.append(author)
            }
        case .atomLogo, .atomIcon:
            let value = trimmedText()
            if !value.isEmpty, channelImage == nil || kind == .atomLogo {
                channelImage = resolve(value, baseCount: captureBaseCount)
            }
        default:
            break
        }
    }

    /// Replaces base64 text by what it encodes; it is then read as text. Only real base64 is decoded (white space
    /// aside, nothing but the base64 alphabet, and UTF-8 text inside): a title whose `type` is a media type we do not
    /// know but that holds plain words stays as written instead of becoming garbage.
    private func decodeBase64() {
        captureType = base64Type
        base64Type = .text
        var encoded = String(decoding: text.bytes, as: UTF8.self)
        encoded.removeAll { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let data = Data(base64Encoded: encoded), !data.isEmpty,
            data.withUnsafeBytes({ UTF8Sanitizer.isValid($0.bindMemory(to: UInt8.self)) })
        else { return }
        text.removeAll()
        text.append(Array(data))
    }

    private func plainTitle() -> String {
        captureType == .text
            ? FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false) : FeedText.plainText(text.bytes)
    }

    /// The captured text of an author element, white space collapsed; `<` stays, since `Name <a@b.example>` is
    /// text to split, not a tag.
    private func authorText() -> String {
        FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
    }

    private func trimmedText() -> String {
        FeedText.trimmed(text.bytes)
    }

    /// The captured text, kept in the item to be read as `reading` when it is built (see ``RawText``).
    private func rawText(_ reading: RawText.Reading) -> RawText {
        item.keep(text.bytes, as: reading)
    }

    /// The captured text without the white space around it, kept in the item to be read as `reading`; `nil` when
    /// nothing is left.
    private func trimmedRawText(_ reading: RawText.Reading) -> RawText? {
        let bytes = text.bytes
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] <= 0x20 { start += 1 }
        while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
        guard end > start else { return nil }
        return item.keep(UnsafeBufferPointer(rebasing: bytes[start..<end]), as: reading)
    }

    /// What relative links in the captured HTML resolve against; `nil` when there is no base at all (they are
    /// then left as written).
    private func linkBase() -> RawText.LinkBase? {
        guard captureBaseCount > 0 || baseURLString != nil else { return nil }
        return RawText.LinkBase(base: urlBase(captureBaseCount))
    }

    /// The base URL in effect `baseCount` entries into the `xml:base` chain, else the feed URL, split (and kept for
    /// the next reference); `nil` when there is none or it cannot be a base.
    private func urlBase(_ baseCount: Int) -> URLResolver.Base? {
        guard let base = baseString(baseCount) else { return nil }
        if resolverBase?.string != base { resolverBase = URLResolver.Base(base) }
        return resolverBase
    }

    private func parseDate() -> Date? {
        FeedDate.parse(bytes: text.bytes)
    }

    /// Resolves a URL reference against the `xml:base` chain in effect, then the feed URL.
    private func resolve(_ reference: String, baseCount: Int) -> String {
        let reference = Self.trimmed(reference)
        if Self.hasScheme(reference) { return reference }
        return urlBase(baseCount)?.resolve(reference) ?? reference
    }

    /// The base URL in effect `baseCount` entries into the `xml:base` chain, else the feed URL.
    private func baseString(_ baseCount: Int) -> String? {
        baseCount > 0 && baseCount <= bases.count ? bases[baseCount - 1] : baseURLString
    }

    /// Trims ASCII whitespace without Foundation (which bridges through `NSString` and was 40% of parse time).
    static func trimmed(_ string: String) -> String {
        let utf8 = string.utf8
        guard let first = utf8.first, let last = utf8.last, first <= 0x20 || last <= 0x20 else { return string }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, utf8[start] <= 0x20 { start = utf8.index(after: start) }
        while end > start, utf8[utf8.index(before: end)] <= 0x20 { end = utf8.index(before: end) }
        return String(string[start..<end])
    }

    static func hasScheme(_ string: String) -> Bool {
        var sawLetter = false
        for byte in string.utf8 {
            switch byte {
            case 0x3A: return sawLetter
            case 0x41...0x5A, 0x61...0x7A: sawLetter = true
            case 0x30...0x39, 0x2B, 0x2D, 0x2E: if !sawLetter { return false }
            default: return false
            }
        }
        return false
    }

    private func isXHTMLDiv(_ localName: UnsafePointer<xmlChar>, _ namespace: UnsafePointer<xmlChar>?) -> Bool {
        localName[0] == 0x64 && localName[1] == 0x69 && localName[2] == 0x76 && localName[3] == 0
    }

    private static func isXHTMLNamespace(_ namespace: UnsafePointer<xmlChar>?) -> Bool {
        guard let namespace else { return false }
        return strcmp(UnsafeRawPointer(namespace).assumingMemoryBound(to: CChar.self), "http://www.w3.org/1999/xhtml")
            == 0
    }

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]

    private func appendStartTag(
        _ localName: UnsafePointer<xmlChar>,
        prefix: UnsafePointer<xmlChar>?,
        attributes: Attributes
    ) {
        // Plain text has no markup: child elements of a text element (an Atom 0.3 title's naked `<b>`) give only
        // their text.
        guard !truncated, captureType != .text, text.count < options.maxTextBytes else { return }
        text.append(0x3C)
        appendName(localName, prefix: prefix)
        for index in 0..<attributes.count {
            guard let name = attributes.localName(at: index) else { continue }
            text.append(0x20)
            appendName(name, prefix: attributes.prefix(at: index))
            text.append(0x3D)
            text.append(0x22)
            var value = Array(attributes.value(at: index).utf8)
            if attributes.isURL(at: index) {
                let resolved = resolve(String(decoding: value, as: UTF8.self), baseCount: stack.last?.baseCount ?? 0)
                value = Array(resolved.utf8)
            }
            value.withUnsafeBufferPointer { text.appendEscaped($0, quotes: true) }
            text.append(0x22)
        }
        text.append(0x3E)
    }

    private func appendEndTag(_ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        guard !truncated, captureType != .text, text.count < options.maxTextBytes else { return }
        if Self.voidElements.contains(String(cString: localName)) { return }
        text.append(0x3C)
        text.append(0x2F)
        appendName(localName, prefix: prefix)
        text.append(0x3E)
    }

    private func appendName(_ name: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        if let prefix {
            var cursor = prefix
            while cursor.pointee != 0 {
                text.append(cursor.pointee)
                cursor += 1
            }
            text.append(0x3A)
        }
        var cursor = name
        while cursor.pointee != 0 {
            text.append(cursor.pointee)
            cursor += 1
        }
    }

    /// Reads RSS's `jane@example.com (Jane Doe)`, `Jane Doe <jane@example.com>`, a bare name or a bare address.
    static func rssAuthor(_ value: String) -> FeedItem.Author? {
        guard !value.isEmpty else { return nil }
        if let open = value.firstIndex(of: "("), let close = value.lastIndex(of: ")"), open < close {
            let email = value[..<open].trimmingCharacters(in: .whitespaces)
            let name = value[value.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            return FeedItem.Author(
                name: name.isEmpty ? nil : name,
                email: email.contains("@") ? email : nil
            )
        }
        if let open = value.firstIndex(of: "<"), let close = value.lastIndex(of: ">"), open < close {
            let name = value[..<open].trimmingCharacters(in: .whitespaces)
            let email = value[value.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            return FeedItem.Author(name: name.isEmpty ? nil : name, email: email.isEmpty ? nil : email)
        }
        if value.contains("@"), !value.contains(" ") { return FeedItem.Author(email: value) }
        return FeedItem.Author(name: value)
    }

    /// Reads `itunes:duration`: seconds (`3723`, `3723.5`), `mm:ss` or `hh:mm:ss`.
    static func duration(_ value: String) -> Double? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for part in parts {
            guard let number = Double(part), number >= 0 else { return nil }
            total = total * 60 + number
        }
        return total
    }
}
