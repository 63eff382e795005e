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
        /// Content no reader can show as text (RFC 4287 4.1.3): XML of another vocabulary (`application/xml`,
        /// `image/svg+xml`) or binary data (an image in base64). It is kept as empty content, so a reader shows the
        /// entry's summary, as Atom asks, rather than the XML's words or the base64.
        case opaque
    }

    /// Whose field a captured element fills.
    enum Scope {
        case item, channel, author, origin, channelImage, textInput
    }

    struct Frame {
        var kind: ElementKind
        var baseCount: Int
        /// The element's local name and prefix, interned in the parser's dictionary, for tag mismatch recovery.
        var localName: UnsafePointer<xmlChar>
        var prefix: UnsafePointer<xmlChar>?
        /// The prefix written for the element in captured markup: its own, or none for an XHTML element.
        var writtenPrefix: UnsafePointer<xmlChar>? = nil
    }

    struct NameKey: Hashable {
        var localName: UInt
        var namespace: UInt
    }

    struct CacheEntry {
        var localName: UnsafePointer<xmlChar>?
        var namespace: UnsafePointer<xmlChar>?
        var kind: ElementKind
    }

    // The hot stored properties are marked `@exclusivity(unchecked)`: the handler is only ever used from one
    // callback at a time, and the runtime's dynamic exclusivity checks cost about 8% of parse time.
    /// The feed's copyright or licence statement, plain text.
    var channelRights: String?

    /// The feed's description and rights as sanitized HTML, when they were HTML with markup
    /// (``FeedMetadata/descriptionHTML``).
    var channelDescriptionHTML: String?
    var channelRightsHTML: String?

    /// The podcast's iTunes `block` and `explicit`, as written (``FeedMetadata/itunes``).
    var channelITunes = FeedMetadata.ITunes()
    /// RSS `webMaster`, `dc:publisher` or the iTunes `owner`.
    var channelPublisher: FeedItem.Author?

    /// The channel's `ttl`, `docs`, `cloud`, `textInput`, image details and Atom 0.3 `info`.
    var channelExtras = FeedMetadata.Extras()

    /// The Atom feed's `link`s as written (``FeedMetadata/links``).
    var channelLinks: [TributaryExtension.Link] = []

    /// The `xml:lang` of the root or channel element: the feed's language when no `language` element names one.
    var channelXMLLang: String?

    /// The feed's language: its `language` or `dc:language`, else the `xml:lang` of its root, else the language it
    /// was served in over HTTP.
    var feedLanguage: String? { channelLanguage ?? channelXMLLang ?? options.httpLanguage }

    /// The `xml:lang` values in force: the depth of the element that set each, innermost last.
    @exclusivity(unchecked) var languages: [(depth: Int, value: String)] = []

    /// The `xml:lang` in force, `nil` when none is (or the innermost one is empty, which unsets it).
    var currentLanguage: String? {
        guard let value = languages.last?.value, !value.isEmpty else { return nil }
        return value
    }

    let options: FeedParserOptions
    /// The parser context, for line numbers and for stopping the parser.
    var context: xmlParserCtxtPtr?
    /// Set when the parser must stop: not a feed, entity limit.
    @exclusivity(unchecked) var stopReason: FeedParseError?
    var format: FeedFormat?
    /// The encoding the document is read in (``EncodingSniffer/readName(forced:wide:prefix:)``).
    var documentEncoding: String?
    var rootSeen = false
    /// Whether the document declared RSS 1.0's or 0.9's namespace, or held a channel or an item
    /// (``isRDFWithoutFeed``).
    var heldRSS = false
    /// The root element when it is no feed's (`<html>` in namespace ...), while the document is searched for a
    /// feed inside it: its elements are passed over, not kept on the stack, until a feed's root element, which is
    /// then read as the root.
    var unreadRoot: String?
    /// The most recent libxml2 error message, for messages about input that could not be read at all.
    var lastError: (message: String, line: Int, column: Int)?
    /// The items closed since the parser last took them, not yet built (see ``PendingFeedItem``).
    @exclusivity(unchecked) var completed: [PendingFeedItem] = []
    let itemContext: PendingFeedItem.Context
    var warnings: [SourceWarning] = []
    var errorCount = 0
    @exclusivity(unchecked) var malformed = false

    // Channel header.
    var channelTitle: String?
    var channelLink: String?
    var channelFeedURL: String?
    var channelDescription: String?
    var channelLanguage: String?
    var channelGenerator: String?
    var channelImage: String?
    /// The feed's Atom id resolved against the base, when it was relative.
    var channelResolvedID: String?
    /// The Atom feed's `icon`.
    var channelFavicon: String?
    /// RSS `pubDate` of the channel.
    var channelPublished: Date?
    var channelUpdated: Date?
    var channelAuthors: [FeedItem.Author] = []
    var channelContributors: [FeedItem.Author] = []
    var channelGeneratorVersion: String?
    var channelGeneratorURL: String?
    var channelITunesSubtitle: String?
    var channelID: String?
    var channelTags: [String] = []
    /// The channel's categories with their scheme and label (``FeedMetadata/categories``).
    var channelCategories: [TributaryExtension.Category] = []

    // Element state.
    @exclusivity(unchecked) var stack: [Frame] = []
    @exclusivity(unchecked) var bases: [String] = []
    @exclusivity(unchecked) var skippedDepth = 0
    /// Tag mismatch recovery (see ``noteMismatch(_:)``): the depth of the element the next end closes down to, and
    /// for each element closed here but still open for libxml2, the stack depth at which libxml2 will end it.
    @exclusivity(unchecked) var pendingCloseDepth = -1
    @exclusivity(unchecked) var phantomBases: [Int] = []
    /// Set when libxml2 dropped a reference in an attribute value of the start tag being read; see
    /// ``repairAttributeValues(_:count:)``.
    @exclusivity(unchecked) var attributeReferenceDropped = false
    /// Ends libxml2 reports for elements it was made to keep open after a stray end tag; see ``error(_:context:)``.
    @exclusivity(unchecked) var strayEnds = 0
    var depthWarned = false
    /// A namespace read as Atom's besides its own (see ``ElementKind/classify(namespace:localName:atomNamespace:rssNamespace:)``).
    var atomNamespace: String?
    /// A namespace read as RSS's: the one an `<rss>` root was written in (see
    /// ``ElementKind/classify(namespace:localName:atomNamespace:rssNamespace:)``).
    var rssNamespace: String?
    @exclusivity(unchecked) var cache = [CacheEntry](
        repeating: CacheEntry(localName: nil, namespace: nil, kind: .other),
        count: 1024
    )
    var overflow: [NameKey: ElementKind] = [:]
    @exclusivity(unchecked) var item = ItemBuilder()
    /// The capacity the next item's text starts with: from the length of the last one's.
    @exclusivity(unchecked) var itemTextCapacity = 0
    /// Whether ``item`` is the new builder ``completeItem()`` left, ready for the next item.
    @exclusivity(unchecked) var itemIsNew = false
    @exclusivity(unchecked) var inItem = false
    @exclusivity(unchecked) var itemDepth = -1
    var author: FeedItem.Author?
    var authorScope = Scope.item
    @exclusivity(unchecked) var sourceDepth = -1
    var origin = TributaryExtension.Origin()

    // Text capture.
    @exclusivity(unchecked) var capturing: ElementKind?
    @exclusivity(unchecked) var captureScope = Scope.item
    @exclusivity(unchecked) var captureDepth = -1
    @exclusivity(unchecked) var captureType = TextType.text
    /// What the text of a `mode="base64"` element is once decoded (Atom 0.3 says it with `type`).
    var base64Type = TextType.text
    @exclusivity(unchecked) var captureBaseCount = 0
    /// The `xml:lang` and `xml:base` in force where the field being captured started, when the document sets either.
    @exclusivity(unchecked) var captureContext: FieldContext?
    /// Whether the document has set an `xml:base` or `xml:lang` so far: until it does, no field has a context and
    /// none is noted (most feeds set neither, and noting a `nil` one at every field was 6% of parse time).
    @exclusivity(unchecked) var contextsSeen = false
    /// The `xml:base` in force on the feed's root or RSS channel (``FeedMetadata/Extras/base``).
    var channelBase: String?
    /// The language and base of the channel's title, description, rights and info, when the document sets either.
    var channelFieldContexts: [(name: String, context: FieldContext?)] = []
    var captureAttribute: String?
    /// A Media RSS category's `label`, beside its `scheme` in ``captureAttribute``.
    var captureLabel: String?
    /// An Atom link (an entry's or the feed's) whose address is its text, until the element ends
    /// (``beginTextLink(_:scope:depth:)``).
    var pendingLink: TributaryExtension.Link?
    @exclusivity(unchecked) var xhtmlWrapperDepth = -1
    /// The depth of the `<name>` inside an RSS `<author>` being captured, -1 when there is none.
    var authorNameDepth = -1
    let text = TextBuffer()
    @exclusivity(unchecked) var truncated = false

    // Entity expansion accounting.
    @exclusivity(unchecked) var charactersDelivered = 0
    @exclusivity(unchecked) var bytesFed = 0

    // HTML entities that feeds use without declaring them, served from a private document.
    var entityDocument: xmlDocPtr?

    let baseURLString: String?
    /// The last base URL used, split once.
    var resolverBase: URLResolver.Base?

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
            // With no link, a feed id that is an absolute URI (`https:`, `tag:`...) is the feed's address, as feedparser
            // reads it.
            link: (channelLink ?? (channelResolvedID ?? channelID).flatMap(ItemBuilder.address)).flatMap {
                FeedItem.isSafeLink($0) ? $0 : nil
            },
            feedURL: channelFeedURL.flatMap { FeedItem.isSafeLink($0) ? $0 : nil },
            description: channelDescription ?? channelITunesSubtitle.flatMap { $0.isEmpty ? nil : $0 },
            language: feedLanguage,
            authors: channelAuthors,
            generator: channelGenerator,
            image: channelImage.flatMap { FeedItem.isSafeLink($0) ? $0 : nil },
            updated: channelUpdated,
            rights: channelRights.flatMap { $0.isEmpty ? nil : $0 },
            id: channelID,
            tags: channelTags,
            contributors: channelContributors,
            generatorVersion: channelGenerator == nil ? nil : channelGeneratorVersion,
            generatorURL: channelGenerator == nil ? nil : channelGeneratorURL,
            encoding: documentEncoding,
            links: channelLinks.filter { FeedItem.isSafeLink($0.url) },
            descriptionHTML: channelDescription == nil ? nil : channelDescriptionHTML,
            // Rights that are only markup (an image) are kept as HTML, with no plain text.
            rightsHTML: channelRights == nil ? nil : channelRightsHTML,
            itunes: channelITunes,
            publisher: channelPublisher,
            favicon: channelFavicon.flatMap { FeedItem.isSafeLink($0) ? $0 : nil },
            published: channelPublished,
            extras: extrasWithFieldContexts,
            categories: channelCategories
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

    /// `name`, `email` or `uri` in no namespace, as the part of an Atom author it names.
    private static func unqualifiedAuthorPart(_ localName: UnsafePointer<xmlChar>) -> ElementKind? {
        let kind = ElementKind.classify(namespace: "http://www.w3.org/2005/atom", localName: String(cString: localName))
        return kind == .atomName || kind == .atomEmail || kind == .atomURI ? kind : nil
    }

    func startElementBody(
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
        // A prefix the document never declared (`<itunes:summary>` without `xmlns:itunes`) is read as the module it
        // always names, as feedparser reads it.
        var kind = classify(localName, namespace ?? prefix.flatMap(Self.namespaceOfUndeclaredPrefix))
        if namespace == nil, let parent = stack.last?.kind, parent == .atomAuthor || parent == .atomContributor,
            let part = Self.unqualifiedAuthorPart(localName)
        {
            // An Atom author's parts written without a namespace (`<atom:author><name>` in an RSS item, miniflux's
            // test feed) are its name, email and uri, as feedparser reads them by their local name.
            kind = part
        }
        if depth == 0, unreadRoot != nil, rootSeen || !Self.isFeedRoot(kind, localName, namespace) { return }
        var baseCount = stack.last?.baseCount ?? 0
        // CDF names its base in the channel's `BASE` attribute.
        if attributeCount > 0,
            let base = attributes.xmlBase()
                ?? (depth == 0 && kind == .channel ? attributes.value(anyCase: "base") : nil),
            let resolved = xmlBase(base, baseCount: baseCount)
        {
            if bases.count > baseCount { bases.removeSubrange(baseCount...) }
            bases.append(resolved)
            baseCount += 1
            contextsSeen = true
        }
        if attributeCount > 0, let language = attributes.xmlLang() {
            // `en_US` is written `en-US` (BCP 47), as feedparser writes it.
            let tag = language.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
            languages.append((depth, tag))
            contextsSeen = true
        }
        stack.append(Frame(kind: kind, baseCount: baseCount, localName: localName, prefix: prefix))

        if capturing != nil, captureScope == .item, kind == .item || kind == .atomEntry {
            // An unclosed element inside the previous item (Fixtures/broken-unclosed-tags.xml): close it.
            finishCapture()
        }
        if capturing != nil {
            if capturing == .author, depth == captureDepth + 1, kind == .name || kind == .atomName {
                // An RSS author written as an Atom person (`<author><name>Jane</name><title>Editor</title>`): its
                // name is the author, as feedparser reads it; the text around it is left out.
                text.removeAll()
                authorNameDepth = depth
                return
            }
            // Atom 1.0 wraps XHTML content in a `div` that is not part of it (RFC 4287 3.1.1.3); Atom 0.3's
            // `mode="xml"` and RSS's `xhtml:body` have no such wrapper, so a `div` there is content. TypePad wrapped
            // escaped HTML in one too (`<content type="html"><div xmlns="...xhtml">&lt;p&gt;...`): the text in it is
            // still the HTML, as feedparser and gofeed read it.
            if captureType == .xhtml && format == .atom10 || captureType == .html, depth == captureDepth + 1,
                xhtmlWrapperDepth < 0, isXHTMLDiv(localName, namespace)
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
        if depth == 0 || (depth == 1 && kind == .channel) {
            if channelXMLLang == nil, let language = currentLanguage { channelXMLLang = language }
            if baseCount > 0 { channelBase = bases[baseCount - 1] }
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
        // In an item or the channel, `<link rel="enclosure" href="..."/>` is an Atom link written without its
        // namespace, as feedparser reads it: its relation decides what it is (an attachment, the feed's own address),
        // not the item's address or the feed's home page.
        let read =
            kind == .link && (inItem || parent == .channel || parent == .atomFeed) && attributes.has("href")
                && Self.linkRel(attributes) != "alternate" ? ElementKind.atomLink : kind
        if inItem {
            startInItem(read, parent: parent, depth: depth, attributes: attributes, baseCount: baseCount)
        } else {
            startOutsideItem(read, parent: parent, depth: depth, namespace: namespace, attributes: attributes)
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

    func closeTop(_ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) {
        guard let frame = stack.popLast() else { return }
        let depth = stack.count
        if let last = languages.last, last.depth >= depth { languages.removeLast() }
        if capturing != nil {
            if depth == captureDepth {
                finishCapture()
            } else if depth == xhtmlWrapperDepth {
                xhtmlWrapperDepth = -1
            } else if depth == authorNameDepth {
                // The author's `<name>` is read: no more text is taken (see ``startElementBody``).
                authorNameDepth = -1
                truncated = true
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
                if author.name != nil || author.email != nil || author.url != nil {
                    let isAuthor = frame.kind == .atomAuthor
                    switch authorScope {
                    case .item: if isAuthor { item.authors.append(author) } else { item.contributors.append(author) }
                    case .origin:
                        if isAuthor { origin.authors.append(author) } else { origin.contributors.append(author) }
                    default:
                        if isAuthor { channelAuthors.append(author) } else { channelContributors.append(author) }
                    }
                }
                self.author = nil
            }
        case .atomSource:
            if depth == sourceDepth {
                sourceDepth = -1
                // Links and categories are kept when they say more than the source's address and tags do.
                if !TributaryExtension.Link.sayMoreThanAURL(origin.links) { origin.links = [] }
                if !origin.categories.contains(where: { $0.scheme != nil || $0.label != nil }) {
                    origin.categories = []
                }
                if !origin.isEmpty { item.origin = origin }
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
    func completeItem() {
        if item.hasFieldContexts { item.inheritedContext = FieldContext(language: feedLanguage, base: channelBase) }
        // The next item's text will likely be about as long: reserved at once (with room to spare), it is seldom
        // reallocated as it grows.
        let length = item.rawBytes.count
        itemTextCapacity = min(length + length / 2, 1 << 16)
        var finished = ItemBuilder(textCapacity: itemTextCapacity)
        swap(&finished, &item)
        itemIsNew = true
        // Moved, not copied: a copy of a builder is some forty reference counts.
        completed.append(PendingFeedItem(builder: consume finished, context: itemContext))
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
        if captureType == .xhtml
            || stack.count - 1 > captureDepth && captureType != .text
                && !(captureType == .html && stack.count - 1 == xhtmlWrapperDepth) && !capturesRSSTitle
        {
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

    /// An attribute value replaced for the duration of one `startElement` call.
    struct AttributePatch {
        var index: Int
        var start: UnsafePointer<xmlChar>?
        var end: UnsafePointer<xmlChar>?
        var storage: UnsafeMutablePointer<xmlChar>
    }

    // MARK: - Private

    func stop(_ error: FeedParseError) {
        stopReason = error
        if let context { xmlStopParser(context) }
    }

    func warn(_ message: String) {
        let line = context.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) }
        warnings.append(SourceWarning(message, location: line.map { "line \($0)" }))
    }

    /// The namespaces of the module prefixes feeds use without declaring them, interned once (``classify(_:_:)``
    /// caches by pointer).
    nonisolated(unsafe) private static let undeclaredPrefixes: [(prefix: [UInt8], namespace: UnsafePointer<xmlChar>)] =
        {
            let known: [(String, String)] = [
                ("itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd"), ("media", "http://search.yahoo.com/mrss/"),
                ("dc", "http://purl.org/dc/elements/1.1/"), ("content", "http://purl.org/rss/1.0/modules/content/"),
                ("atom", "http://www.w3.org/2005/Atom"),
            ]
            return known.map { entry in
                (prefix: Array(entry.0.utf8), namespace: UnsafePointer(xmlCharStrdup(entry.1)!))
            }
        }()

    /// The namespace an undeclared `prefix` stands for, or `nil` for a prefix that is not a known module's.
    static func namespaceOfUndeclaredPrefix(_ prefix: UnsafePointer<xmlChar>) -> UnsafePointer<xmlChar>? {
        let length = Int(xmlStrlen(prefix))
        let bytes = UnsafeBufferPointer(start: prefix, count: length)
        return undeclaredPrefixes.first { $0.prefix.elementsEqual(bytes) }?.namespace
    }
}
