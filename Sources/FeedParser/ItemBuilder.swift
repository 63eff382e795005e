import Foundation
import HTMLSanitizer
import TributaryCore

/// The raw fields of one RSS item or Atom entry, collected while its element is open and turned into a
/// ``FeedItem`` when it closes.
struct ItemBuilder {
    /// The bytes of the text fields below, one after another: an item's text takes one allocation, not one per field.
    private(set) var rawBytes: [UInt8] = []
    // The text fields are read when the item is built (see ``RawText``).
    var guid: RawText?
    var guidIsPermaLink = true
    /// The last guid that is a permalink, and its address when it was relative: the item's address when it has no
    /// link, even when a later guid is marked `isPermaLink="false"` (which then names the item as written).
    var permaLinkGuid: (raw: RawText, resolved: String?)?
    var atomID: RawText?
    /// The permalink guid or Atom id resolved against the base, when it was relative (``FeedSAXHandler/resolvedIdentifier()``).
    var resolvedID: String?
    /// RSS 1.0's `<item rdf:about>`: the item's URI, its id when there is no guid.
    var rdfAbout: String?
    var link: RawText?
    var alternateLink: String?
    /// The first alternate link to something other than a web page (a PDF): the entry itself in another form.
    var otherAlternateLink: String?
    /// The first Atom link that leads elsewhere (`related`, `via`, a podcast's deep link, a content `src`).
    var firstAtomLink: String?
    var title: RawText?
    /// Whether ``title`` is only white space (then a later title replaces it).
    var titleIsBlank = false
    /// Atom `rights`, `dc:rights`.
    var rights: RawText?
    /// `media:title`, the title of a video item that has no `title` of its own.
    var mediaTitle: RawText?
    /// `dc:language` or `language` of the item, else the `xml:lang` in force where it starts.
    var language: String?
    /// HTML (escaped twice, it is shown as escaped markup: Fixtures/double-escaped-description-*).
    var description: RawText?
    /// `media:description` or `itunes:subtitle`: the item's text when it has no description, summary or content.
    var mediaDescription: RawText?
    var contentEncoded: RawText?
    /// feedparser's "second description": a description, `itunes:summary`, Atom summary or `media:description` that
    /// starts after another one ended and before any content (`content:encoded`, Atom `content`) started is the
    /// entry's content (its `content[0]`, ahead of a later `content:encoded`), the first one its summary.
    /// ``beginDescription()`` and ``beginContent()`` keep the state; ``secondDescription`` is the text.
    var secondDescription: RawText?
    /// Whether ``secondDescription`` is plain text (an Atom summary of type text) rather than HTML.
    var secondDescriptionIsText = false
    /// A description-like element ended (feedparser: `'summary' in context`).
    var descriptionEnded = false
    /// A content element started, or a second description became the content (feedparser's `hasContent`).
    var contentStarted = false
    /// The description-like element being read is the second description.
    private(set) var readingSecondDescription = false
    var atomContentHTML: RawText?
    var atomContentText: RawText?
    /// Atom `summary` written as text.
    var summary: RawText?
    /// Atom `summary` written as HTML or XHTML: the content when the entry has no other, else its summary's text.
    var summaryHTML: RawText?
    var published: Date?
    /// `dc:date` or a `dcterms` date: when the item last changed, as feedparser reads `dc:date`.
    var dcDate: Date?
    var updated: Date?
    var authors: [FeedItem.Author] = []
    var contributors: [FeedItem.Author] = []
    var tags: [String] = []
    var thumbnail: String?
    /// The first `media:content` that is an image: the item's image when it has no thumbnail or iTunes image.
    var mediaImage: String?
    var itunesImage: String?
    var attachments: [FeedItem.Attachment] = []
    var itunesDuration: Double?
    var origin: TributaryExtension.Origin?
    /// The entry's Atom links as written (``TributaryExtension/links``).
    var links: [TributaryExtension.Link] = []
    /// Every category with its scheme (RSS `domain`, Atom and Media RSS `scheme`) and label, as written.
    var categories: [TributaryExtension.Category] = []
    /// RSS `comments` and `wfw:commentRss`, resolved.
    var comments: String?
    var commentsFeed: String?
    /// The episode's iTunes `block` and `explicit` as written.
    var itunes = TributaryExtension.ITunes()
    /// `_tributary`'s rarely present fields (``TributaryExtension/Details``), set as read; boxed as in the item, so
    /// that a builder (moved once per item) stays small.
    private(set) var details: DetailsBox?
    /// Whether the first `psc:chapters` (Podlove Simple Chapters, read into ``details``) is open.
    var readingChapters = false
    /// GeoRSS: the item's location as a GeoJSON geometry, and the GML shape and reference being read.
    var `where`: JSONValue?
    var gmlShape: ElementKind?
    var gmlSRS = Geometry.Reference(srsName: nil, dimension: nil)

    /// The language and base in force where the field being read started (``FieldContext``), when the document sets
    /// either; each text kept while it is set is noted with it, by where the text starts in ``rawBytes``.
    var fieldContext: FieldContext?
    private var fieldContexts: [(start: Int, context: FieldContext)] = []
    /// What the item's fields inherit: the feed's language and base, set when the item is complete (and only when
    /// a field was read with a context).
    var inheritedContext = FieldContext()
    var hasFieldContexts: Bool { !fieldContexts.isEmpty }

    /// Creates an empty builder whose text can grow to `capacity` bytes before it is reallocated.
    init(textCapacity capacity: Int = 0) {
        rawBytes.reserveCapacity(capacity)
    }

    /// Keeps `bytes` in the item's text, to be read as `reading` when the item is built.
    mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, as reading: RawText.Reading) -> RawText {
        let start = rawBytes.count
        rawBytes.append(contentsOf: bytes)
        if let fieldContext {
            // Most fields of an item are read in a context once the document sets one: room for them at once, not
            // four reallocations as they come.
            if fieldContexts.isEmpty { fieldContexts.reserveCapacity(8) }
            fieldContexts.append((start, fieldContext))
        }
        return RawText(range: start..<rawBytes.count, reading: reading)
    }

    /// How a built item's `content_html` is made.
    enum ContentHTML {
        /// A `String` in the item, made safe by the sanitizer when there is one.
        case inItem(sanitizer: HTMLSanitizer?)
        /// Made safe by the sanitizer and returned as UTF-8 beside the item (then it is not in the item): the HTML
        /// goes from the feed's bytes to the sanitizer's without a `String` on either side.
        case safeUTF8(sanitizer: HTMLSanitizer)
    }

    /// Builds the normalised item; `sourceID` is stamped on it, and `content_html` goes through `sanitizer` (when
    /// there is one), any URL still relative resolved against `baseURL` (the feed's URL).
    ///
    /// Mutating: the fields the item needs are moved into it (`take()`), leaving the builder spent, so an item is
    /// built where it lies (in an array, through its buffer) without a copy of every field first and a release of
    /// every field after: some forty reference counts per item otherwise.
    mutating func build(sourceID: SourceID, sanitizer: HTMLSanitizer?, baseURL: URL?) -> FeedItem {
        build(sourceID: sourceID, contentHTML: .inItem(sanitizer: sanitizer), baseURL: baseURL).item
    }

    /// Builds the normalised item as ``build(sourceID:sanitizer:baseURL:)`` does, its `content_html` made as
    /// `contentHTML` says: the item, and the safe `content_html` as UTF-8 when it is not in the item.
    mutating func build(
        sourceID: SourceID,
        contentHTML: ContentHTML,
        baseURL: URL?
    ) -> (item: FeedItem, safeContentHTML: [UInt8]?) {
        var rawBytes: [UInt8] = []
        swap(&rawBytes, &self.rawBytes)
        return rawBytes.withUnsafeBufferPointer { text in
            build(text: text, sourceID: sourceID, contentHTML: contentHTML, baseURL: baseURL)
        }
    }

    private mutating func build(
        text: UnsafeBufferPointer<UInt8>,
        sourceID: SourceID,
        contentHTML: ContentHTML,
        baseURL: URL?
    ) -> (item: FeedItem, safeContentHTML: [UInt8]?) {
        func read(_ raw: RawText?) -> String? { raw?.string(in: text) }
        func guidAddress(_ guid: (raw: RawText, resolved: String?)?) -> String? {
            guard let guid else { return nil }
            return (guid.resolved ?? read(guid.raw)).flatMap(Self.address)
        }
        let guid = read(guid.take())
        let atomID = read(atomID.take())
        let resolvedID = resolvedID.take()
        let guidLink = permaLinkGuid.take()
        // With no link to a web page, a permalink guid or an Atom id is the item's address when it is an absolute URI
        // (`https:`, `tag:`, `urn:`, `yt:`...), as feedparser reads it (its `guidislink`), else an alternate of
        // another type. Another Atom link (`related`, `via`, a podcast's deep link, a content `src`) leads
        // elsewhere: it is the item's `external_url`, which the digest links to when there is no address, never its
        // address (feedparser gives such an item no link).
        let url =
            alternateLink.take() ?? read(link.take())
            ?? (guid != nil ? guidAddress(guidLink) : (resolvedID ?? atomID).flatMap(Self.address))
            ?? otherAlternateLink.take()
        let elsewhere = firstAtomLink.take()
        let titleText = title.take() ?? mediaTitle.take()
        var item = FeedItem(id: "", url: url, title: read(titleText))
        if url == nil { item.externalURL = elsewhere }
        item.language = language.take()
        // The content is content:encoded, else Atom HTML content or RSS description, else (when the entry has no
        // content at all) an HTML summary; a description or HTML summary beside the content is the summary's text.
        let html: RawText?
        let summaryHTML = summaryHTML.take()
        var summaryMarkup: RawText?
        // Where the content and the summary came from, for their language and base.
        var contentSource: RawText?
        var summarySource: RawText?
        if let second = secondDescription.take() {
            // feedparser's second description is the content; the other (a description, an HTML summary, else a
            // media description) is the summary, and a later `content:encoded` is not read.
            // An empty one leaves the item without content.
            let isBlank = !text[second.range].contains { $0 > 0x20 }
            if secondDescriptionIsText {
                html = nil
                if !isBlank, let text = read(second) {
                    item.contentText = text
                    contentSource = second
                }
            } else {
                html = isBlank ? nil : second
            }
            summaryMarkup = description.take() ?? summaryHTML ?? mediaDescription.take()
        } else if let contentEncoded = contentEncoded.take() {
            html = contentEncoded
            summaryMarkup = description.take() ?? summaryHTML
        } else if let content = atomContentHTML.take() ?? (atomContentText == nil ? description.take() : nil)
            ?? (atomContentText == nil && summary == nil && summaryHTML == nil ? mediaDescription.take() : nil)
        {
            html = content
            // A description beside Atom content (an RSS item's `<content>`) is the summary.
            summaryMarkup = summaryHTML ?? description.take()
        } else if atomContentText == nil {
            html = summaryHTML
        } else {
            // Text content (an Atom entry's, or an RSS item's `<content>`): a description beside it is the summary.
            html = nil
            summaryMarkup = summaryHTML ?? description.take()
        }
        if var summary = read(summaryMarkup), !summary.isEmpty {
            item.summary = summary.withUTF8 { FeedText.plainText($0) }
            summarySource = summaryMarkup
        }
        contentSource = contentSource ?? html
        var safeContentHTML: [UInt8]?
        if let html {
            switch contentHTML {
            case .inItem(let sanitizer):
                let string = html.string(in: text)
                // The rights' HTML was made safe when it was read (``FeedSAXHandler/markupKept()``).
                item.contentHTML = sanitizer?.sanitize(string, baseURL: baseURL) ?? string
            case .safeUTF8(let sanitizer):
                safeContentHTML = html.withUTF8(in: text) { sanitizer.sanitizedUTF8(validUTF8: $0, baseURL: baseURL) }
            }
        }
        if let atomContentText = atomContentText.take() {
            item.contentText = read(atomContentText)
            contentSource = contentSource ?? atomContentText
        }
        if let summaryText = summary.take(), let summary = read(summaryText) {
            if html == nil, item.contentText == nil {
                item.contentText = summary
                contentSource = summaryText
            } else {
                item.summary = summary
                summarySource = summaryText
            }
        }
        if !fieldContexts.isEmpty {
            func context(_ text: RawText?) -> FieldContext? {
                text.flatMap { text in fieldContexts.first { $0.start == text.range.lowerBound }?.context }
            }
            let (languages, bases) = FieldContext.differences(
                [
                    ("title", context(titleText)), ("content", context(contentSource)),
                    ("summary", context(summarySource)),
                ],
                language: item.language ?? inheritedContext.language,
                base: inheritedContext.base
            )
            if !languages.isEmpty || !bases.isEmpty {
                updateDetails {
                    $0.languages = languages
                    $0.bases = bases
                }
            }
        }
        // `dc:date` says when the item last changed, as feedparser reads it (its `updated`): beside a `pubDate` it is
        // the modification date, alone it is the only date. A modification in the same second as the publication
        // (Medium writes `pubDate` to the second and `atom:updated` to the millisecond) is none.
        let modified = updated ?? dcDate
        item.datePublished = published ?? modified
        if let modified, let published = item.datePublished,
            Self.wholeSeconds(modified) != Self.wholeSeconds(published)
        {
            item.dateModified = modified
        }
        // Assigned, not swapped: an assignment goes through the item's setter, an `inout` access through a coroutine
        // whose frame is allocated on the heap.
        item.authors = authors
        item.tags = tags
        item.attachments = attachments
        authors = []
        tags = []
        attachments = []
        if let itunesDuration, let index = item.attachments.firstIndex(where: { $0.durationInSeconds == nil }) {
            item.attachments[index].durationInSeconds = itunesDuration
        }
        item.image =
            thumbnail.take() ?? itunesImage.take() ?? mediaImage.take()
            ?? item.attachments.first(where: { $0.mimeType?.hasPrefix("image/") == true })?.url
        let originalID = guid ?? atomID ?? rdfAbout.take()
        item.tributary = TributaryExtension(
            source: sourceID,
            origin: origin.take(),
            guid: originalID,
            rights: read(rights.take()).flatMap { $0.isEmpty ? nil : $0 },
            contributors: contributors,
            links: TributaryExtension.Link.sayMoreThanAURL(links) ? links : [],
            categories: categories.contains { $0.scheme != nil || $0.label != nil } ? categories : [],
            comments: comments.take(),
            commentsFeed: commentsFeed.take(),
            itunes: itunes,
            where: `where`.take()
        )
        if let details = details.take() { item.tributary?.details = details.value }
        itunes = TributaryExtension.ITunes()
        categories.removeAll(keepingCapacity: true)
        gmlShape = nil
        contributors.removeAll()
        links.removeAll(keepingCapacity: true)
        // Only http(s) and mailto links reach any output (a `javascript:` link is dropped, not shown).
        _ = item.removeUnsafeURLs()
        if let originalID, !originalID.isEmpty {
            // A relative identifier is resolved as feedparser resolves it; `_tributary.guid` keeps it as written.
            item.id = resolvedID ?? originalID
        } else {
            // The derived id may be made from the safe content: it goes into the item.
            if let safe = safeContentHTML.take() { item.contentHTML = String(decoding: safe, as: UTF8.self) }
            item.id = item.derivedID()
        }
        return (item, safeContentHTML)
    }

    /// The seconds since 1970 of `date`, its fraction dropped.
    static func wholeSeconds(_ date: Date) -> Double {
        date.timeIntervalSince1970.rounded(.down)
    }

    /// `string` when it is an http or https URL.
    static func webAddress(_ string: String) -> String? {
        URLBytes.hasWebScheme(string) ? string : nil
    }

    /// `string` when it can stand as an address: an absolute URI with a safe scheme (``FeedItem/isAbsoluteSafeLink(_:)``).
    static func address(_ string: String) -> String? {
        FeedItem.isAbsoluteSafeLink(string) ? string : nil
    }

    /// Changes the rarely present fields of the item (``details``).
    mutating func updateDetails(_ change: (inout TributaryExtension.Details) -> Void) {
        var value = details?.value ?? TributaryExtension.Details()
        change(&value)
        details = DetailsBox(value)
    }

    /// A description-like element starts: it is the second description when another one ended before it and no
    /// content has started (see ``secondDescription``).
    mutating func beginDescription() {
        readingSecondDescription = descriptionEnded && !contentStarted
        if readingSecondDescription { contentStarted = true }
    }

    /// A description-like element ended; returns whether it was the second description (then the caller keeps its
    /// text in ``secondDescription``).
    mutating func endDescription() -> Bool {
        defer {
            readingSecondDescription = false
            descriptionEnded = true
        }
        return readingSecondDescription
    }

    /// Keeps a category with its scheme and label (blank ones are none); an empty term is no category.
    mutating func addCategory(_ term: String, scheme: String?, label: String?) {
        guard !term.isEmpty else { return }
        if categories.isEmpty { categories.reserveCapacity(4) }
        categories.append(
            TributaryExtension.Category(
                term: term,
                scheme: FeedSAXHandler.nonBlank(scheme),
                label: FeedSAXHandler.nonBlank(label)
            )
        )
    }

    /// Adds an attachment unless one with the same URL is already there (an enclosure repeated as media:content).
    mutating func addAttachment(_ attachment: FeedItem.Attachment) {
        if let index = attachments.firstIndex(where: { $0.url == attachment.url }) {
            attachments[index].mimeType = attachments[index].mimeType ?? attachment.mimeType
            attachments[index].sizeInBytes = attachments[index].sizeInBytes ?? attachment.sizeInBytes
            attachments[index].durationInSeconds =
                attachments[index].durationInSeconds ?? attachment.durationInSeconds
        } else {
            attachments.append(attachment)
        }
    }
}
