public import Foundation

/// One normalised feed item: a JSON Feed 1.1 item (https://jsonfeed.org/version/1.1) plus Tributary's
/// `_tributary` extension.
///
/// Every adapter emits `FeedItem`s and every renderer reads them, so this is the one item model of the project.
/// It encodes to and decodes from JSON Feed 1.1 without loss: keys JSON Feed does not define but allows as
/// extensions (those starting with `_`) are kept in ``extensions``. Dates are encoded as RFC 3339 in UTC.
public struct FeedItem: Hashable, Sendable {
    /// The fields, behind one reference shared by the copies of an item until one of them changes
    /// (``CopyOnWrite``): an item is handed on many times between the parser, the pipeline, the store and the
    /// digest, and each copy of seventeen fields retained (and later released) a dozen strings and arrays. Read and
    /// changed through the properties below.
    private var storage: CopyOnWrite<Fields>

    /// The stored fields of an item.
    private struct Fields: Hashable, Sendable {
        var id: String
        var url: String? = nil
        var externalURL: String? = nil
        var title: String? = nil
        var contentHTML: String? = nil
        var contentText: String? = nil
        var summary: String? = nil
        var image: String? = nil
        var bannerImage: String? = nil
        var datePublished: Date? = nil
        var dateModified: Date? = nil
        var authors: [Author] = []
        var tags: [String] = []
        var language: String? = nil
        var attachments: [Attachment] = []
        var tributary: TributaryExtension? = nil
        var extensions: [String: JSONValue] = [:]
    }

    /// The item's unique, stable id: non-empty, the same across runs for the same item.
    public var id: String {
        _read { yield storage.value.id }
        set { storage.uniqueBox().value.id = newValue }
        _modify { yield &storage.uniqueBox().value.id }
    }
    public var url: String? {
        _read { yield storage.value.url }
        set { storage.uniqueBox().value.url = newValue }
        _modify { yield &storage.uniqueBox().value.url }
    }
    public var externalURL: String? {
        _read { yield storage.value.externalURL }
        set { storage.uniqueBox().value.externalURL = newValue }
        _modify { yield &storage.uniqueBox().value.externalURL }
    }
    /// Plain text: no markup, no entities.
    public var title: String? {
        _read { yield storage.value.title }
        set { storage.uniqueBox().value.title = newValue }
        _modify { yield &storage.uniqueBox().value.title }
    }
    /// HTML, sanitized before it reaches a renderer.
    public var contentHTML: String? {
        _read { yield storage.value.contentHTML }
        set { storage.uniqueBox().value.contentHTML = newValue }
        _modify { yield &storage.uniqueBox().value.contentHTML }
    }
    public var contentText: String? {
        _read { yield storage.value.contentText }
        set { storage.uniqueBox().value.contentText = newValue }
        _modify { yield &storage.uniqueBox().value.contentText }
    }
    /// Plain text.
    public var summary: String? {
        _read { yield storage.value.summary }
        set { storage.uniqueBox().value.summary = newValue }
        _modify { yield &storage.uniqueBox().value.summary }
    }
    public var image: String? {
        _read { yield storage.value.image }
        set { storage.uniqueBox().value.image = newValue }
        _modify { yield &storage.uniqueBox().value.image }
    }
    public var bannerImage: String? {
        _read { yield storage.value.bannerImage }
        set { storage.uniqueBox().value.bannerImage = newValue }
        _modify { yield &storage.uniqueBox().value.bannerImage }
    }
    public var datePublished: Date? {
        _read { yield storage.value.datePublished }
        set { storage.uniqueBox().value.datePublished = newValue }
        _modify { yield &storage.uniqueBox().value.datePublished }
    }
    public var dateModified: Date? {
        _read { yield storage.value.dateModified }
        set { storage.uniqueBox().value.dateModified = newValue }
        _modify { yield &storage.uniqueBox().value.dateModified }
    }
    /// The item's own date: when it was published, else when it was last modified. Every place that sorts,
    /// groups or filters items by date reads this one.
    public var ownDate: Date? { storage.value.datePublished ?? storage.value.dateModified }
    public var authors: [Author] {
        _read { yield storage.value.authors }
        set { storage.uniqueBox().value.authors = newValue }
        _modify { yield &storage.uniqueBox().value.authors }
    }
    public var tags: [String] {
        _read { yield storage.value.tags }
        set { storage.uniqueBox().value.tags = newValue }
        _modify { yield &storage.uniqueBox().value.tags }
    }
    public var language: String? {
        _read { yield storage.value.language }
        set { storage.uniqueBox().value.language = newValue }
        _modify { yield &storage.uniqueBox().value.language }
    }
    public var attachments: [Attachment] {
        _read { yield storage.value.attachments }
        set { storage.uniqueBox().value.attachments = newValue }
        _modify { yield &storage.uniqueBox().value.attachments }
    }
    /// Aggregator facts: where the item came from and what else is known about it.
    public var tributary: TributaryExtension? {
        _read { yield storage.value.tributary }
        set { storage.uniqueBox().value.tributary = newValue }
        _modify { yield &storage.uniqueBox().value.tributary }
    }
    /// Extension members other than `_tributary`, kept as they were.
    public var extensions: [String: JSONValue] {
        _read { yield storage.value.extensions }
        set { storage.uniqueBox().value.extensions = newValue }
        _modify { yield &storage.uniqueBox().value.extensions }
    }

    public init(
        id: String,
        url: String? = nil,
        externalURL: String? = nil,
        title: String? = nil,
        contentHTML: String? = nil,
        contentText: String? = nil,
        summary: String? = nil,
        image: String? = nil,
        bannerImage: String? = nil,
        datePublished: Date? = nil,
        dateModified: Date? = nil,
        authors: [Author] = [],
        tags: [String] = [],
        language: String? = nil,
        attachments: [Attachment] = [],
        tributary: TributaryExtension? = nil,
        extensions: [String: JSONValue] = [:]
    ) {
        storage = CopyOnWrite(
            Fields(
                id: id,
                url: url,
                externalURL: externalURL,
                title: title,
                contentHTML: contentHTML,
                contentText: contentText,
                summary: summary,
                image: image,
                bannerImage: bannerImage,
                datePublished: datePublished,
                dateModified: dateModified,
                authors: authors,
                tags: tags,
                language: language,
                attachments: attachments,
                tributary: tributary,
                extensions: extensions
            )
        )
    }

    /// The id of the source that emitted the item (`_tributary.source`).
    public var sourceID: SourceID? {
        get { tributary?.source }
        set {
            var value = tributary ?? TributaryExtension()
            value.source = newValue
            tributary = value
        }
    }
}

extension FeedItem {
    /// A person or organisation credited with an item (JSON Feed `authors[]`).
    public struct Author: Hashable, Sendable, Codable {
        public var name: String?
        public var url: String?
        public var avatar: String?
        /// The `_email` extension: RSS and Atom carry e-mail addresses that JSON Feed has no field for.
        public var email: String?

        public init(name: String? = nil, url: String? = nil, avatar: String? = nil, email: String? = nil) {
            self.name = name
            self.url = url
            self.avatar = avatar
            self.email = email
        }

        enum CodingKeys: String, CodingKey {
            case name, url, avatar
            case email = "_email"
        }
    }

    /// A related resource such as a podcast episode's audio file (JSON Feed `attachments[]`).
    public struct Attachment: Hashable, Sendable, Codable {
        public var url: String
        public var mimeType: String?
        public var title: String?
        public var sizeInBytes: Int?
        public var durationInSeconds: Double?

        public init(
            url: String,
            mimeType: String? = nil,
            title: String? = nil,
            sizeInBytes: Int? = nil,
            durationInSeconds: Double? = nil
        ) {
            self.url = url
            self.mimeType = mimeType
            self.title = title
            self.sizeInBytes = sizeInBytes
            self.durationInSeconds = durationInSeconds
        }

        enum CodingKeys: String, CodingKey {
            case url, title
            case mimeType = "mime_type"
            case sizeInBytes = "size_in_bytes"
            case durationInSeconds = "duration_in_seconds"
        }
    }
}

/// The `_tributary` extension object of an item: facts the aggregator adds.
public struct TributaryExtension: Hashable, Sendable {
    /// The fields, behind one reference shared by the copies of an extension until one of them changes
    /// (``CopyOnWrite``): copying some twenty references (and releasing them again) at each hand-over was a tenth of
    /// `tributary parse`'s work on a Google News feed, whose every item has an extension. Read and changed through
    /// the properties below.
    private var storage: CopyOnWrite<Fields>

    /// The stored fields of an extension.
    private struct Fields: Hashable, Sendable {
        var source: SourceID? = nil
        var origin: Origin? = nil
        var related: [RelatedLink] = []
        var guid: String? = nil
        var firstSeen: Date? = nil
        var alsoIn: [ItemReference] = []
        var rights: String? = nil
        var contributors: [FeedItem.Author] = []
        var links: [Link] = []
        var categories: [Category] = []
        var comments: String? = nil
        var commentsFeed: String? = nil
        var itunes: ITunes = ITunes()
        var `where`: JSONValue? = nil
        var boxedDetails: DetailsBox? = nil
    }

    /// The id of the source that emitted the item.
    public var source: SourceID? {
        _read { yield storage.value.source }
        set { storage.uniqueBox().value.source = newValue }
        _modify { yield &storage.uniqueBox().value.source }
    }
    /// The publisher as the feed names it: RSS `<source>`, which Google News uses for the outlet.
    public var origin: Origin? {
        _read { yield storage.value.origin }
        set { storage.uniqueBox().value.origin = newValue }
        _modify { yield &storage.uniqueBox().value.origin }
    }
    /// Other coverage of the same story (Google News' related articles).
    public var related: [RelatedLink] {
        _read { yield storage.value.related }
        set { storage.uniqueBox().value.related = newValue }
        _modify { yield &storage.uniqueBox().value.related }
    }
    /// The original guid or Atom id, as written in the feed.
    public var guid: String? {
        _read { yield storage.value.guid }
        set { storage.uniqueBox().value.guid = newValue }
        _modify { yield &storage.uniqueBox().value.guid }
    }
    /// When Tributary first saw the item.
    public var firstSeen: Date? {
        _read { yield storage.value.firstSeen }
        set { storage.uniqueBox().value.firstSeen = newValue }
        _modify { yield &storage.uniqueBox().value.firstSeen }
    }
    /// Other sources that delivered the same item (same canonical URL); the first one seen keeps it.
    public var alsoIn: [ItemReference] {
        _read { yield storage.value.alsoIn }
        set { storage.uniqueBox().value.alsoIn = newValue }
        _modify { yield &storage.uniqueBox().value.alsoIn }
    }
    /// The item's copyright or licence statement as the feed gives it (Atom `rights`, `dc:rights`), plain text.
    public var rights: String? {
        _read { yield storage.value.rights }
        set { storage.uniqueBox().value.rights = newValue }
        _modify { yield &storage.uniqueBox().value.rights }
    }
    /// The entry's Atom `contributor`s (its `author`s are the item's `authors`).
    public var contributors: [FeedItem.Author] {
        _read { yield storage.value.contributors }
        set { storage.uniqueBox().value.contributors = newValue }
        _modify { yield &storage.uniqueBox().value.contributors }
    }
    /// Every Atom `link` of the entry, in document order, when they say more than `url`, `external_url` and
    /// `attachments` do (another `rel`, a `title`, an `hreflang`, several alternates); empty otherwise.
    public var links: [Link] {
        _read { yield storage.value.links }
        set { storage.uniqueBox().value.links = newValue }
        _modify { yield &storage.uniqueBox().value.links }
    }
    /// Every category of the item as written, with its scheme (RSS `domain`, Atom and Media RSS `scheme`) and label,
    /// when one of them has either (``FeedItem/tags`` are the terms); empty otherwise.
    public var categories: [Category] {
        _read { yield storage.value.categories }
        set { storage.uniqueBox().value.categories = newValue }
        _modify { yield &storage.uniqueBox().value.categories }
    }
    /// The page of the item's comments (RSS `comments`) and their feed (`wfw:commentRss`), resolved.
    public var comments: String? {
        _read { yield storage.value.comments }
        set { storage.uniqueBox().value.comments = newValue }
        _modify { yield &storage.uniqueBox().value.comments }
    }
    public var commentsFeed: String? {
        _read { yield storage.value.commentsFeed }
        set { storage.uniqueBox().value.commentsFeed = newValue }
        _modify { yield &storage.uniqueBox().value.commentsFeed }
    }
    /// A podcast episode's iTunes `block` and `explicit`, as written (`_tributary.itunes_block`,
    /// `_tributary.itunes_explicit`, the names the feed header uses).
    public var itunes: ITunes {
        _read { yield storage.value.itunes }
        set { storage.uniqueBox().value.itunes = newValue }
        _modify { yield &storage.uniqueBox().value.itunes }
    }
    /// Where the item is (GeoRSS, simple or GML) as a GeoJSON geometry: `{"type": "Point", "coordinates": [lon,
    /// lat]}`, `LineString`, `Polygon`, or GeoRSS's `Box` (two corners). `_tributary.where`.
    public var `where`: JSONValue? {
        _read { yield storage.value.`where` }
        set { storage.uniqueBox().value.`where` = newValue }
        _modify { yield &storage.uniqueBox().value.`where` }
    }
    /// What few items carry: Dublin Core's and Creative Commons' facts, Podlove chapters, an episode's duration and
    /// subtitle as written. Boxed behind one reference, so that the many items without any of it copy one empty
    /// reference on their way from the parser to the writer rather than a hundred bytes of empty fields; read and
    /// set through ``details`` or the properties below.
    private var boxedDetails: DetailsBox? {
        _read { yield storage.value.boxedDetails }
        set { storage.uniqueBox().value.boxedDetails = newValue }
        _modify { yield &storage.uniqueBox().value.boxedDetails }
    }

    /// The fields of ``details``.
    public struct Details: Hashable, Sendable {
        /// When the item was created (`dcterms:created`, Atom 0.3 `created`), beside its publication and
        /// modification dates. `_tributary.created`.
        public var created: Date?
        /// When the item stops being current (RSS `expirationDate`). `_tributary.expires`.
        public var expires: Date?
        /// The licence the item is published under, as the feed names it (Creative Commons `license`, a URL as a
        /// rule). `_tributary.license`.
        public var license: String?
        /// The item's publisher (`dc:publisher`), `me@example.com (Name)` split as an author's is.
        /// `_tributary.publisher`.
        public var publisher: FeedItem.Author?
        /// A podcast episode's Podlove Simple Chapters: `{"version": "1.2", "chapters": [{"start": "00:01:02.500",
        /// "title": "...", "href": "...", "image": "..."}]}`, each start as written. `_tributary.chapters`.
        public var chapters: JSONValue?
        /// An episode's `itunes:duration` as written (`1:02:03`, `3723`; the attachment's `duration_in_seconds` is
        /// its reading) and its `itunes:subtitle`, plain text. `_tributary.itunes_duration`, `itunes_subtitle`.
        public var itunesDuration: String?
        public var itunesSubtitle: String?
        /// The language and the base URL of the item's `title`, `content` and `summary` where the feed gave a field
        /// its own (`xml:lang`, `xml:base`): by field, only those that differ from the item's `language` (else the
        /// feed's) and from the feed's base (`_tributary.base` of the feed, else its URL). An empty language is
        /// "none" (`xml:lang=""`). `_tributary.languages`, `_tributary.bases`.
        public var languages: [String: String]
        public var bases: [String: String]
        /// The item's rights as sanitized HTML, when the feed wrote them with markup (a link to the licence); the
        /// plain text is ``TributaryExtension/rights``. `_tributary.rights_html`, as the feed's.
        public var rightsHTML: String?
        /// Where comments on the item are posted (the Comment API's `wfw:comment`), resolved.
        /// `_tributary.comments_api`.
        public var commentsAPI: String?

        public init(
            created: Date? = nil,
            expires: Date? = nil,
            license: String? = nil,
            publisher: FeedItem.Author? = nil,
            chapters: JSONValue? = nil,
            itunesDuration: String? = nil,
            itunesSubtitle: String? = nil,
            languages: [String: String] = [:],
            bases: [String: String] = [:],
            rightsHTML: String? = nil,
            commentsAPI: String? = nil
        ) {
            self.created = created
            self.expires = expires
            self.license = license
            self.publisher = publisher
            self.chapters = chapters
            self.itunesDuration = itunesDuration
            self.itunesSubtitle = itunesSubtitle
            self.languages = languages
            self.bases = bases
            self.rightsHTML = rightsHTML
            self.commentsAPI = commentsAPI
        }
    }

    /// Whether any of ``details`` is set (a check that reads no field).
    public var hasDetails: Bool { boxedDetails != nil }

    /// The item's rarely present fields (empty for most items).
    public var details: Details {
        get { boxedDetails?.value ?? Details() }
        set { boxedDetails = newValue == Details() ? nil : DetailsBox(newValue) }
    }

    public var created: Date? {
        get { boxedDetails?.value.created }
        set { details.created = newValue }
    }
    public var expires: Date? {
        get { boxedDetails?.value.expires }
        set { details.expires = newValue }
    }
    public var license: String? {
        get { boxedDetails?.value.license }
        set { details.license = newValue }
    }
    public var publisher: FeedItem.Author? {
        get { boxedDetails?.value.publisher }
        set { details.publisher = newValue }
    }
    public var chapters: JSONValue? {
        get { boxedDetails?.value.chapters }
        set { details.chapters = newValue }
    }
    public var itunesDuration: String? {
        get { boxedDetails?.value.itunesDuration }
        set { details.itunesDuration = newValue }
    }
    public var itunesSubtitle: String? {
        get { boxedDetails?.value.itunesSubtitle }
        set { details.itunesSubtitle = newValue }
    }

    /// A category: its term, and the scheme and label it was written with.
    public struct Category: Hashable, Sendable, Codable {
        public var term: String
        public var scheme: String?
        public var label: String?

        public init(term: String, scheme: String? = nil, label: String? = nil) {
            self.term = term
            self.scheme = scheme
            self.label = label
        }
    }

    /// iTunes podcast flags exactly as written (`yes`, `clean`, `true`...): their meaning has changed over the
    /// years, so they are passed on, not interpreted.
    public struct ITunes: Hashable, Sendable {
        public var block: String?
        public var explicit: String?

        public init(block: String? = nil, explicit: String? = nil) {
            self.block = block
            self.explicit = explicit
        }
    }

    public init(
        source: SourceID? = nil,
        origin: Origin? = nil,
        related: [RelatedLink] = [],
        guid: String? = nil,
        firstSeen: Date? = nil,
        alsoIn: [ItemReference] = [],
        rights: String? = nil,
        contributors: [FeedItem.Author] = [],
        links: [Link] = [],
        categories: [Category] = [],
        comments: String? = nil,
        commentsFeed: String? = nil,
        itunes: ITunes = ITunes(),
        where: JSONValue? = nil,
        details: Details? = nil
    ) {
        storage = CopyOnWrite(
            Fields(
                source: source,
                origin: origin,
                related: related,
                guid: guid,
                firstSeen: firstSeen,
                alsoIn: alsoIn,
                rights: rights,
                contributors: contributors,
                links: links,
                categories: categories,
                comments: comments,
                commentsFeed: commentsFeed,
                itunes: itunes,
                where: `where`,
                boxedDetails: details.flatMap { $0 == Details() ? nil : DetailsBox($0) }
            )
        )
    }

    /// The publisher of an item (`_tributary.origin`): RSS `<source>`, or the Atom `<source>` feed an entry was
    /// copied from, with what that feed says of itself.
    public struct Origin: Hashable, Sendable {
        public var title: String?
        public var url: String?
        /// The Atom source's `id`, `updated`, `subtitle` and `rights` (plain text), `icon`, `logo` and `generator`.
        public var id: String?
        public var updated: Date?
        public var subtitle: String?
        public var rights: String?
        public var icon: String?
        public var logo: String?
        public var generator: String?
        /// The Atom source's `author`s, `contributor`s and `category` terms.
        public var authors: [FeedItem.Author]
        public var contributors: [FeedItem.Author]
        public var tags: [String]
        /// What few sources say (Atom `<source>` links, category details, generator version and URI), boxed so that
        /// the many origins without it (every Google News item has one) copy one empty reference.
        private var boxedMore: MoreBox?

        /// The fields of ``Origin``'s rarely present part.
        struct More: Hashable, Sendable {
            var links: [Link] = []
            var categories: [Category] = []
            var generatorVersion: String?
            var generatorURL: String?
            var subtitleHTML: String?
            var rightsHTML: String?
        }

        /// Whether any of the rarely present part is set (a check that builds no empty list).
        var hasMore: Bool { boxedMore != nil }

        private var more: More {
            get { boxedMore?.value ?? More() }
            set { boxedMore = newValue == More() ? nil : MoreBox(newValue) }
        }

        /// The Atom source's links as written, when they say more than ``url`` (as an entry's
        /// ``TributaryExtension/links``), and its categories when one has a scheme or label (as
        /// ``TributaryExtension/categories``).
        public var links: [Link] {
            get { boxedMore?.value.links ?? [] }
            set { more.links = newValue }
        }
        public var categories: [Category] {
            get { boxedMore?.value.categories ?? [] }
            set { more.categories = newValue }
        }
        /// The source's `generator` `version` and `uri`.
        public var generatorVersion: String? {
            get { boxedMore?.value.generatorVersion }
            set { more.generatorVersion = newValue }
        }
        public var generatorURL: String? {
            get { boxedMore?.value.generatorURL }
            set { more.generatorURL = newValue }
        }
        /// The source's `subtitle` and `rights` as HTML, sanitized, when they were written with markup (`subtitle_html`,
        /// `rights_html`, as the feed's own `description_html` and `rights_html`); ``subtitle`` and ``rights`` are
        /// their plain text.
        public var subtitleHTML: String? {
            get { boxedMore?.value.subtitleHTML }
            set { more.subtitleHTML = newValue }
        }
        public var rightsHTML: String? {
            get { boxedMore?.value.rightsHTML }
            set { more.rightsHTML = newValue }
        }

        public init(
            title: String? = nil,
            url: String? = nil,
            id: String? = nil,
            updated: Date? = nil,
            subtitle: String? = nil,
            rights: String? = nil,
            icon: String? = nil,
            logo: String? = nil,
            generator: String? = nil,
            authors: [FeedItem.Author] = [],
            contributors: [FeedItem.Author] = [],
            tags: [String] = [],
            links: [Link]? = nil,
            categories: [Category]? = nil,
            generatorVersion: String? = nil,
            generatorURL: String? = nil,
            subtitleHTML: String? = nil,
            rightsHTML: String? = nil
        ) {
            if links?.isEmpty ?? true, categories?.isEmpty ?? true, generatorVersion == nil, generatorURL == nil,
                subtitleHTML == nil, rightsHTML == nil
            {
                boxedMore = nil
            } else {
                boxedMore = MoreBox(
                    More(
                        links: links ?? [],
                        categories: categories ?? [],
                        generatorVersion: generatorVersion,
                        generatorURL: generatorURL,
                        subtitleHTML: subtitleHTML,
                        rightsHTML: rightsHTML
                    )
                )
            }
            self.title = title
            self.url = url
            self.id = id
            self.updated = updated
            self.subtitle = subtitle
            self.rights = rights
            self.icon = icon
            self.logo = logo
            self.generator = generator
            self.authors = authors
            self.contributors = contributors
            self.tags = tags
        }

        /// Whether the source said anything at all.
        public var isEmpty: Bool { self == Origin() }
    }

    /// One entry of related coverage (`_tributary.related[]`).
    public struct RelatedLink: Hashable, Sendable, Codable {
        public var title: String
        public var url: String?
        public var publisher: String?

        public init(title: String, url: String? = nil, publisher: String? = nil) {
            self.title = title
            self.url = url
            self.publisher = publisher
        }
    }

    /// An Atom `link` as written (`_tributary.links[]`): `rel` (`alternate` when the feed gives none), `url`, and
    /// the `type`, `title`, `hreflang` and `length` it has.
    public struct Link: Hashable, Sendable, Codable {
        public var rel: String
        public var url: String
        public var type: String?
        public var title: String?
        public var hreflang: String?
        public var length: Int?

        public init(
            rel: String,
            url: String,
            type: String? = nil,
            title: String? = nil,
            hreflang: String? = nil,
            length: Int? = nil
        ) {
            self.rel = rel
            self.url = url
            self.type = type
            self.title = title
            self.hreflang = hreflang
            self.length = length
        }

        /// Whether `links` say more than an item's `url` does: anything but one `alternate` link with no `title`,
        /// `hreflang` or `length` and an HTML (or no) `type`.
        public static func sayMoreThanAURL(_ links: [Link]) -> Bool {
            guard links.count == 1, let link = links.first else { return links.count > 1 }
            return link.rel != "alternate" || link.title != nil || link.hreflang != nil || link.length != nil
                || (link.type != nil && link.type != "text/html")
        }
    }

    /// Where else a duplicate item was seen (`_tributary.also_in[]`).
    public struct ItemReference: Hashable, Sendable, Codable {
        public var source: SourceID
        public var id: String
        public var url: String?

        public init(source: SourceID, id: String, url: String? = nil) {
            self.source = source
            self.id = id
            self.url = url
        }
    }
}

/// An immutable ``TributaryExtension/Details`` behind one reference (see ``TributaryExtension/details``); equal
/// and hashed by its value. A class of its own rather than a generic box: the items that copy an empty one pay no
/// generic metadata lookup.
public final class DetailsBox: Hashable, Sendable {
    public let value: TributaryExtension.Details

    public init(_ value: TributaryExtension.Details) {
        self.value = value
    }

    public static func == (lhs: DetailsBox, rhs: DetailsBox) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

/// An origin's rarely present part behind one reference, as ``DetailsBox``.
final class MoreBox: Hashable, Sendable {
    let value: TributaryExtension.Origin.More

    init(_ value: TributaryExtension.Origin.More) {
        self.value = value
    }

    static func == (lhs: MoreBox, rhs: MoreBox) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
