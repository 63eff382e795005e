import CLibXML2
import Foundation
import HTMLSanitizer
import TributaryCore

/// Reading the channel (RSS) or feed (Atom) header.
extension FeedSAXHandler {
    func startOutsideItem(
        _ kind: ElementKind,
        parent: ElementKind,
        depth: Int,
        namespace: UnsafePointer<xmlChar>?,
        attributes: Attributes
    ) {
        let inChannel = parent == .channel || parent == .atomFeed
        switch kind {
        case .channel where format == .rss10:
            heldRSS = true
            if let namespace,
                ElementKind.rss090Namespaces.contains(ElementKind.normalizedNamespace(String(cString: namespace)))
            {
                format = .rss090
            }
        case .item where parent != .image && parent != .textInput, .atomEntry:
            // Wherever it is, as feedparser reads it: an element left open before the items (an unclosed
            // `<itunes:category>`) does not hide them.
            // A builder left by an item that never ended is replaced; one that ``completeItem()`` put there is new.
            if !itemIsNew { item = ItemBuilder(textCapacity: itemTextCapacity) }
            itemIsNew = false
            inItem = true
            heldRSS = true
            itemDepth = depth
            item.language = currentLanguage
            if kind == .item { readRDFAbout(attributes) }
            if format == .cdf, attributes.count > 0 {
                readCDFItemAttributes(attributes, baseCount: stack[depth].baseCount)
            }
        case .url where parent == .image, .title where parent == .image, .link where parent == .image,
            .description where parent == .image, .width where parent == .image, .height where parent == .image:
            beginCapture(kind, scope: .channelImage, depth: depth, type: .text)
        case .title where parent == .textInput, .description where parent == .textInput,
            .name where parent == .textInput, .link where parent == .textInput:
            beginCapture(kind, scope: .textInput, depth: depth, type: .text)
        case .cloud where inChannel:
            let names: [(StaticString, String)] = [
                ("domain", "domain"), ("port", "port"), ("path", "path"),
                ("registerProcedure", "registerProcedure"), ("protocol", "protocol"),
            ]
            for (attribute, name) in names {
                if let value = Self.nonBlank(attributes.value(attribute)) { channelExtras.cloud[name] = value }
            }
        case .ttl where inChannel, .docs where inChannel, .atomInfo where inChannel:
            beginCapture(kind, scope: .channel, depth: depth, type: textType(kind, attributes))
        case .title, .atomTitle, .dcTitle, .link, .description, .dcDescription, .atomSubtitle, .language, .dcLanguage,
            .generator, .atomGenerator, .lastBuildDate, .pubDate, .dcDate, .atomUpdated, .managingEditor, .dcCreator,
            .atomLogo, .atomIcon, .author, .itunesAuthor, .rights, .itunesSummary, .itunesSubtitle, .atomID, .category,
            .dcSubject, .itunesKeywords, .itunesBlock, .itunesExplicit, .webMaster, .dcPublisher, .dcCreated, .dcIssued,
            .dcValid, .dcContributor:
            guard inChannel else { return }
            if kind == .atomGenerator || kind == .generator, channelGenerator == nil {
                channelGeneratorVersion = Self.nonBlank(attributes.value("version"))
                channelGeneratorURL = (attributes.value("uri") ?? attributes.value("url")).map {
                    resolve(FeedText.trimmed($0), baseCount: stack[depth].baseCount)
                }
            }
            if kind == .link { captureAttribute = attributes.value("href") }  // <link href="..."/>, Atom's form
            if kind == .category { captureAttribute = attributes.value("domain") }
            beginCapture(kind, scope: .channel, depth: depth, type: textType(kind, attributes))
        case .itunesName where parent == .itunesOwner, .itunesEmail where parent == .itunesOwner:
            beginCapture(kind, scope: .channel, depth: depth, type: .text)
        case .atomCategory where inChannel:
            if let term = attributes.value("term") ?? attributes.value("label") {
                let tag = Self.attributeText(term)
                Self.addTag(tag, to: &channelTags)
                addChannelCategory(tag, scheme: attributes.value("scheme"), label: attributes.value("label"))
            } else {
                beginCapture(.category, scope: .channel, depth: depth, type: .text)
            }
        case .itunesCategory where inChannel || parent == .itunesCategory:
            // Nested categories (`Technology` > `Gadgets`) are each a tag, as feedparser reads them.
            if let name = attributes.value("text") {
                let tag = Self.attributeText(name)
                Self.addTag(tag, to: &channelTags)
                addChannelCategory(tag, scheme: Self.iTunesCategoryScheme, label: nil)
            }
        case .atomLink where inChannel:
            guard let href = attributes.value("href") ?? attributes.value("url") else {
                beginTextLink(attributes, scope: .channel, depth: depth)
                return
            }
            addChannelLink(
                Self.link(
                    rel: Self.linkRel(attributes),
                    url: resolve(href, baseCount: stack[depth].baseCount),
                    attributes
                )
            )
        case .atomAuthor where inChannel, .atomContributor where inChannel:
            author = FeedItem.Author()
            authorScope = .channel
        case .atomName, .atomEmail, .atomURI:
            guard author != nil, parent == .atomAuthor || parent == .atomContributor else { return }
            beginCapture(kind, scope: .author, depth: depth, type: .text)
        case .itunesImage where inChannel, .itunesLink where inChannel && attributes.has("rel", equalTo: "image"):
            if channelImage == nil, let href = attributes.value("href") ?? attributes.value("url") {
                channelImage = resolve(href, baseCount: stack[depth].baseCount)
            }
        default:
            break
        }
    }

    /// Keeps a feed's Atom link: the feed's own address (`self`) or its home page (its last alternate web page).
    func addChannelLink(_ link: TributaryExtension.Link) {
        let resolved = link.url
        if format == .atom10 || format == .atom03 { channelLinks.append(link) }
        if link.rel == "self" {
            channelFeedURL = channelFeedURL ?? resolved
        } else if link.rel == "alternate", channelLink == nil || format == .atom10 || format == .atom03 {
            // The feed's home page is its last alternate web page (no type, or an HTML one), as feedparser reads it;
            // an alternate of another type (the RSS version of the feed) only when there is no other.
            if Self.isWebPage(link), FeedItem.isSafeLink(resolved) {
                channelLink = resolved
            } else if channelLink == nil {
                channelLink = resolved
            }
        }
    }

    func finishChannelField(_ kind: ElementKind) {
        switch kind {
        case .atomLink:
            if let taken = takeTextLink() { addChannelLink(taken.link) }
        case .title, .atomTitle:
            // The first title with text wins, as in feedparser.
            if channelTitle?.isEmpty ?? true {
                channelTitle = plainTitle(of: kind)
                noteChannelField("title")
            }
        case .dcTitle:
            if channelTitle == nil {
                channelTitle = plainTitle(of: kind)
                noteChannelField("title")
            }
        case .link:
            // The last non-empty link wins, as in feedparser; `<link href="..."/>` counts as its href.
            var value = trimmedText()
            if value.isEmpty, let href = captureAttribute { value = FeedText.trimmed(href) }
            if !value.isEmpty { channelLink = resolve(value, baseCount: captureBaseCount) }
        case .rights:
            if channelRights == nil {
                channelRights = plainTitle(of: kind)
                channelRightsHTML = markupKept()
                noteChannelField("rights")
            }
        case .ttl:
            if let minutes = Int(trimmedText()), minutes >= 0 { channelExtras.ttl = minutes }
        case .docs:
            let value = trimmedText()
            if !value.isEmpty { channelExtras.docs = resolve(value, baseCount: captureBaseCount) }
        case .atomInfo:
            if channelExtras.info == nil {
                channelExtras.info = plainTitle(of: kind)
                channelExtras.infoHTML = markupKept()
                noteChannelField("info")
            }
        case .itunesSubtitle:
            if channelITunesSubtitle == nil { channelITunesSubtitle = FeedText.plainText(text.bytes) }
        case .atomID:
            let value = trimmedText()
            if !value.isEmpty, channelID == nil {
                channelID = value
                channelResolvedID = resolvedIdentifier()
            }
        case .category, .dcSubject:
            let tag = textAsWritten()
            Self.addTag(tag, to: &channelTags)
            if kind == .category { addChannelCategory(tag, scheme: captureAttribute, label: nil) }
        case .itunesKeywords:
            Self.addKeywords(textAsWritten(), to: &channelTags)
        case .description, .dcDescription, .atomSubtitle, .itunesSummary:
            // An `itunes:summary` is plain text unless it looks like HTML, as in an item.
            if kind == .itunesSummary, !FeedText.looksLikeHTML(text.bytes) { captureType = .text }
            if channelDescription == nil {
                channelDescription =
                    captureType == .text
                    ? FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
                    : FeedText.plainText(text.bytes)
                channelDescriptionHTML = markupKept()
                noteChannelField("description")
            }
        case .language, .dcLanguage:
            let value = trimmedText()
            if !value.isEmpty, channelLanguage == nil { channelLanguage = value }
        case .generator, .atomGenerator:
            let value = FeedText.plainText(text.bytes)
            if !value.isEmpty, channelGenerator == nil {
                channelGenerator = value
            }
        case .lastBuildDate, .atomUpdated:
            channelUpdated = parseDate() ?? channelUpdated
        case .pubDate, .dcDate, .dcIssued:
            let date = parseDate()
            if channelUpdated == nil { channelUpdated = date }
            if kind == .pubDate, channelPublished == nil { channelPublished = date }
            // `dcterms:issued` is when the feed was published, as feedparser reads it (its `published`).
            if kind == .dcIssued, let date { channelPublished = date }
        case .dcCreated:
            channelExtras.created = parseDate() ?? channelExtras.created
        case .dcValid:
            let period = FeedDate.period(trimmedText())
            channelExtras.validStart = period.start ?? channelExtras.validStart
            channelExtras.validEnd = period.end ?? channelExtras.validEnd
        case .dcContributor:
            if let contributor = Self.rssAuthor(textAsWritten()), !channelContributors.contains(contributor) {
                channelContributors.append(contributor)
            }
        case .itunesBlock:
            channelITunes.block = channelITunes.block ?? String(decoding: text.bytes, as: UTF8.self)
        case .itunesExplicit:
            channelITunes.explicit = channelITunes.explicit ?? String(decoding: text.bytes, as: UTF8.self)
        case .webMaster, .dcPublisher:
            // The publisher (RSS `webMaster`, `dc:publisher`, iTunes `owner`): `me@example.com (Name)` is split.
            if channelPublisher == nil { channelPublisher = Self.rssAuthor(textAsWritten()) }
        case .itunesName:
            let name = FeedText.plainText(text.bytes)
            if !name.isEmpty, channelPublisher?.name == nil {
                channelPublisher = FeedItem.Author(name: name, url: nil, email: channelPublisher?.email)
            }
        case .itunesEmail:
            let email = trimmedText()
            if !email.isEmpty, channelPublisher?.email == nil {
                channelPublisher = FeedItem.Author(name: channelPublisher?.name, url: nil, email: email)
            }
        case .managingEditor, .author, .dcCreator, .itunesAuthor:
            // `me@example.com (Jane Doe)` and `Jane Doe <me@example.com>` become a name and an address.
            if let author = Self.rssAuthor(textAsWritten()), !channelAuthors.contains(author) {
                channelAuthors.append(author)
            }
        case .atomLogo, .atomIcon:
            let value = trimmedText()
            guard !value.isEmpty else { break }
            let resolved = resolve(value, baseCount: captureBaseCount)
            if channelImage == nil || kind == .atomLogo { channelImage = resolved }
            // An Atom icon is small and square: JSON Feed's favicon.
            if kind == .atomIcon, channelFavicon == nil { channelFavicon = resolved }
        default:
            break
        }
    }

    /// Keeps the language and base of the channel field just read, when the document sets either.
    func noteChannelField(_ name: String) {
        guard captureContext != nil else { return }
        channelFieldContexts.removeAll { $0.name == name }
        channelFieldContexts.append((name, captureContext))
    }

    /// The channel's extras with its base, and the languages and bases of its fields that differ from its own.
    var extrasWithFieldContexts: FeedMetadata.Extras {
        guard channelBase != nil || !channelFieldContexts.isEmpty else { return channelExtras }
        var extras = channelExtras
        extras.base = channelBase
        (extras.languages, extras.bases) = FieldContext.differences(
            channelFieldContexts,
            language: feedLanguage,
            base: channelBase
        )
        return extras
    }

    /// A CDF `<ITEM>`'s address (`HREF`) and date (`LASTMOD`, its modification date), read from its attributes.
    func readCDFItemAttributes(_ attributes: Attributes, baseCount: Int) {
        if let href = Self.nonBlank(attributes.value(anyCase: "href")) {
            item.alternateLink = resolve(href, baseCount: baseCount)
        }
        if let lastModified = attributes.value(anyCase: "lastmod") {
            item.updated = FeedDate.parse(lastModified)
        }
    }

    /// Keeps a channel category with its scheme and label (blank ones are none); an empty term is no category.
    func addChannelCategory(_ term: String, scheme: String?, label: String?) {
        let term = FeedText.trimmed(term)
        guard !term.isEmpty else { return }
        channelCategories.append(
            TributaryExtension.Category(term: term, scheme: Self.nonBlank(scheme), label: Self.nonBlank(label))
        )
    }

    /// The captured HTML or XHTML of a feed's description or rights, sanitized, when it holds markup or references
    /// (its plain text says less); `nil` for text, or HTML that is plain already.
    func markupKept() -> String? {
        guard captureType != .text, text.bytes.contains(where: { $0 == 0x3C || $0 == 0x26 }) else { return nil }
        let html = String(decoding: text.bytes, as: UTF8.self)
        guard let sanitizer = options.sanitizer else { return html }
        let safe = sanitizer.sanitize(html, baseURL: baseString(captureBaseCount).flatMap { URL(string: $0) })
        return safe.isEmpty ? nil : safe
    }
}
