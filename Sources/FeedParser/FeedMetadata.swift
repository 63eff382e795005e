public import Foundation
public import TributaryCore

/// The dialect of a feed, detected from its root element (and, for RSS, its `version` attribute).
public enum FeedFormat: String, Sendable, Equatable, CaseIterable {
    /// RSS 0.90, an RDF document in the `http://my.netscape.com/rdf/simple/0.9/` namespace.
    case rss090 = "rss-0.90"
    /// RSS 0.91 (`<rss version="0.91">`).
    case rss091 = "rss-0.91"
    /// RSS 0.92 (`<rss version="0.92">`).
    case rss092 = "rss-0.92"
    /// RSS 0.93 and 0.94 (`<rss version="0.93">`, `"0.94"`), drafts between 0.92 and 2.0 that feeds still declare.
    case rss093 = "rss-0.93"
    case rss094 = "rss-0.94"
    /// An `<rss>` root that gives no version.
    case rss = "rss"
    /// RSS 1.0, an RDF document.
    case rss10 = "rss-1.0"
    /// RSS 2.0, and any other `<rss>` version that is given.
    case rss20 = "rss-2.0"
    /// Atom 0.3 (`http://purl.org/atom/ns#`).
    case atom03 = "atom-0.3"
    /// Atom 1.0 (`http://www.w3.org/2005/Atom`), also used for a `<feed>` without a namespace.
    case atom10 = "atom-1.0"
    /// Microsoft's Channel Definition Format (1997): a `<CHANNEL>` root with `<ITEM>`s, their address in `HREF` and
    /// their date in `LASTMOD`, read as feedparser reads it.
    case cdf = "cdf"
}

/// What a feed says about itself: its channel (RSS) or feed (Atom) header, normalised like items are.
public struct FeedMetadata: Sendable, Equatable {
    /// The detected dialect.
    public var format: FeedFormat
    /// Plain text.
    public var title: String?
    /// The home page (RSS `link`, Atom `link rel="alternate"`), resolved to an absolute URL when possible.
    public var link: String?
    /// The feed's own URL (Atom `link rel="self"`, also as `atom:link` in RSS).
    public var feedURL: String?
    /// Plain text (RSS `description`, Atom `subtitle`/`tagline`).
    public var description: String?
    /// RSS `language` or `dc:language`, as written (`en-US`, `ja`).
    public var language: String?
    /// RSS `managingEditor`/`dc:creator` or the Atom feed's `author`s.
    public var authors: [FeedItem.Author]
    /// RSS `generator` or Atom `generator` (with its version), e.g. `NFE/5.0` for Google News.
    public var generator: String?
    /// Channel image or Atom logo/icon.
    public var image: String?
    /// RSS `lastBuildDate`/`pubDate` or Atom `updated`/`modified`.
    public var updated: Date?
    /// RSS `copyright`, `dc:rights` or Atom `rights`/`copyright`, plain text.
    public var rights: String?
    /// The Atom feed's `id`, as written.
    public var id: String?
    /// The feed's categories: RSS `category`, `dc:subject`, Atom `category`, iTunes `category` (nested ones too)
    /// and `keywords`, each once, in document order.
    public var tags: [String]
    /// The feed's RSS and Atom categories with their scheme (RSS `domain`, Atom `scheme`) and label, as written;
    /// `parse` writes them in `_tributary.categories` when one has a scheme or label (as an item's).
    public var categories: [TributaryExtension.Category]
    /// The Atom feed's `contributor`s.
    public var contributors: [FeedItem.Author]
    /// The version and URL of the generator (Atom `generator`'s `version` and `uri`, 0.3's `url`).
    public var generatorVersion: String?
    public var generatorURL: String?
    /// The character encoding the document was read in, lower case (`utf-8`, `utf-16le`, `windows-1252`): what a
    /// byte order mark, the HTTP charset or the XML declaration called for, after the rules of
    /// ``StreamingFeedParser`` (a declared ISO-8859-1 is read as windows-1252, as browsers read it).
    public var encoding: String?
    /// Every Atom `link` of the feed as written (written as `_tributary.links` when they say more than
    /// `home_page_url` and `feed_url` do).
    public var links: [TributaryExtension.Link]
    /// The description and the rights as the feed wrote them in HTML or XHTML, sanitized, when they hold markup
    /// (`description` and `rights` are their plain text). Written as `_tributary.description_html` and
    /// `_tributary.rights_html`.
    public var descriptionHTML: String?
    public var rightsHTML: String?
    /// A podcast's iTunes `block` and `explicit` values exactly as written (`yes`, `clean`, `true`...): their
    /// meaning has changed over the years, so they are passed on, not interpreted. `_tributary.itunes_block`,
    /// `_tributary.itunes_explicit`.
    public var itunes: ITunes
    /// Who publishes the feed: RSS `webMaster`, `dc:publisher` or the iTunes `owner` (`_tributary.publisher`,
    /// shaped as an author).
    public var publisher: FeedItem.Author?
    /// The Atom feed's `icon` (small and square: JSON Feed's `favicon`; ``image`` is its logo or the RSS image).
    public var favicon: String?
    /// RSS `pubDate` of the channel (`_tributary.published`; ``updated`` falls back to it).
    public var published: Date?

    /// What an RSS channel tells aggregators and old clients, and Atom 0.3's `info` (``Extras``).
    public var extras: Extras

    /// iTunes podcast flags as written (one home: ``TributaryExtension/ITunes``, which items carry too).
    public typealias ITunes = TributaryExtension.ITunes

    /// What an RSS channel tells aggregators and old clients, and Atom 0.3's `info`, as written: JSON Feed has no
    /// member for any of it. `parse` writes it in `_tributary` as `ttl`, `docs`, `cloud`, `text_input`, `image`
    /// (the image's details; its URL is JSON Feed's `icon`), `info` and `info_html`.
    public struct Extras: Sendable, Equatable {
        /// `ttl`: how many minutes the channel may be cached.
        public var ttl: Int?
        /// `docs`: the URL of the format's documentation.
        public var docs: String?
        /// `cloud`'s attributes as written (`domain`, `port`, `path`, `registerProcedure`, `protocol`).
        public var cloud: [String: String]
        /// `textInput`'s `title`, `description`, `name` and `link`.
        public var textInput: [String: String]
        /// The channel image's `title`, `link`, `description`, `width` and `height`.
        public var image: [String: String]
        /// Atom 0.3 `info`, plain text, and as sanitized HTML when it holds markup.
        public var info: String?
        public var infoHTML: String?
        /// Dublin Core's `dcterms:created`, and the `start` and `end` of `dcterms:valid` (a DCMI period,
        /// `start=...; end=...`): `_tributary.created`, `valid_start`, `valid_end`.
        public var created: Date?
        public var validStart: Date?
        public var validEnd: Date?
        /// The `xml:base` in force on the feed's root (resolved): what its relative links resolve against before the
        /// feed's own URL. `_tributary.base`.
        public var base: String?
        /// The language and base of the feed's `title`, `description`, `rights` and `info` where the feed gave one
        /// its own (`xml:lang`, `xml:base`) that differs from the feed's (an empty language is "none").
        /// `_tributary.languages`, `_tributary.bases`, as an item's (``TributaryExtension/Details/languages``).
        public var languages: [String: String] = [:]
        public var bases: [String: String] = [:]

        public init(
            ttl: Int? = nil,
            docs: String? = nil,
            cloud: [String: String] = [:],
            textInput: [String: String] = [:],
            image: [String: String] = [:],
            info: String? = nil,
            infoHTML: String? = nil
        ) {
            self.ttl = ttl
            self.docs = docs
            self.cloud = cloud
            self.textInput = textInput
            self.image = image
            self.info = info
            self.infoHTML = infoHTML
        }
    }

    /// Creates metadata for a feed of a format.
    public init(
        format: FeedFormat,
        title: String? = nil,
        link: String? = nil,
        feedURL: String? = nil,
        description: String? = nil,
        language: String? = nil,
        authors: [FeedItem.Author] = [],
        generator: String? = nil,
        image: String? = nil,
        updated: Date? = nil,
        rights: String? = nil,
        id: String? = nil,
        tags: [String] = [],
        contributors: [FeedItem.Author] = [],
        generatorVersion: String? = nil,
        generatorURL: String? = nil,
        encoding: String? = nil,
        links: [TributaryExtension.Link] = [],
        descriptionHTML: String? = nil,
        rightsHTML: String? = nil,
        itunes: ITunes = ITunes(),
        publisher: FeedItem.Author? = nil,
        favicon: String? = nil,
        published: Date? = nil,
        extras: Extras = Extras(),
        categories: [TributaryExtension.Category] = []
    ) {
        self.extras = extras
        self.categories = categories
        self.favicon = favicon
        self.published = published
        self.itunes = itunes
        self.publisher = publisher
        self.descriptionHTML = descriptionHTML
        self.rightsHTML = rightsHTML
        self.encoding = encoding
        self.links = links
        self.rights = rights
        self.id = id
        self.tags = tags
        self.contributors = contributors
        self.generatorVersion = generatorVersion
        self.generatorURL = generatorURL
        self.format = format
        self.title = title
        self.link = link
        self.feedURL = feedURL
        self.description = description
        self.language = language
        self.authors = authors
        self.generator = generator
        self.image = image
        self.updated = updated
    }

    /// A JSON Feed 1.1 document header for this feed (no items), as `tributary parse` prints it.
    ///
    /// What JSON Feed has no member for goes in the feed's `_tributary` extension object: `format` (such as
    /// `rss-2.0`), `id`, `updated` (RFC 3339, UTC), `generator` (its name) with `generator_version` and
    /// `generator_url`, `rights`, `tags`, `categories`, `contributors` (shaped as `authors`), `encoding`,
    /// `links` (shaped as an item's `_tributary.links`), and `description_html` and `rights_html` (sanitized HTML,
    /// when the feed wrote them with markup), `itunes_block`, `itunes_explicit`, `publisher` and `published` (the RSS
    /// channel's `pubDate`), and the ``Extras``.
    public func makeJSONFeed(items: [FeedItem] = []) -> JSONFeed {
        var tributary: [String: JSONValue] = ["format": .string(format.rawValue)]
        if let id { tributary["id"] = .string(id) }
        if let updated { tributary["updated"] = .string(RFC3339.format(updated)) }
        if let published { tributary["published"] = .string(RFC3339.format(published)) }
        if let generator { tributary["generator"] = .string(generator) }
        if let generatorVersion { tributary["generator_version"] = .string(generatorVersion) }
        if let generatorURL { tributary["generator_url"] = .string(generatorURL) }
        if let rights { tributary["rights"] = .string(rights) }
        if let encoding { tributary["encoding"] = .string(encoding) }
        if let descriptionHTML { tributary["description_html"] = .string(descriptionHTML) }
        if let rightsHTML { tributary["rights_html"] = .string(rightsHTML) }
        if let block = itunes.block { tributary["itunes_block"] = .string(block) }
        if let explicit = itunes.explicit { tributary["itunes_explicit"] = .string(explicit) }
        if let publisher { tributary["publisher"] = Self.person(publisher) }
        // A feed's self link is its `feed_url`, as an item's alternate is its `url`.
        if links.count > 1 || TributaryExtension.Link.sayMoreThanAURL(links.filter { $0.rel != "self" }) {
            tributary["links"] = .array(
                links.map { link in
                    var object: [String: JSONValue] = ["rel": .string(link.rel), "url": .string(link.url)]
                    if let type = link.type { object["type"] = .string(type) }
                    if let title = link.title { object["title"] = .string(title) }
                    if let hreflang = link.hreflang { object["hreflang"] = .string(hreflang) }
                    if let length = link.length { object["length"] = .number(Double(length)) }
                    return .object(object)
                }
            )
        }
        if let ttl = extras.ttl { tributary["ttl"] = .number(Double(ttl)) }
        if let docs = extras.docs { tributary["docs"] = .string(docs) }
        for (key, fields) in [("cloud", extras.cloud), ("text_input", extras.textInput), ("image", extras.image)]
        where !fields.isEmpty {
            var object: [String: JSONValue] = [:]
            for (name, value) in fields {
                // An image's width and height are numbers of pixels.
                let pixels = key == "image" && (name == "width" || name == "height") ? Int(value) : nil
                object[name] = pixels.map { .number(Double($0)) } ?? .string(value)
            }
            tributary[key] = .object(object)
        }
        if let info = extras.info { tributary["info"] = .string(info) }
        if let infoHTML = extras.infoHTML { tributary["info_html"] = .string(infoHTML) }
        if let created = extras.created { tributary["created"] = .string(RFC3339.format(created)) }
        if let start = extras.validStart { tributary["valid_start"] = .string(RFC3339.format(start)) }
        if let end = extras.validEnd { tributary["valid_end"] = .string(RFC3339.format(end)) }
        if let base = extras.base { tributary["base"] = .string(base) }
        for (key, map) in [("languages", extras.languages), ("bases", extras.bases)] where !map.isEmpty {
            tributary[key] = .object(map.mapValues { .string($0) })
        }
        if !tags.isEmpty { tributary["tags"] = .array(tags.map { .string($0) }) }
        if categories.contains(where: { $0.scheme != nil || $0.label != nil }) {
            tributary["categories"] = .array(
                categories.map { category in
                    var object: [String: JSONValue] = ["term": .string(category.term)]
                    if let scheme = category.scheme { object["scheme"] = .string(scheme) }
                    if let label = category.label { object["label"] = .string(label) }
                    return .object(object)
                }
            )
        }
        if !contributors.isEmpty {
            tributary["contributors"] = .array(contributors.map(Self.person))
        }
        return JSONFeed(
            title: title ?? "",
            homePageURL: link,
            feedURL: feedURL,
            description: description,
            icon: image,
            favicon: favicon,
            authors: authors,
            language: language,
            items: items,
            extensions: ["_tributary": .object(tributary)]
        )
    }

    /// A person as JSON Feed shapes an author: `name`, `url`, and the extension `_email`.
    private static func person(_ author: FeedItem.Author) -> JSONValue {
        var object: [String: JSONValue] = [:]
        if let name = author.name { object["name"] = .string(name) }
        if let url = author.url { object["url"] = .string(url) }
        if let email = author.email { object["_email"] = .string(email) }
        return .object(object)
    }
}
