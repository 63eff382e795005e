import CByteScan
import CLibXML2
import Foundation
public import TributaryCore

/// Parses one RSS or Atom document as its bytes arrive, on libxml2's SAX2 push parser, and returns each item as
/// soon as its element has closed.
///
/// Feed the bytes in chunks of any size with ``parse(_:)-([UInt8])`` (they are handed to libxml2 in pieces of at
/// most 1 MiB), then call ``finish()``. Memory stays flat however long the feed is: only the item being read is
/// kept. Malformed XML is recovered where libxml2 can, and reported through ``takeWarnings()``.
///
/// One parser reads one document and is used by one task; it is not `Sendable`.
public final class StreamingFeedParser {
    private static let chunkLimit = 1 << 20
    private static let sniffLength = 1024
    /// How much of an undeclared document that starts in ASCII is held back while looking for its first non-ASCII
    /// bytes, which tell UTF-8 from Shift_JIS or EUC-JP (``EncodingSniffer/choose(prefix:httpCharset:override:)``).
    private static let undeclaredSniffLimit = 64 << 10

    private let options: FeedParserOptions
    private let handler: FeedSAXHandler
    private var context: xmlParserCtxtPtr?
    private var prefix: [UInt8] = []
    /// While the prefix is held: whether its encoding is known without looking further (a BOM, a declaration, an
    /// HTTP charset or an override), once ``sniffLength`` bytes are in; and how far it was checked for non-ASCII.
    /// Whether the document is ASCII-compatible, so that NUL bytes and other control characters are dropped and
    /// start tags watched (``StartTagGuard``) before libxml2 sees them; and whether each was reported.
    private var asciiCompatible = false
    /// Whether the document's escapes are control bytes (ISO-2022), so that only NUL is dropped; told once, with the
    /// encoding.
    private var escapesAreControls = false
    private var nulReported = false
    private var controlsReported = false
    private var tagGuard = StartTagGuard()
    private var cutTagsReported = 0
    private var strayCDATAEndsReported = false
    private var encodingStated: Bool?
    private var asciiChecked = 0
    private var firstNonASCII: Int?
    private var finished = false
    private var halted = false
    /// Whether the input starts like XML (`<` after whitespace or a UTF-8 BOM), to tell broken XML from non-XML.
    private var looksLikeMarkup = false
    /// Repairs invalid UTF-8 when the document is read as UTF-8; `nil` for other encodings.
    private var sanitizer: UTF8Sanitizer?
    /// Set for a UTF-16 or UTF-32 document, which is turned into UTF-8 before the guards and libxml2 see it.
    private var transcoder: WideTextTranscoder?
    /// Set for a document in a legacy encoding (windows-1252, Shift_JIS, EBCDIC...), turned into UTF-8 like a wide
    /// one, so that a byte that is not that encoding costs that byte, not the rest of the feed.
    private var legacy: LegacyTranscoder?
    private var legacyRepairReported = false
    private var repairReported = false

    /// Creates a parser for one document.
    ///
    /// - Throws: ``FeedParseError`` `.unsupportedEncoding` when ``FeedParserOptions/encodingOverride`` names an
    ///   encoding libxml2 cannot decode.
    public init(options: FeedParserOptions) throws {
        Self.initializeLibXML2()
        if let override = options.encodingOverride, !EncodingSniffer.isKnown(override) {
            throw FeedParseError(.unsupportedEncoding(override))
        }
        self.options = options
        handler = FeedSAXHandler(options: options)
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            context.pointee.myDoc = nil
            xmlFreeParserCtxt(context)
        }
    }

    /// The channel (RSS) or feed (Atom) header read so far; `nil` until the root element told the format.
    public var metadata: FeedMetadata? { handler.metadata }

    /// Feeds the next bytes and returns the items they completed.
    ///
    /// - Throws: ``FeedParseError`` when the input is not a feed or entity expansion ran over its budget.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws -> [FeedItem] {
        PendingFeedItem.build(try parsePending(bytes))
    }

    /// Feeds the next bytes and returns the items they completed; see ``parse(_:)-(UnsafeRawBufferPointer)``.
    public func parse(_ bytes: [UInt8]) throws -> [FeedItem] {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    /// Ends the document and returns the last items.
    ///
    /// - Throws: ``FeedParseError`` `.notAFeed` when no RSS or Atom root element was found (empty, binary or HTML
    ///   input).
    public func finish() throws -> [FeedItem] {
        PendingFeedItem.build(try finishPending())
    }

    /// ``parse(_:)-(UnsafeRawBufferPointer)``, returning the items before they are built: the caller builds each
    /// (``PendingFeedItem/build()``), on any thread.
    func parsePending(_ bytes: UnsafeRawBufferPointer) throws -> [PendingFeedItem] {
        guard !finished, !halted else { return [] }
        if context == nil {
            prefix.append(contentsOf: bytes)
            guard canChooseEncoding() else { return [] }
            let initial = prefix
            prefix = []
            try start(with: initial)
        } else {
            try feed(bytes)
        }
        return drain()
    }

    /// ``finish()``, returning the last items before they are built, as ``parsePending(_:)`` does.
    func finishPending() throws -> [PendingFeedItem] {
        guard !finished else { return [] }
        finished = true
        if context == nil {
            guard prefix.contains(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) else {
                throw FeedParseError(.notAFeed("the document is empty"))
            }
            let initial = prefix
            prefix = []
            try start(with: initial)
        }
        if context != nil, !halted, transcoder != nil {
            var pending: [UInt8] = []
            transcoder?.finish { pending.append(contentsOf: $0) }
            try pending.withUnsafeBytes { try feedChunks($0) }
        }
        if context != nil, !halted, let legacy {
            try legacy.finish { try feedChunks($0) }
            reportLegacyRepair()
        }
        if context != nil, !halted, sanitizer != nil {
            var pending: [UInt8] = []
            sanitizer?.finish { pending.append(contentsOf: $0) }
            try pending.withUnsafeBytes { try feedChunks($0) }
            reportRepair()
        }
        if let context, !halted {
            handler.markWellFormed()
            xmlParseChunk(context, nil, 0, 1)
            try checkState()
        }
        guard handler.rootSeen, !handler.isRDFWithoutFeed else { throw notAFeed() }
        handler.finishDocument()
        return drain(keepingCapacity: false)
    }

    /// Returns the warnings collected since the last call (recovered XML errors, truncated text, encoding
    /// disagreements) and forgets them.
    public func takeWarnings() -> [SourceWarning] {
        defer { handler.warnings.removeAll() }
        return handler.warnings
    }

    // MARK: - Private

    /// libxml2 must be initialised once before parsers are used on several threads (`xmlInitParser` is not
    /// reentrant); a `static let` runs its initialiser exactly once, thread-safely.
    private static let libxml2Initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private static func initializeLibXML2() {
        _ = libxml2Initialized
    }

    /// Whether enough bytes are held to choose the encoding: ``sniffLength`` bytes, and for a document that states
    /// no encoding, also ``sniffLength`` bytes from its first non-ASCII byte on (a Japanese feed whose first KiB is
    /// ASCII markup is not UTF-8 just because that KiB is), or ``undeclaredSniffLimit`` bytes in all.
    private func canChooseEncoding() -> Bool {
        guard prefix.count >= Self.sniffLength else { return false }
        if encodingStated == nil {
            // A document stated in an encoding other than UTF-8 is held like an undeclared one: its first non-ASCII
            // bytes tell whether it is really UTF-8 (``EncodingSniffer/utf8Misdeclared(_:stated:)``).
            encodingStated =
                (options.encodingOverride != nil || options.httpCharset != nil
                    || EncodingSniffer.statesEncoding(prefix))
                && !EncodingSniffer.mayBeMisdeclaredUTF8(
                    prefix,
                    httpCharset: options.httpCharset,
                    override: options.encodingOverride
                )
        }
        if encodingStated == true || prefix.count >= Self.undeclaredSniffLimit { return true }
        if firstNonASCII == nil {
            firstNonASCII = prefix[asciiChecked...].firstIndex { $0 >= 0x80 }
            asciiChecked = prefix.count
        }
        guard let firstNonASCII else { return false }
        return prefix.count - firstNonASCII >= Self.sniffLength
    }

    private func start(with held: [UInt8]) throws {
        var initial = held
        if let declaration = Self.declarationAfterText(initial) {
            initial.removeFirst(declaration)
            let message =
                "the document has \(declaration) bytes of text before its XML declaration (a server's error "
                + "message, most likely); they were skipped (fix what prints them before the feed)"
            handler.warnings.append(SourceWarning(message, location: "start of the document"))
        }
        let choice = EncodingSniffer.choose(
            prefix: initial,
            httpCharset: options.httpCharset,
            override: options.encodingOverride
        )
        handler.warnings.append(contentsOf: choice.warnings)
        let content = initial.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        looksLikeMarkup = content.first == 0x3C
        var sax = Self.makeSAXHandler()
        guard let context = xmlCreatePushParserCtxt(&sax, nil, nil, 0, nil) else {
            throw FeedParseError(.parserUnavailable)
        }
        self.context = context
        var body = initial.dropFirst(choice.skip)
        var encoding = choice.encoding
        let wide =
            initial.prefix(4).contains(0) || initial.starts(with: [0xFF, 0xFE]) || initial.starts(with: [0xFE, 0xFF])
            || choice.encoding.map(EncodingSniffer.isWide) == true
        let wideForm = wide ? WideTextTranscoder.Form(encoding: choice.encoding, prefix: initial) : nil
        handler.documentEncoding = EncodingSniffer.readName(forced: choice.encoding, wide: wideForm, prefix: initial)
        if let form = wideForm {
            // A wide document is read as the UTF-8 it is turned into, so the same guards apply to it.
            var transcoder = WideTextTranscoder(form: form)
            let text = initial.starts(with: form.byteOrderMark) ? initial.dropFirst(form.byteOrderMark.count) : body
            var converted: [UInt8] = []
            transcoder.process(text) { converted.append(contentsOf: $0) }
            body = converted[...]
            self.transcoder = transcoder
            encoding = "UTF-8"
        }
        if wideForm == nil, let name = EncodingSniffer.legacyEncoding(forced: choice.encoding, prefix: initial),
            let legacy = LegacyTranscoder(encoding: name)
        {
            var converted: [UInt8] = []
            legacy.process(body) { converted.append(contentsOf: $0) }
            body = converted[...]
            self.legacy = legacy
            encoding = "UTF-8"
            reportLegacyRepair()
        }
        // In an ASCII-compatible document a NUL byte is a NUL character, which XML forbids and libxml2 stops at.
        asciiCompatible = !wide || transcoder != nil
        escapesAreControls = handler.documentEncoding?.uppercased().contains("2022") == true
        if transcoder == nil, EncodingSniffer.readsUTF8(encoding: choice.encoding, prefix: initial) {
            var sanitizer = UTF8Sanitizer()
            var cleaned: [UInt8] = []
            cleaned.reserveCapacity(body.count)
            body.withUnsafeBytes { bytes in sanitizer.process(bytes) { cleaned.append(contentsOf: $0) } }
            body = cleaned[...]
            self.sanitizer = sanitizer
            reportRepair()
        }
        if asciiCompatible {
            // The whole start goes through the filters, the first four bytes included (a root tag can be hostile).
            var filtered: [UInt8] = []
            filtered.reserveCapacity(body.count)
            body.withUnsafeBytes { bytes in filter(bytes) { filtered.append(contentsOf: $0) } }
            body = filtered[...]
        }
        let head = Array(body.prefix(4))
        let status = head.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCtxtResetPush(context, $0.baseAddress, Int32($0.count), nil, encoding)
            }
        }
        if status != 0, let encoding { throw FeedParseError(.unsupportedEncoding(encoding)) }
        var parserOptions = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue)
        if encoding != nil { parserOptions |= Int32(XML_PARSE_IGNORE_ENC.rawValue) }
        xmlCtxtUseOptions(context, parserOptions)
        context.pointee._private = Unmanaged.passUnretained(handler).toOpaque()
        handler.context = context
        try Array(body.dropFirst(head.count)).withUnsafeBytes { try feedFiltered($0) }
    }

    /// Where the XML declaration starts when text comes before it, `nil` otherwise: PHP prints its warnings
    /// (`<br />\n<b>Warning</b>: count(): ...`) ahead of the feed a WordPress theme then writes, and the feed was
    /// refused as "not a feed". Only text without a feed's root element in it is skipped, and only in an
    /// ASCII-compatible document (the declaration is looked for as ASCII).
    static func declarationAfterText(_ prefix: [UInt8]) -> Int? {
        let start = prefix.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? prefix.endIndex
        guard start < prefix.endIndex, !prefix[start...].starts(with: "<?xml".utf8),
            !prefix[start...].starts(with: [0xEF, 0xBB, 0xBF]), !prefix.prefix(4).contains(0),
            let declaration = EncodingSniffer.firstIndex(of: Array("<?xml ".utf8), in: prefix[start...])
        else { return nil }
        let text = prefix[start..<declaration]
        for root in ["<rss", "<feed", "<rdf:RDF", "<RDF", "<entry", "<channel"]
        where EncodingSniffer.firstIndex(of: Array(root.utf8), in: text) != nil {
            return nil
        }
        return declaration
    }

    private func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let legacy {
            try legacy.process(bytes) { try feedChunks($0) }
            reportLegacyRepair()
            return
        }
        if transcoder != nil {
            try transcoder?.process(bytes) { try feedChunks($0) }
            return
        }
        guard sanitizer != nil else { return try feedChunks(bytes) }
        try sanitizer?.process(bytes) { try feedChunks($0) }
        reportRepair()
    }

    /// Warns once about the first byte that was not the document's legacy encoding (see ``LegacyTranscoder``).
    private func reportLegacyRepair() {
        guard !legacyRepairReported, let legacy, legacy.replacedBytes > 0 else { return }
        legacyRepairReported = true
        let name = handler.documentEncoding ?? "its encoding"
        let message =
            "the document is read as \(name) but has bytes that are not \(name); they were replaced by U+FFFD and "
            + "the rest was read (fix the feed's encoding declaration or its bytes)"
        handler.warnings.append(SourceWarning(message, location: "encoding"))
    }

    /// Warns once about the first repair of invalid UTF-8 (see ``UTF8Sanitizer``).
    private func reportRepair() {
        guard !repairReported, let repair = sanitizer?.repair else { return }
        let message: String
        switch repair {
        case .none:
            return
        case .replaced:
            message =
                "the document is read as UTF-8 but has bytes that are not UTF-8; they were replaced by U+FFFD "
                + "(fix the feed's encoding declaration or its bytes)"
        case .windows1252(let offset):
            message =
                "the document is read as UTF-8 but byte \(offset) is not UTF-8 and all before it was ASCII; "
                + "read as windows-1252 from there, as feedparser does (declare the real encoding in the feed)"
        }
        repairReported = true
        handler.warnings.append(SourceWarning(message, location: "encoding"))
    }

    private func feedChunks(_ bytes: UnsafeRawBufferPointer) throws {
        guard asciiCompatible else { return try feedFiltered(bytes) }
        try filter(bytes) { try feedFiltered($0) }
    }

    /// Passes `bytes` on without the control characters XML forbids (NUL among them) and with start tags cut at
    /// ``StartTagGuard/limit`` attributes, warning once about each. libxml2 stops at a NUL, and a control character
    /// inside a CDATA section (a torrent tracker's `<description><![CDATA[...\u{6}...`) made it give up the rest of
    /// the feed; outside one it drops them itself. In an ISO-2022 document, whose escapes are control bytes, only
    /// NUL is dropped.
    private func filter(
        _ bytes: UnsafeRawBufferPointer,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let first: Int
        if escapesAreControls {
            first = memchr(start, 0, bytes.count).map { UnsafeRawPointer(start).distance(to: $0) } ?? bytes.count
        } else {
            first = tributary_find_xml_control(start, 0, bytes.count)
        }
        if first < bytes.count {
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            kept.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<first]))
            for byte in UnsafeRawBufferPointer(rebasing: bytes[first...]) {
                if byte == 0 {
                    reportDropped(nul: true)
                } else if !escapesAreControls, tributary_is_xml_forbidden_control(byte) != 0 {
                    reportDropped(nul: false)
                } else {
                    kept.append(byte)
                }
            }
            try kept.withUnsafeBytes { try tagGuard.process($0, feed) }
        } else {
            try tagGuard.process(bytes, feed)
        }
        if tagGuard.cutTags > cutTagsReported {
            if cutTagsReported == 0 {
                handler.warnings.append(
                    SourceWarning(
                        "a start tag had more than \(StartTagGuard.limit) attributes, which no feed needs; the rest "
                            + "of them were dropped"
                    )
                )
            }
            cutTagsReported = tagGuard.cutTags
        }
        if tagGuard.strayCDATAEnds > 0, !strayCDATAEndsReported {
            strayCDATAEndsReported = true
            handler.warnings.append(
                SourceWarning(
                    "the feed writes ']]>' outside a CDATA section, which XML forbids; it was read as text (the "
                        + "feed's author should escape it or open the section)"
                )
            )
        }
    }

    /// Warns once about dropped NUL bytes and once about other dropped control characters.
    private func reportDropped(nul: Bool) {
        if nul {
            guard !nulReported else { return }
            nulReported = true
            handler.warnings.append(
                SourceWarning("the document holds NUL bytes, which XML does not allow; they were dropped")
            )
        } else {
            guard !controlsReported else { return }
            controlsReported = true
            handler.warnings.append(
                SourceWarning(
                    "the document holds control characters (below U+0020, other than tab and line breaks), which "
                        + "XML does not allow; they were dropped"
                )
            )
        }
    }

    private func feedFiltered(_ bytes: UnsafeRawBufferPointer) throws {
        guard let context, var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0, !halted {
            let count = min(remaining, Self.chunkLimit)
            handler.bytesFed += count
            // A predefined reference at the start of this chunk, right after one libxml2 rejected at the end of the
            // last, is expanded (see ``FeedSAXHandler/keepReferenceText(_:)``).
            handler.markWellFormed()
            xmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(count), 0)
            try checkState()
            base += count
            remaining -= count
        }
    }

    private func checkState() throws {
        if let reason = handler.stopReason {
            halted = true
            throw reason
        }
        guard let context, context.pointee.instate == XML_PARSER_EOF, !halted else { return }
        halted = true
        guard handler.rootSeen else { throw notAFeed() }
        if !finished {
            let detail = handler.lastError.map { "line \($0.line): \($0.message)" } ?? "unknown error"
            handler.warnings.append(
                SourceWarning("parsing stopped early (\(detail)); the items before this point were kept")
            )
        }
    }

    private func notAFeed() -> FeedParseError {
        if handler.rootSeen, handler.isRDFWithoutFeed {
            return FeedParseError(
                .notAFeed("an <rdf:RDF> document with no RSS channel or item (RDF of another kind, such as FOAF)")
            )
        }
        if let root = handler.unreadRoot {
            return FeedParseError(.notAFeed("the root element is \(root)"))
        }
        if looksLikeMarkup, let error = handler.lastError {
            return FeedParseError(.malformed(line: error.line, column: error.column, detail: error.message))
        }
        if let error = handler.lastError {
            return FeedParseError(
                .notAFeed(
                    "no XML root element could be read (line \(error.line), column \(error.column): \(error.message))"
                )
            )
        }
        return FeedParseError(.notAFeed("no XML root element was found"))
    }

    /// Hands over the completed items. While the document goes on, the array left behind keeps their capacity:
    /// grown again from nothing for each chunk, it copied its large elements at every step. At the end nothing is
    /// left behind, not even that capacity (a buffer as large as all of a feed's items, held as long as the parser).
    private func drain(keepingCapacity: Bool = true) -> [PendingFeedItem] {
        let items = handler.completed
        handler.completed = []
        if keepingCapacity { handler.completed.reserveCapacity(items.count) }
        return items
    }

    /// SAX2 callbacks. The default SAX2 handlers are kept for the document prolog (they store internal entity
    /// declarations in `myDoc`), external subsets and external entities are never resolved, and every callback that
    /// sees element content forwards to the ``FeedSAXHandler`` kept in the context's `_private` field.
    private static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        xmlSAXVersion(&sax, 2)
        sax.startElement = nil
        sax.endElement = nil
        sax.comment = nil
        sax.processingInstruction = nil
        sax.setDocumentLocator = nil
        sax.warning = nil
        sax.error = nil
        sax.fatalError = nil
        sax.reference = nil
        sax.externalSubset = nil
        sax.resolveEntity = nil
        sax.unparsedEntityDecl = nil
        sax.attributeDecl = nil
        sax.elementDecl = nil
        sax.notationDecl = nil
        sax.entityDecl = { context, name, type, publicID, systemID, content in
            // Only internal general entities are kept; external ones (XXE) and parameter entities are dropped.
            guard type == Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue) else { return }
            xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
        }
        sax.getEntity = { context, name in
            guard let context, let name else { return nil }
            let handler = saxHandler(context)
            handler?.markWellFormed()
            if let entity = xmlSAX2GetEntity(context, name) { return entity }
            return handler?.htmlEntity(name)
        }
        sax.startElementNs = {
            context,
            localName,
            prefix,
            namespace,
            namespaceCount,
            namespaces,
            attributeCount,
            _,
            attributes in
            guard let context, let localName else { return }
            withSAXHandler(context) {
                if namespaceCount > 0, !$0.heldRSS, let namespaces {
                    $0.noteNamespaces(namespaces, count: Int(namespaceCount))
                }
                $0.startElement(
                    localName,
                    prefix: prefix,
                    namespace: namespace,
                    attributeCount: Int(attributeCount),
                    attributes: attributes
                )
            }
        }
        sax.endElementNs = { context, localName, prefix, _ in
            guard let context, let localName else { return }
            withSAXHandler(context) { $0.endElement(localName, prefix: prefix) }
        }
        sax.characters = { context, bytes, count in
            guard let context, let bytes else { return }
            withSAXHandler(context) { $0.characters(bytes, count: Int(count)) }
        }
        sax.cdataBlock = sax.characters
        sax.ignorableWhitespace = sax.characters
        sax.serror = { context, error in
            guard let context, let error else { return }
            saxHandler(context)?.error(error, context: context.assumingMemoryBound(to: xmlParserCtxt.self))
        }
        return sax
    }
}

/// The ``FeedSAXHandler`` kept in a parser context's `_private` field.
private func saxHandler(_ context: UnsafeMutableRawPointer) -> FeedSAXHandler? {
    let parserContext = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let pointer = parserContext.pointee._private else { return nil }
    return Unmanaged<FeedSAXHandler>.fromOpaque(pointer).takeUnretainedValue()
}

/// Calls `body` with the handler without retaining it (the parser keeps it alive); used on the hot paths.
private func withSAXHandler(_ context: UnsafeMutableRawPointer, _ body: (FeedSAXHandler) -> Void) {
    let parserContext = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let pointer = parserContext.pointee._private else { return }
    Unmanaged<FeedSAXHandler>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
}
