import CLibXML2
import TributaryCore

/// The elements the parser acts on, identified once per distinct (namespace, local name) pair.
///
/// libxml2 interns names in its dictionary, so the same name arrives as the same pointer every time; the handler
/// caches the classification by pointer and never builds a `String` for an element name on the hot path.
enum ElementKind: UInt8 {
    case other
    // Roots.
    case rss, rdf, atomFeed
    // RSS (no namespace, or the RSS 0.90 / 1.0 namespaces).
    case channel, item, title, link, description, guid, pubDate, author, category, enclosure, source, language
    case generator, lastBuildDate, image, url, managingEditor, textInput, comments
    /// RSS channel elements for aggregators: `ttl`, `docs`, `cloud`; `width`, `height` (of the image) and `name`
    /// (of the text input).
    case ttl, docs, cloud, width, height, name
    /// `fullitem` (escaped HTML, as `content:encoded`) and `body` or `xhtml:body` (inline XHTML): an item's content.
    case fullitem, xhtmlBody
    /// RSS `copyright`, `dc:rights`, Atom `rights` (1.0) and `copyright` (0.3).
    case rights
    // Atom 1.0 and 0.3.
    case atomEntry, atomTitle, atomLink, atomContent, atomSummary, atomID, atomUpdated, atomPublished, atomAuthor
    case atomContributor, atomName, atomEmail, atomURI, atomCategory, atomSubtitle, atomGenerator, atomLogo, atomIcon
    case atomSource
    /// Atom 0.3 `info`: what the feed (the format) is, for a person who opens it.
    case atomInfo
    // Modules.
    case contentEncoded, dcCreator, dcDate, dcSubject, dcLanguage, dcTitle, dcDescription
    case mediaContent, mediaThumbnail, mediaGroup, mediaTitle, mediaDescription
    case itunesDuration, itunesImage, itunesLink, itunesAuthor, itunesSummary, itunesSubtitle, itunesCategory,
        itunesKeywords
    case mediaCategory, mediaKeywords
    case itunesBlock, itunesExplicit, itunesOwner, itunesName, itunesEmail, webMaster, dcPublisher
    /// The Comment API's `wfw:commentRss` (the comments' feed) and `wfw:comment` (where comments are posted).
    case wfwCommentRSS, wfwComment
    /// Dublin Core's `dcterms:created`, `dcterms:issued`, `dcterms:valid` and `dc:contributor`; Atom 0.3's `created`;
    /// RSS `expirationDate`; a Creative Commons `license` (`cc:` or Userland's `creativeCommons:`).
    case dcCreated, dcIssued, dcValid, dcContributor, atomCreated, expirationDate, ccLicense
    /// Podlove Simple Chapters: `psc:chapters` and its `psc:chapter`s.
    case pscChapters, pscChapter
    // GeoRSS, simple and GML.
    case georssPoint, georssLine, georssPolygon, georssBox, gmlPoint, gmlLineString, gmlPolygon, gmlPos, gmlPosList

    /// Classifies an element from its namespace URI and local name.
    ///
    /// Both are compared without regard to case, as feedparser does: feeds write `<pubdate>`, `<TiTlE>` and the
    /// iTunes namespace as `http://www.itunes.com/DTDs/PodCast-1.0.dtd`. The handler caches the result per interned
    /// name, so the lowercasing is paid once per distinct name, not per element.
    ///
    /// `atomNamespace` is a namespace read as Atom's besides its own (lower-cased): none (`""`) for a `<feed>`
    /// written without one, or the wrong one a `<feed>` root was written in (`https://www.w3.org/2005/Atom`).
    /// `rssNamespace` is the same for RSS: the namespace an `<rss>` root was written in that is no RSS one
    /// (`https://cyber.harvard.edu/rss/rss.html`, the address of the RSS 2.0 specification).
    static func classify(
        namespace: String,
        localName: String,
        atomNamespace: String? = nil,
        rssNamespace: String? = nil
    ) -> ElementKind {
        let localName = localName.lowercased()
        let written = namespace.lowercased()
        if let atomNamespace, written == atomNamespace { return atom(localName) ?? .other }
        if let rssNamespace, written == rssNamespace { return rss(localName) ?? .other }
        switch normalizedNamespace(namespace) {
        case "":
            return rss(localName) ?? .other
        case let namespace where rss090Namespaces.contains(namespace):
            return rss(localName) ?? .other
        case "http://purl.org/rss/1.0/", "http://backend.userland.com/rss2",
            "http://backend.userland.com/rss", "http://blogs.law.harvard.edu/tech/rss",
            "http://purl.org/rss/1.0/modules/rss091#":
            return rss(localName) ?? .other
        case let other where other.hasPrefix("http://backend.userland.com/rss"):  // rss2.1, rss092...: Userland's
            return rss(localName) ?? .other
        case "http://www.w3.org/2005/atom", "http://purl.org/atom/ns#":
            return atom(localName) ?? .other
        case let namespace where preAtom03Namespaces.contains(namespace):
            return atom(localName) ?? .other
        case "http://www.w3.org/1999/xhtml":
            return localName == "body" ? .xhtmlBody : .other
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns#":
            return localName == "rdf" ? .rdf : .other
        // The content module, and the same address with a dot for its last slash but one (PEAR's RSS 2.0 sample).
        case "http://purl.org/rss/1.0/modules/content/", "http://purl.org/rss/1.0.modules/content/":
            return localName == "encoded" ? .contentEncoded : .other
        // Dublin Core 1.0 (early RSS 1.0 feeds) names the same elements as 1.1.
        case "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/", "http://purl.org/dc/elements/1.0/":
            switch localName {
            case "creator", "author": return .dcCreator
            case "publisher": return .dcPublisher
            case "date", "modified": return .dcDate
            case "created": return .dcCreated
            case "issued": return .dcIssued
            case "valid": return .dcValid
            case "contributor": return .dcContributor
            case "subject": return .dcSubject
            case "language": return .dcLanguage
            case "title": return .dcTitle
            case "description": return .dcDescription
            case "rights": return .rights
            default: return .other
            }
        case "http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss":
            switch localName {
            case "content": return .mediaContent
            case "thumbnail": return .mediaThumbnail
            case "group": return .mediaGroup
            case "title": return .mediaTitle
            case "description": return .mediaDescription
            case "category": return .mediaCategory
            case "keywords": return .mediaKeywords
            default: return .other
            }
        case "http://www.georss.org/georss":
            switch localName {
            case "point": return .georssPoint
            case "line": return .georssLine
            case "polygon": return .georssPolygon
            case "box": return .georssBox
            default: return .other
            }
        case "http://www.opengis.net/gml":
            switch localName {
            case "point": return .gmlPoint
            case "linestring": return .gmlLineString
            case "polygon": return .gmlPolygon
            case "pos": return .gmlPos
            case "poslist": return .gmlPosList
            default: return .other
            }
        case "http://rssnamespace.org/feedburner/ext/1.0":
            // FeedBurner's note to a person who opens the feed in a browser: what feedparser calls `info`.
            return localName == "browserfriendly" ? .atomInfo : .other
        case "http://web.resource.org/cc/", "http://backend.userland.com/creativecommonsrssmodule":
            return localName == "license" ? .ccLicense : .other
        case "http://podlove.org/simple-chapters":
            switch localName {
            case "chapters": return .pscChapters
            case "chapter": return .pscChapter
            default: return .other
            }
        case "http://wellformedweb.org/commentapi/":
            switch localName {
            case "commentrss": return .wfwCommentRSS
            case "comment": return .wfwComment
            default: return .other
            }
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "http://example.com/dtds/podcast-1.0.dtd":
            switch localName {
            case "duration": return .itunesDuration
            case "image": return .itunesImage
            case "link": return .itunesLink
            case "author": return .itunesAuthor
            case "summary": return .itunesSummary
            case "subtitle": return .itunesSubtitle
            case "category": return .itunesCategory
            case "keywords": return .itunesKeywords
            case "block": return .itunesBlock
            case "explicit": return .itunesExplicit
            case "owner": return .itunesOwner
            case "name": return .itunesName
            case "email": return .itunesEmail
            default: return .other
            }
        default:
            return .other
        }
    }

    /// A namespace as the known ones are written: lower-cased, without the white space around it, `http` for
    /// `https`, and with the last slash a module's address has. Feeds write all of these (a `https` Dublin Core on
    /// theweek.com and in Microsoft's MSN feed specification, `xmlns:dc="  http://purl.org/dc/elements/1.1/  "`,
    /// `http://purl.org/dc/elements/1.1` in rss-parser's podcast feed) and feedparser reads such elements by their
    /// prefix; so a module's elements are read whichever of these ways its address is written. Atom's own written
    /// with `https` is left as it is: a `<feed>` in it is read as Atom with a warning (`atomNamespace`).
    static func normalizedNamespace(_ namespace: String) -> String {
        var normalized = FeedText.trimmed(namespace.lowercased())
        if normalized.hasPrefix("https://"), normalized != "https://www.w3.org/2005/atom" {
            normalized = "http://" + normalized.dropFirst("https://".count)
        }
        if !normalized.isEmpty, !normalized.hasSuffix("/"), slashEndedNamespaces.contains(normalized + "/") {
            normalized += "/"
        }
        return normalized
    }

    /// RSS 0.90's namespace, as Netscape published it and as some of its feeds wrote it (`channel.netscape.com`).
    static let rss090Namespaces: Set<String> = [
        "http://my.netscape.com/rdf/simple/0.9/", "http://channel.netscape.com/rdf/simple/0.9/",
    ]

    /// The known namespaces that end with a slash, for those written without it.
    static let slashEndedNamespaces: Set<String> = [
        "http://purl.org/rss/1.0/", "http://purl.org/rss/1.0/modules/content/", "http://purl.org/dc/elements/1.1/",
        "http://purl.org/dc/elements/1.0/", "http://purl.org/dc/terms/", "http://web.resource.org/cc/",
        "http://wellformedweb.org/commentapi/",
        "http://my.netscape.com/rdf/simple/0.9/", "http://channel.netscape.com/rdf/simple/0.9/",
    ]

    /// The namespaces of Atom's drafts before 0.3 (Echo, Pie, Necho), read as Atom 0.3 as feedparser does.
    static let preAtom03Namespaces: Set<String> = [
        "http://example.com/newformat#", "http://example.com/necho", "http://purl.org/echo/", "uri/of/echo/namespace#",
        "http://purl.org/pie/",
    ]

    private static func rss(_ name: String) -> ElementKind? {
        switch name {
        case "rss": .rss
        case "channel": .channel
        case "item": .item
        case "title": .title
        case "link": .link
        case "description": .description
        case "guid": .guid
        case "pubdate": .pubDate
        case "author": .author
        case "category": .category
        case "enclosure": .enclosure
        case "source": .source
        case "language": .language
        case "generator": .generator
        case "lastbuilddate": .lastBuildDate
        case "image": .image
        case "url": .url
        case "managingeditor": .managingEditor
        case "webmaster": .webMaster
        case "textinput": .textInput
        case "comments": .comments
        case "ttl": .ttl
        case "docs": .docs
        case "cloud": .cloud
        case "width": .width
        case "height": .height
        case "name": .name
        case "fullitem": .fullitem
        case "copyright": .rights
        case "body": .xhtmlBody
        case "abstract": .description  // CDF's description
        case "expirationdate": .expirationDate
        case "summary": .atomSummary  // an RSS item's `<summary>`, read as feedparser reads it: its summary
        case "content": .atomContent  // an RSS item's `<content>` (no namespace), its content as in feedparser
        case "id": .atomID  // an RSS item's `<id>` (Assembla's tickets), its id when it has no guid, as in feedparser
        // Atom's date names written in RSS without a namespace (`<modified>` beside `<pubDate>`), read as feedparser
        // reads them wherever they are.
        case "updated", "modified": .atomUpdated
        default: nil
        }
    }

    private static func atom(_ name: String) -> ElementKind? {
        switch name {
        case "feed": .atomFeed
        // An `<item>` in an Atom feed is an entry, as feedparser reads it (Atom 0.3 feeds written by RSS habit).
        case "entry", "item": .atomEntry
        case "title": .atomTitle
        case "link": .atomLink
        case "content": .atomContent
        case "summary": .atomSummary
        case "id": .atomID
        case "updated", "modified": .atomUpdated
        case "published", "issued": .atomPublished
        case "created": .atomCreated
        case "author": .atomAuthor
        case "contributor": .atomContributor
        case "name": .atomName
        case "email": .atomEmail
        case "uri", "url", "homepage": .atomURI
        case "category": .atomCategory
        case "subtitle", "tagline": .atomSubtitle
        case "generator": .atomGenerator
        case "logo": .atomLogo
        case "icon": .atomIcon
        case "source": .atomSource
        case "info": .atomInfo
        case "rights", "copyright": .rights
        // RSS's `<enclosure>` in an Atom entry (WordPress 2.0's Atom 0.3 feeds of podcasts), read as feedparser
        // reads it: the episode's audio.
        case "enclosure": .enclosure
        default: nil
        }
    }

    /// A title, description, summary, content or rights: text written in a language.
    var isProse: Bool {
        switch self {
        case .title, .atomTitle, .dcTitle, .mediaTitle, .description, .dcDescription, .contentEncoded, .atomContent,
            .atomSummary, .itunesSummary, .itunesSubtitle, .xhtmlBody, .fullitem, .rights, .atomSubtitle, .atomInfo:
            true
        default: false
        }
    }

    /// `media:group` or `media:content`, whose Media RSS children describe the item.
    var isMediaContainer: Bool { self == .mediaGroup || self == .mediaContent || self == .enclosure }
}
