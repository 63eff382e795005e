import CLibXML2
import Foundation
import TributaryCore

/// Reading an item or entry: which elements it captures and how each field is read.
extension FeedSAXHandler {
    func startInItem(
        _ kind: ElementKind,
        parent: ElementKind,
        depth: Int,
        attributes: Attributes,
        baseCount: Int
    ) {
        let direct = depth == itemDepth + 1
        // Media RSS elements count directly in the item, in its media:group, or in one of its media:content or
        // enclosures (feeds put media:title inside the <enclosure> it describes).
        let inMedia =
            direct
            || (parent.isMediaContainer && depth <= itemDepth + 3 && stack[itemDepth + 1].kind.isMediaContainer)
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
            .fullitem, .xhtmlBody, .rights, .itunesKeywords, .comments, .wfwCommentRSS, .wfwComment, .itunesBlock,
            .itunesExplicit,
            .dcCreated, .dcIssued, .atomCreated, .expirationDate, .dcContributor, .dcPublisher, .ccLicense:
            // Categories may come in a wrapper no module defines (`<categories><category>`), read as feedparser does;
            // so may a description (Google's `<og><description>`), which feedparser reads as the item's.
            guard direct || ((kind == .category || kind == .description) && parent == .other) else { return }
            switch kind {
            case .description, .dcDescription, .itunesSummary, .atomSummary: item.beginDescription()
            case .contentEncoded, .fullitem, .atomContent: item.contentStarted = true
            default: break
            }
            if kind == .guid {
                // Only `true` (the default) makes the guid the item's address, as feedparser reads it: `false`
                // written with spaces, `no` or SimplePie's test value `meep` name an id that is no link.
                item.guidIsPermaLink =
                    attributes.value(anyCase: "isPermaLink").map { FeedText.trimmed($0).lowercased() == "true" } ?? true
            } else if kind == .source {
                captureAttribute = attributes.value("url")
            } else if kind == .link {
                captureAttribute = attributes.value("href")  // <link href="..."/>, Atom's form in an RSS item
            } else if kind == .category {
                captureAttribute = attributes.value("domain")
            } else if kind == .ccLicense,
                let resource = Self.nonBlank(
                    attributes.value("resource", namespace: "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
                )
            {
                // `<cc:license rdf:resource="..."/>` names the licence in an attribute.
                item.updateDetails { $0.license = $0.license ?? resource }
            }
            if kind == .atomContent, item.firstAtomLink == nil, let src = attributes.value("src") {
                let resolved = resolve(src, baseCount: baseCount)
                item.firstAtomLink = resolved
            }
            beginCapture(kind, scope: .item, depth: depth, type: textType(kind, attributes))
        case .atomLink:
            guard direct else { return }
            guard let href = attributes.value("href") ?? attributes.value("url") else {
                beginTextLink(attributes, scope: .item, depth: depth)
                return
            }
            let rel = Self.linkRel(attributes)
            // The usual link (an HTML alternate and nothing else) is kept without reading its attributes again.
            let plain =
                rel == "alternate" && !attributes.has("title") && !attributes.has("hreflang")
                && !attributes.has("length")
                && (!attributes.has("type") || attributes.has("type", equalTo: "text/html"))
            let resolved = resolve(href, baseCount: baseCount)
            addEntryLink(
                plain
                    ? TributaryExtension.Link(rel: "alternate", url: resolved)
                    : Self.link(rel: rel, url: resolved, attributes),
                written: href
            )
        case .georssPoint where direct, .georssLine where direct, .georssPolygon where direct,
            .georssBox where direct, .gmlPos, .gmlPosList:
            beginCapture(kind, scope: .item, depth: depth, type: .text)
        case .gmlPoint, .gmlLineString, .gmlPolygon:
            item.gmlShape = kind
            item.gmlSRS = Geometry.Reference(
                srsName: attributes.value("srsName"),
                dimension: attributes.value("srsDimension")
            )
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
                let tag = Self.attributeText(term)
                if !tag.isEmpty {
                    if item.tags.isEmpty { item.tags.reserveCapacity(4) }
                    item.tags.append(tag)
                }
                item.addCategory(tag, scheme: attributes.value("scheme"), label: attributes.value("label"))
            } else {
                beginCapture(.category, scope: .item, depth: depth, type: .text)
            }
        case .enclosure where inMedia:  // also inside a `media:group`, as feedparser reads it
            // `url=""` names no file. A relative URL stays as written, as feedparser keeps it (an Atom
            // `link rel="enclosure"` is resolved, as there); the RSS adapter resolves it against the address the
            // feed was fetched from (`FeedStreamConsumer`). An `href` in place of `url` (Atom's word) is read as
            // feedparser reads it.
            guard let url = (attributes.value("url") ?? attributes.value("href")).map(FeedText.trimmed), !url.isEmpty
            else { return }
            item.addAttachment(
                FeedItem.Attachment(
                    url: FeedText.hasScheme(url) ? resolve(url, baseCount: baseCount) : url,
                    mimeType: attributes.value("type"),
                    sizeInBytes: attributes.value("length").flatMap { Int(FeedText.trimmed($0)) }
                )
            )
        case .mediaContent where inMedia:
            // A Media RSS image is the item's image; audio and video are not attachments: feedparser's enclosures
            // (JSON Feed's attachments) are `enclosure` elements and `link rel="enclosure"` only.
            guard let url = attributes.value("url") else { return }
            let mime = attributes.value("type").map { FeedText.trimmed($0).lowercased() }
            let medium = attributes.value("medium").map { FeedText.trimmed($0).lowercased() }
            if medium == "image" || mime?.hasPrefix("image/") == true, item.mediaImage == nil {
                item.mediaImage = resolve(url, baseCount: baseCount)
            }
        case .mediaCategory where inMedia:
            // Media RSS's default scheme, when the category names none.
            captureAttribute = attributes.value("scheme") ?? "http://search.yahoo.com/mrss/category_schema"
            captureLabel = attributes.value("label")
            beginCapture(.category, scope: .item, depth: depth, type: .text)
        case .mediaKeywords where inMedia:
            beginCapture(.itunesKeywords, scope: .item, depth: depth, type: .text)
        case .mediaDescription where inMedia, .itunesSubtitle where direct:
            // A podcast episode's or a video's description, the item's text when it has no other (no description,
            // summary or content).
            if kind == .mediaDescription { item.beginDescription() }
            beginCapture(kind, scope: .item, depth: depth, type: textType(kind, attributes))
        case .pscChapters where direct:
            // Podlove Simple Chapters: only the first `psc:chapters` counts, as feedparser reads it.
            item.readingChapters = item.details?.value.chapters == nil
            if item.readingChapters {
                var chapters: [String: JSONValue] = ["chapters": .array([])]
                if let version = Self.nonBlank(attributes.value("version")) { chapters["version"] = .string(version) }
                item.updateDetails { $0.chapters = .object(chapters) }
            }
        case .pscChapter where parent == .pscChapters && item.readingChapters:
            guard let start = Self.nonBlank(attributes.value("start")) else { return }
            var chapter: [String: JSONValue] = ["start": .string(start)]
            if let title = attributes.value("title").map(Self.attributeText), !title.isEmpty {
                chapter["title"] = .string(title)
            }
            if let href = Self.nonBlank(attributes.value("href")) {
                chapter["href"] = .string(resolve(href, baseCount: baseCount))
            }
            if let image = Self.nonBlank(attributes.value("image")) {
                chapter["image"] = .string(resolve(image, baseCount: baseCount))
            }
            item.updateDetails { details in
                guard case .object(var chapters)? = details.chapters, case .array(var list)? = chapters["chapters"]
                else { return }
                list.append(.object(chapter))
                chapters["chapters"] = .array(list)
                details.chapters = .object(chapters)
            }
        case .itunesCategory where direct || parent == .itunesCategory:
            if let name = attributes.value("text") {
                let tag = Self.attributeText(name)
                Self.addTag(tag, to: &item.tags)
                item.addCategory(tag, scheme: Self.iTunesCategoryScheme, label: nil)
            }
        case .mediaTitle where inMedia:
            beginCapture(kind, scope: .item, depth: depth, type: textType(kind, attributes))
        case .mediaThumbnail where inMedia:
            if item.thumbnail == nil, let url = attributes.value("url") {
                item.thumbnail = resolve(url, baseCount: baseCount)
            }
        case .itunesImage where direct, .itunesLink where direct && attributes.has("rel", equalTo: "image"):
            // `<itunes:image href>`, also written with `url`, and the older `<itunes:link rel="image" href>`.
            if let href = attributes.value("href") ?? attributes.value("url") {
                item.itunesImage = resolve(href, baseCount: baseCount)
            }
        case .atomSource where direct:
            sourceDepth = depth
            origin = TributaryExtension.Origin()
        default:
            break
        }
    }

    /// RSS 1.0 names each item by its `rdf:about` URI, which is its id when it has no guid.
    func readRDFAbout(_ attributes: Attributes) {
        guard attributes.count > 0,
            let about = attributes.value("about", namespace: "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
        else { return }
        let trimmed = FeedText.trimmed(about)
        if !trimmed.isEmpty { item.rdfAbout = trimmed }
    }

    func startInAtomSource(_ kind: ElementKind, parent: ElementKind, attributes: Attributes, baseCount: Int) {
        if kind == .atomName || kind == .atomEmail || kind == .atomURI, author != nil,
            parent == .atomAuthor || parent == .atomContributor
        {
            beginCapture(kind, scope: .author, depth: stack.count - 1, type: .text)
            return
        }
        guard parent == .atomSource else { return }
        switch kind {
        case .atomTitle, .atomID, .atomUpdated, .atomSubtitle, .rights, .atomIcon, .atomLogo, .atomGenerator:
            if kind == .atomGenerator {
                origin.generatorVersion = Self.nonBlank(attributes.value("version"))
                origin.generatorURL = (attributes.value("uri") ?? attributes.value("url")).flatMap(Self.nonBlank).map {
                    resolve($0, baseCount: baseCount)
                }
            }
            beginCapture(kind, scope: .origin, depth: stack.count - 1, type: textType(kind, attributes))
        case .atomAuthor, .atomContributor:
            author = FeedItem.Author()
            authorScope = .origin
        case .atomCategory:
            if let term = attributes.value("term") ?? attributes.value("label") {
                let tag = Self.attributeText(term)
                Self.addTag(tag, to: &origin.tags)
                if !tag.isEmpty {
                    origin.categories.append(
                        TributaryExtension.Category(
                            term: tag,
                            scheme: Self.nonBlank(attributes.value("scheme")),
                            label: Self.nonBlank(attributes.value("label"))
                        )
                    )
                }
            }
        case .atomLink:
            guard let href = attributes.value("href") else { return }
            let resolved = resolve(href, baseCount: baseCount)
            let rel = Self.linkRel(attributes)
            origin.links.append(Self.link(rel: rel, url: resolved, attributes))
            if rel == "alternate", origin.url == nil {
                origin.url = resolved
            }
        default:
            break
        }
    }

    func finishItemField(_ kind: ElementKind) {
        guard inItem else { return }
        switch kind {
        case .description, .dcDescription, .itunesSummary, .atomSummary, .mediaDescription:
            if item.endDescription() {
                keepSecondDescription(kind)
                return
            }
        default:
            break
        }
        switch kind {
        case .title, .atomTitle:
            // The first title with text wins, as in feedparser (a second `<title>` from a plugin does not replace it).
            if item.title == nil || item.titleIsBlank {
                item.titleIsBlank = !text.bytes.contains { $0 > 0x20 }
                item.title = rawText(.plainText(markup: capturedTitleIsMarkup(kind)))
            }
        case .dcTitle:
            if item.title == nil { item.title = rawText(.plainText(markup: capturedTitleIsMarkup(kind))) }
        case .atomLink:
            if let taken = takeTextLink() { addEntryLink(taken.link, written: taken.written) }
        case .link:
            // The last non-empty link wins, as in feedparser, an Atom alternate link before it too; `<link href="..."/>`
            // counts as its href.
            let reading = RawText.Reading.url(RawText.LinkBase(base: urlBase(captureBaseCount)))
            if let link = trimmedRawText(reading) {
                item.link = link
                item.alternateLink = nil
            } else if let href = captureAttribute, !FeedText.trimmed(href).isEmpty {
                item.link = Array(href.utf8).withUnsafeBufferPointer { item.keep($0, as: reading) }
                item.alternateLink = nil
            }
        case .description, .dcDescription, .itunesSummary:
            // The last of these wins, as in feedparser (a podcast's longer itunes:summary after its description).
            item.description = descriptionRawText(kind)
        case .itunesSubtitle, .mediaDescription:
            if kind == .itunesSubtitle, item.details?.value.itunesSubtitle == nil {
                let subtitle = FeedText.plainText(text.bytes)
                if !subtitle.isEmpty { item.updateDetails { $0.itunesSubtitle = subtitle } }
            }
            if item.mediaDescription == nil {
                item.mediaDescription = rawText(.html(links: linkBase()))
            }
        case .contentEncoded:
            // The first of several is the content, as feedparser's `content[0]`; an empty one gives way.
            if item.contentEncoded?.range.isEmpty ?? true { item.contentEncoded = rawText(.html(links: linkBase())) }
        case .rights:
            if item.rights == nil {
                item.rights = rawText(.plainText(markup: captureType != .text))
                // Rights with markup (a link to the licence) are kept as HTML too, as the feed's are; they are rare,
                // so this is done here rather than when the item is built.
                if let html = markupKept() { item.updateDetails { $0.rightsHTML = html } }
            }
        case .fullitem:
            if item.contentEncoded == nil {
                item.contentEncoded = rawText(.html(links: linkBase()))
            }
        case .xhtmlBody:
            if item.contentEncoded == nil { item.contentEncoded = rawText(.trimmed) }
        case .atomContent:
            // The first content wins, feedparser's `content[0]`: an entry with two (rome's Atom 0.3 tests) shows its
            // first.
            guard item.atomContentText == nil, item.atomContentHTML == nil else { break }
            switch captureType {
            case .text, .base64, .opaque: item.atomContentText = rawText(.verbatim)
            case .html: item.atomContentHTML = rawText(.html(links: linkBase()))
            case .xhtml: item.atomContentHTML = rawText(.trimmed)
            }
        case .atomSummary:
            // A summary written as HTML or XHTML keeps its markup: it is the content of an entry that has none.
            switch captureType {
            case .text, .base64, .opaque: item.summary = rawText(.plainText(markup: false))
            case .html: item.summaryHTML = rawText(.html(links: linkBase()))
            case .xhtml: item.summaryHTML = rawText(.trimmed)
            }
        case .guid:
            // Kept as written in `_tributary.guid` (DESIGN.md section 3); a permalink guid without a scheme is also
            // resolved against the base, as feedparser resolves it, to be the item's id (and its address when it
            // has no link). Of two guids the last names the item, as in feedparser: one marked
            // `isPermaLink="false"` after a permalink names it as written, and the permalink's address stays.
            let value = trimmedRawText(.verbatim)
            if let value { item.guid = value }
            if item.guidIsPermaLink {
                item.resolvedID = resolvedIdentifier()
                if let value { item.permaLinkGuid = (value, item.resolvedID) }
            } else {
                item.resolvedID = nil
            }
        case .atomID:
            if let value = trimmedRawText(.verbatim) { item.atomID = value }
            item.resolvedID = resolvedIdentifier()
        case .pubDate, .atomPublished, .dcIssued:
            // Of several, the last readable one wins, as in feedparser (Atom 0.3's `issued` then `published`;
            // `dcterms:issued` is its `published` too, so a `dcterms:modified` after it is the item's update).
            item.published = parseDate() ?? item.published
        case .dcDate:
            // `dc:date` and `dcterms:modified` are feedparser's `updated`, as Atom's `updated` is: of those, the
            // last readable one wins.
            if let date = parseDate() {
                item.dcDate = date
                item.updated = nil
            }
        case .dcCreated, .atomCreated:
            // When the item was created; as before, also its date (`dcterms:created` as `dc:date`, Atom 0.3's
            // `created` as its publication) when it has no other.
            let date = parseDate()
            if let date { item.updateDetails { $0.created = date } }
            if kind == .dcCreated {
                item.dcDate = date ?? item.dcDate
            } else {
                item.published = item.published ?? date
            }
        case .expirationDate:
            if let date = parseDate() { item.updateDetails { $0.expires = date } }
        case .ccLicense:
            let value = trimmedText()
            if !value.isEmpty, item.details?.value.license == nil { item.updateDetails { $0.license = value } }
        case .dcPublisher:
            if item.details?.value.publisher == nil, let publisher = Self.rssAuthor(textAsWritten()) {
                item.updateDetails { $0.publisher = publisher }
            }
        case .dcContributor:
            if let contributor = Self.rssAuthor(textAsWritten()), !item.contributors.contains(contributor) {
                item.contributors.append(contributor)
            }
        case .atomUpdated:
            // The last readable of Atom's `updated` and `dc:date` wins (see `.dcDate`).
            if let date = parseDate() {
                item.updated = date
                item.dcDate = nil
            }
        case .author:
            if let author = Self.rssAuthor(trimmedText()) { item.authors.append(author) }
        case .dcCreator, .itunesAuthor:
            if let author = Self.rssAuthor(textAsWritten()),
                item.authors.contains(where: { $0.name == author.name && $0.email == author.email }) == false
            {
                item.authors.append(author)
            }
        case .category, .dcSubject:
            let tag = textAsWritten()
            Self.addTag(tag, to: &item.tags)
            if kind == .category { item.addCategory(tag, scheme: captureAttribute, label: captureLabel) }
        case .itunesKeywords:
            Self.addKeywords(textAsWritten(), to: &item.tags)
        case .itunesDuration:
            let written = trimmedText()
            item.itunesDuration = Self.duration(written)
            if !written.isEmpty { item.updateDetails { $0.itunesDuration = written } }
        case .language, .dcLanguage:
            let value = trimmedText()
            if !value.isEmpty { item.language = value }
        case .georssPoint, .georssLine, .georssPolygon, .georssBox:
            item.where = Geometry.georss(kind, trimmedText()) ?? item.where
        case .gmlPos, .gmlPosList:
            item.where = Geometry.gml(item.gmlShape, trimmedText(), item.gmlSRS) ?? item.where
        case .comments, .wfwCommentRSS:
            let value = trimmedText()
            guard !value.isEmpty else { break }
            let resolved = resolve(value, baseCount: captureBaseCount)
            if kind == .comments { item.comments = resolved } else { item.commentsFeed = resolved }
        case .wfwComment:
            let value = trimmedText()
            if !value.isEmpty { item.updateDetails { $0.commentsAPI = resolve(value, baseCount: captureBaseCount) } }
        case .itunesBlock:
            item.itunes.block = item.itunes.block ?? String(decoding: text.bytes, as: UTF8.self)
        case .itunesExplicit:
            item.itunes.explicit = item.itunes.explicit ?? String(decoding: text.bytes, as: UTF8.self)
        case .mediaTitle:
            if item.mediaTitle == nil { item.mediaTitle = rawText(.plainText(markup: capturedTitleIsMarkup(kind))) }
        case .source:
            let title = plainTitle(of: kind)
            // `url=""` names no feed (resolved, it would be this feed's own address).
            let url = Self.nonBlank(captureAttribute).map { resolve($0, baseCount: captureBaseCount) }
            if !title.isEmpty || url != nil {
                item.origin = TributaryExtension.Origin(title: title.isEmpty ? nil : title, url: url)
            }
        default:
            break
        }
    }

    /// The scheme of an iTunes category: Apple's list of podcast categories, named by the URI feedparser gives it.
    static let iTunesCategoryScheme = "http://www.itunes.com/"

    /// Reads RSS's `jane@example.com (Jane Doe)`, `Jane Doe (jane@example.com)`, `Jane Doe <jane@example.com>`, a
    /// bare name or a bare address, as feedparser does: the first word that is an address (`mailto:` dropped) is
    /// the email, and what is left, without its brackets, is the name.
    static func rssAuthor(_ value: String) -> FeedItem.Author? {
        guard !value.isEmpty else { return nil }
        let separators: Set<Character> = [" ", "\t", "\n", "\r", "(", ")", "<", ">", ",", ";", "[", "]", "\""]
        var email: Substring?
        var index = value.startIndex
        while index < value.endIndex, email == nil {
            guard !separators.contains(value[index]) else {
                index = value.index(after: index)
                continue
            }
            let end = value[index...].firstIndex(where: { separators.contains($0) }) ?? value.endIndex
            let word = value[index..<end]
            if let at = word.firstIndex(of: "@"), at > word.startIndex, word[word.index(after: at)...].contains(".") {
                email = word
            }
            index = end
        }
        guard let email else { return FeedItem.Author(name: value) }
        var name = String(value[..<email.startIndex]) + String(value[email.endIndex...])
        name = name.replacingOccurrences(of: "()", with: "").replacingOccurrences(of: "<>", with: "")
        name = name.trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("(") { name.removeFirst() }
        if name.hasSuffix(")") { name.removeLast() }
        name = name.trimmingCharacters(in: .whitespaces)
        var address = String(email)
        if address.lowercased().hasPrefix("mailto:") { address.removeFirst(7) }
        return FeedItem.Author(name: name.isEmpty ? nil : name, email: address)
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

    /// A field of an Atom entry's `<source>`: what the feed the entry was copied from says of itself.
    func finishOriginField(_ kind: ElementKind) {
        switch kind {
        case .atomTitle: origin.title = plainTitle(of: kind)
        case .atomSubtitle:
            origin.subtitle = nonEmpty(plainTitle(of: kind))
            // Written with markup, kept as HTML too, as the feed's own subtitle and rights are.
            if origin.subtitle != nil, let html = markupKept() { origin.subtitleHTML = html }
        case .rights:
            origin.rights = nonEmpty(plainTitle(of: kind))
            if origin.rights != nil, let html = markupKept() { origin.rightsHTML = html }
        case .atomID: origin.id = nonEmpty(trimmedText())
        case .atomUpdated: origin.updated = parseDate()
        case .atomGenerator: origin.generator = nonEmpty(FeedText.plainText(text.bytes))
        case .atomIcon, .atomLogo:
            let value = trimmedText()
            guard !value.isEmpty else { return }
            let url = resolve(value, baseCount: captureBaseCount)
            if kind == .atomIcon { origin.icon = url } else { origin.logo = url }
        default: break
        }
    }

    private func nonEmpty(_ string: String) -> String? { string.isEmpty ? nil : string }

    /// Adds `tag` to `tags` once, the white space around it trimmed; an empty one is dropped. Items, feeds and an
    /// Atom source collect their categories through here.
    static func addTag(_ tag: String, to tags: inout [String]) {
        let tag = FeedText.trimmed(tag)
        guard !tag.isEmpty, !tags.contains(tag) else { return }
        if tags.isEmpty { tags.reserveCapacity(4) }
        tags.append(tag)
    }

    /// iTunes `keywords`: comma-separated tags.
    static func addKeywords(_ keywords: String, to tags: inout [String]) {
        for keyword in keywords.split(separator: ",") { addTag(String(keyword), to: &tags) }
    }

    /// An attribute's value as plain text (a category's `term`, `label` or `text`): white space collapsed, nothing
    /// decoded again (libxml2 decoded its references).
    static func attributeText(_ value: String) -> String {
        FeedText.plainText(value, stripTags: false, decodeEntities: false)
    }

    /// An Atom `link`'s relation: its `rel` trimmed, `alternate` when it has none (RFC 4287 4.2.7.2).
    static func linkRel(_ attributes: Attributes) -> String {
        nonBlank(attributes.value("rel")) ?? "alternate"
    }

    /// Keeps an entry's Atom link (its `url` resolved; `written` as the feed wrote it) and, by its relation, the
    /// entry's address or an attachment.
    func addEntryLink(_ link: TributaryExtension.Link, written: String) {
        item.links.append(link)
        let resolved = link.url
        switch link.rel {
        case "alternate":
            // The entry's address is its last alternate link to a web page (no type, or an HTML one), as
            // feedparser reads it (one with an unsafe scheme, dropped later, does not count); an alternate of
            // another type (a PDF) is only kept as a last resort.
            guard FeedItem.isSafeLink(resolved) else { break }
            if Self.isWebPage(link) {
                item.alternateLink = resolved
            } else if item.otherAlternateLink == nil {
                item.otherAlternateLink = resolved
            }
        case "enclosure":
            guard !FeedText.trimmed(written).isEmpty else { break }  // `href=""` names no file
            item.addAttachment(
                FeedItem.Attachment(url: resolved, mimeType: link.type, title: link.title, sizeInBytes: link.length)
            )
        default:
            // With no alternate link, another link may stand for the entry (`related`, a podcast's deep link to
            // its episode), never one of those that name something else: a Flattr `payment` link was the address
            // of every episode of a podcast.
            if item.firstAtomLink == nil, !Self.relationsNotTheEntry.contains(link.rel.lowercased()) {
                item.firstAtomLink = resolved
            }
        }
    }

    /// Link relations (IANA's registry) that never name the entry's own page.
    static let relationsNotTheEntry: Set<String> = [
        "self", "replies", "payment", "license", "edit", "edit-media", "edit-form", "create-form", "hub", "search",
        "first", "last", "next", "prev", "previous", "up", "service", "author", "icon", "stylesheet", "describedby",
        "help", "index", "profile", "pingback", "webmention", "preview", "terms-of-service", "privacy-policy",
    ]

    /// Whether an Atom link leads to a web page: no type, or an HTML one (`text/html; charset=utf-8` too).
    static func isWebPage(_ link: TributaryExtension.Link) -> Bool {
        guard let type = link.type else { return true }
        let essence = FeedText.trimmed(String(type.prefix { $0 != ";" })).lowercased()
        return essence == "text/html" || essence == "application/xhtml+xml"
    }

    /// Starts reading an Atom link whose address is its text (`<link rel="alternate">https://...</link>`, an RSS
    /// habit in Atom feeds that feedparser reads too): its attributes now, its address when the element ends
    /// (``takeTextLink()``).
    func beginTextLink(_ attributes: Attributes, scope: Scope, depth: Int) {
        pendingLink = Self.link(rel: Self.linkRel(attributes), url: "", attributes)
        beginCapture(.atomLink, scope: scope, depth: depth, type: .text)
    }

    /// The Atom link begun by ``beginTextLink(_:scope:depth:)``, its address resolved, and the address as written;
    /// `nil` when the element held no text.
    func takeTextLink() -> (link: TributaryExtension.Link, written: String)? {
        guard var link = pendingLink else { return nil }
        pendingLink = nil
        let written = trimmedText()
        guard !written.isEmpty else { return nil }
        link.url = resolve(written, baseCount: captureBaseCount)
        return (link, written)
    }

    /// An Atom `link` element as ``TributaryExtension/Link``: its `rel` (already read), its resolved `url`, and its
    /// `type`, `title` (plain text), `hreflang` and `length` (a whole number of bytes) when it has them.
    static func link(rel: String, url: String, _ attributes: Attributes) -> TributaryExtension.Link {
        func value(_ name: StaticString) -> String? { nonBlank(attributes.value(name)) }
        return TributaryExtension.Link(
            rel: rel,
            url: url,
            type: value("type"),
            title: attributes.value("title").map { attributeText($0) }.flatMap { $0.isEmpty ? nil : $0 },
            hreflang: value("hreflang"),
            length: value("length").flatMap { Int($0) }
        )
    }

    /// Keeps the description-like element just read as feedparser's second description, the item's content
    /// (``ItemBuilder/secondDescription``): HTML, or text for an Atom summary of type text.
    private func keepSecondDescription(_ kind: ElementKind) {
        guard kind == .atomSummary else {
            item.secondDescription = descriptionRawText(kind)
            return
        }
        item.secondDescriptionIsText = captureType == .text || captureType == .base64
        switch captureType {
        case .text, .base64, .opaque: item.secondDescription = rawText(.plainText(markup: false))
        case .html: item.secondDescription = rawText(.html(links: linkBase()))
        case .xhtml: item.secondDescription = rawText(.trimmed)
        }
    }

    /// A description-like element's captured text, kept to be read as HTML. An `itunes:summary` is plain text by
    /// its format, but podcasts write HTML show notes there: it is HTML only when it looks like HTML
    /// (``FeedText/looksLikeHTML(_:)``, feedparser's guess); otherwise its text is escaped
    /// (``plainTextAsHTML(_:)``), so that `fscklog <http://www.fscklog.com/>` keeps its address instead of losing
    /// it as a tag.
    private func descriptionRawText(_ kind: ElementKind) -> RawText {
        let bytes = text.bytes
        guard kind == .itunesSummary, !FeedText.looksLikeHTML(bytes) else {
            return rawText(.html(links: linkBase()))
        }
        let html = Self.plainTextAsHTML(bytes)
        return html.withUnsafeBufferPointer { item.keep($0, as: .html(links: linkBase())) }
    }

    /// Plain text as HTML that shows it: `&`, `<` and `>` escaped, an empty line kept as a paragraph break. A line
    /// break within a paragraph is kept (`<br>`) when every line starts flush left, as an author writes a list of
    /// links or chapters; when lines are indented, they are one paragraph wrapped and indented with the XML around
    /// it, and the break is a space.
    static func plainTextAsHTML(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var lines: [Range<Int>] = []
        var lineStart = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
            var lineEnd = index
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lines.append(lineStart..<lineEnd)
            lineStart = index + 1
        }
        func isBlank(_ line: Range<Int>) -> Bool { !bytes[line].contains { $0 > 0x20 } }
        while let first = lines.first, isBlank(first) { lines.removeFirst() }
        while let last = lines.last, isBlank(last) { lines.removeLast() }
        let wrapped = lines.dropFirst().contains {
            !isBlank($0) && (bytes[$0.lowerBound] == 0x20 || bytes[$0.lowerBound] == 0x09)
        }
        let output = TextBuffer()
        var pendingBreak: StaticString?
        for line in lines {
            if isBlank(line) {
                pendingBreak = "<br>\n<br>\n"
                continue
            }
            if let brk = pendingBreak {
                output.append(brk.utf8Start, count: brk.utf8CodeUnitCount)
            } else if output.count > 0 {
                let brk: StaticString = wrapped ? "\n" : "<br>\n"
                output.append(brk.utf8Start, count: brk.utf8CodeUnitCount)
            }
            pendingBreak = nil
            var start = line.lowerBound
            while start < line.upperBound, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            output.appendEscaped(UnsafeBufferPointer(rebasing: bytes[start..<line.upperBound]))
        }
        return output.array
    }

    /// The captured identifier (a guid, an Atom id) resolved against the base in effect, when it has no scheme and
    /// a web base makes it an http(s) URL; `nil` otherwise (most identifiers have a scheme: `tag:`, `urn:`, `https:`).
    func resolvedIdentifier() -> String? {
        // Looked at in place first: most identifiers have a scheme, and then no `String` is made.
        let bytes = text.bytes
        guard let start = bytes.firstIndex(where: { $0 > 0x20 }),
            !FeedText.hasScheme(UnsafeBufferPointer(rebasing: bytes[start...]))
        else { return nil }
        return ItemBuilder.webAddress(resolve(trimmedText(), baseCount: captureBaseCount))
    }
}
