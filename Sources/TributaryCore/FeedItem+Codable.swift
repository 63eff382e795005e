import Foundation

extension FeedItem: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, url, title, summary, image, tags, language, authors, author, attachments
        case externalURL = "external_url"
        case contentHTML = "content_html"
        case contentText = "content_text"
        case bannerImage = "banner_image"
        case datePublished = "date_published"
        case dateModified = "date_modified"
        case tributary = "_tributary"
    }

    /// Decodes a JSON Feed 1.1 or 1.0 item. A numeric `id` is coerced to a string, 1.0's single `author` becomes
    /// `authors`, and a missing `id` decodes as the empty string (callers derive a stable one, see
    /// ``FeedItem/derivedID()``). Dates must be RFC 3339; any offset is converted to UTC.
    public init(from decoder: any Decoder) throws {
        self.init(id: "")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let string = try? container.decodeIfPresent(String.self, forKey: .id) {
            id = string
        } else if let number = try? container.decodeIfPresent(Int64.self, forKey: .id) {
            id = String(number)
        } else if let number = try? container.decodeIfPresent(Double.self, forKey: .id) {
            id = String(number)
        } else if container.contains(.id), try !container.decodeNil(forKey: .id) {
            throw DecodingError.typeMismatch(
                String.self,
                .init(codingPath: container.codingPath + [CodingKeys.id], debugDescription: "id must be a string")
            )
        } else {
            id = ""
        }
        url = try container.decodeIfPresent(String.self, forKey: .url)
        externalURL = try container.decodeIfPresent(String.self, forKey: .externalURL)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        contentHTML = try container.decodeIfPresent(String.self, forKey: .contentHTML)
        contentText = try container.decodeIfPresent(String.self, forKey: .contentText)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        image = try container.decodeIfPresent(String.self, forKey: .image)
        bannerImage = try container.decodeIfPresent(String.self, forKey: .bannerImage)
        datePublished = try Self.decodeDate(container, .datePublished)
        dateModified = try Self.decodeDate(container, .dateModified)
        if let authors = try container.decodeIfPresent([Author].self, forKey: .authors) {
            self.authors = authors
        } else if let author = try container.decodeIfPresent(Author.self, forKey: .author) {
            self.authors = [author]
        } else {
            self.authors = []
        }
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        language = try container.decodeIfPresent(String.self, forKey: .language)
        attachments = try container.decodeIfPresent([Attachment].self, forKey: .attachments) ?? []
        tributary = try container.decodeIfPresent(TributaryExtension.self, forKey: .tributary)

        let dynamic = try decoder.container(keyedBy: AnyKey.self)
        var extensions: [String: JSONValue] = [:]
        for key in dynamic.allKeys where key.stringValue.hasPrefix("_") && key.stringValue != "_tributary" {
            extensions[key.stringValue] = try dynamic.decode(JSONValue.self, forKey: key)
        }
        self.extensions = extensions
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(externalURL, forKey: .externalURL)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(contentHTML, forKey: .contentHTML)
        try container.encodeIfPresent(contentText, forKey: .contentText)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(bannerImage, forKey: .bannerImage)
        try container.encodeIfPresent(datePublished.map(RFC3339.format), forKey: .datePublished)
        try container.encodeIfPresent(dateModified.map(RFC3339.format), forKey: .dateModified)
        if !authors.isEmpty { try container.encode(authors, forKey: .authors) }
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        try container.encodeIfPresent(language, forKey: .language)
        if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
        try container.encodeIfPresent(tributary, forKey: .tributary)
        if !extensions.isEmpty {
            var dynamic = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in extensions where key.hasPrefix("_") && key != "_tributary" {
                try dynamic.encode(value, forKey: AnyKey(key))
            }
        }
    }

    private static func decodeDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard let string = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = RFC3339.parse(string) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "'\(string)' is not an RFC 3339 date such as 2026-11-22T09:30:00Z"
            )
        }
        return date
    }
}

extension TributaryExtension: Codable {
    private enum CodingKeys: String, CodingKey {
        case source, origin, related, guid, rights, contributors, links, comments, `where`, categories
        case created, expires, license, publisher, chapters, languages, bases
        case firstSeen = "first_seen"
        case alsoIn = "also_in"
        case commentsFeed = "comments_feed"
        case itunesBlock = "itunes_block"
        case itunesExplicit = "itunes_explicit"
        case itunesDuration = "itunes_duration"
        case itunesSubtitle = "itunes_subtitle"
        case rightsHTML = "rights_html"
        case commentsAPI = "comments_api"
    }

    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decodeIfPresent(SourceID.self, forKey: .source)
        origin = try container.decodeIfPresent(Origin.self, forKey: .origin)
        related = try container.decodeIfPresent([RelatedLink].self, forKey: .related) ?? []
        guid = try container.decodeIfPresent(String.self, forKey: .guid)
        firstSeen = try container.decodeIfPresent(String.self, forKey: .firstSeen).flatMap { RFC3339.parse($0) }
        alsoIn = try container.decodeIfPresent([ItemReference].self, forKey: .alsoIn) ?? []
        rights = try container.decodeIfPresent(String.self, forKey: .rights)
        contributors = try container.decodeIfPresent([FeedItem.Author].self, forKey: .contributors) ?? []
        links = try container.decodeIfPresent([Link].self, forKey: .links) ?? []
        comments = try container.decodeIfPresent(String.self, forKey: .comments)
        categories = try container.decodeIfPresent([Category].self, forKey: .categories) ?? []
        self.where = try container.decodeIfPresent(JSONValue.self, forKey: .where)
        commentsFeed = try container.decodeIfPresent(String.self, forKey: .commentsFeed)
        itunes = ITunes(
            block: try container.decodeIfPresent(String.self, forKey: .itunesBlock),
            explicit: try container.decodeIfPresent(String.self, forKey: .itunesExplicit)
        )
        details = Details(
            created: try container.decodeIfPresent(String.self, forKey: .created).flatMap { RFC3339.parse($0) },
            expires: try container.decodeIfPresent(String.self, forKey: .expires).flatMap { RFC3339.parse($0) },
            license: try container.decodeIfPresent(String.self, forKey: .license),
            publisher: try container.decodeIfPresent(FeedItem.Author.self, forKey: .publisher),
            chapters: try container.decodeIfPresent(JSONValue.self, forKey: .chapters),
            itunesDuration: try container.decodeIfPresent(String.self, forKey: .itunesDuration),
            itunesSubtitle: try container.decodeIfPresent(String.self, forKey: .itunesSubtitle),
            languages: try container.decodeIfPresent([String: String].self, forKey: .languages) ?? [:],
            bases: try container.decodeIfPresent([String: String].self, forKey: .bases) ?? [:],
            rightsHTML: try container.decodeIfPresent(String.self, forKey: .rightsHTML),
            commentsAPI: try container.decodeIfPresent(String.self, forKey: .commentsAPI)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(origin, forKey: .origin)
        if !related.isEmpty { try container.encode(related, forKey: .related) }
        try container.encodeIfPresent(guid, forKey: .guid)
        try container.encodeIfPresent(firstSeen.map(RFC3339.format), forKey: .firstSeen)
        if !alsoIn.isEmpty { try container.encode(alsoIn, forKey: .alsoIn) }
        try container.encodeIfPresent(rights, forKey: .rights)
        if !contributors.isEmpty { try container.encode(contributors, forKey: .contributors) }
        if !links.isEmpty { try container.encode(links, forKey: .links) }
        if !categories.isEmpty { try container.encode(categories, forKey: .categories) }
        try container.encodeIfPresent(comments, forKey: .comments)
        try container.encodeIfPresent(commentsFeed, forKey: .commentsFeed)
        try container.encodeIfPresent(itunes.block, forKey: .itunesBlock)
        try container.encodeIfPresent(itunes.explicit, forKey: .itunesExplicit)
        try container.encodeIfPresent(itunesDuration, forKey: .itunesDuration)
        try container.encodeIfPresent(itunesSubtitle, forKey: .itunesSubtitle)
        try container.encodeIfPresent(self.where, forKey: .where)
        try container.encodeIfPresent(created.map(RFC3339.format), forKey: .created)
        try container.encodeIfPresent(expires.map(RFC3339.format), forKey: .expires)
        try container.encodeIfPresent(license, forKey: .license)
        try container.encodeIfPresent(publisher, forKey: .publisher)
        try container.encodeIfPresent(chapters, forKey: .chapters)
        if !details.languages.isEmpty { try container.encode(details.languages, forKey: .languages) }
        if !details.bases.isEmpty { try container.encode(details.bases, forKey: .bases) }
        try container.encodeIfPresent(details.rightsHTML, forKey: .rightsHTML)
        try container.encodeIfPresent(details.commentsAPI, forKey: .commentsAPI)
    }
}

extension TributaryExtension.Origin: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, url, id, updated, subtitle, rights, icon, logo, generator, authors, contributors, tags, links
        case categories
        case generatorVersion = "generator_version"
        case generatorURL = "generator_url"
        case subtitleHTML = "subtitle_html"
        case rightsHTML = "rights_html"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decodeIfPresent(String.self, forKey: .title),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            id: try container.decodeIfPresent(String.self, forKey: .id),
            updated: try container.decodeIfPresent(String.self, forKey: .updated).flatMap { RFC3339.parse($0) },
            subtitle: try container.decodeIfPresent(String.self, forKey: .subtitle),
            rights: try container.decodeIfPresent(String.self, forKey: .rights),
            icon: try container.decodeIfPresent(String.self, forKey: .icon),
            logo: try container.decodeIfPresent(String.self, forKey: .logo),
            generator: try container.decodeIfPresent(String.self, forKey: .generator),
            authors: try container.decodeIfPresent([FeedItem.Author].self, forKey: .authors) ?? [],
            contributors: try container.decodeIfPresent([FeedItem.Author].self, forKey: .contributors) ?? [],
            tags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [],
            links: try container.decodeIfPresent([TributaryExtension.Link].self, forKey: .links) ?? [],
            categories: try container.decodeIfPresent([TributaryExtension.Category].self, forKey: .categories) ?? [],
            generatorVersion: try container.decodeIfPresent(String.self, forKey: .generatorVersion),
            generatorURL: try container.decodeIfPresent(String.self, forKey: .generatorURL),
            subtitleHTML: try container.decodeIfPresent(String.self, forKey: .subtitleHTML),
            rightsHTML: try container.decodeIfPresent(String.self, forKey: .rightsHTML)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(updated.map(RFC3339.format), forKey: .updated)
        try container.encodeIfPresent(subtitle, forKey: .subtitle)
        try container.encodeIfPresent(rights, forKey: .rights)
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encodeIfPresent(logo, forKey: .logo)
        try container.encodeIfPresent(generator, forKey: .generator)
        if !authors.isEmpty { try container.encode(authors, forKey: .authors) }
        if !contributors.isEmpty { try container.encode(contributors, forKey: .contributors) }
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        if !links.isEmpty { try container.encode(links, forKey: .links) }
        if !categories.isEmpty { try container.encode(categories, forKey: .categories) }
        try container.encodeIfPresent(generatorVersion, forKey: .generatorVersion)
        try container.encodeIfPresent(generatorURL, forKey: .generatorURL)
        try container.encodeIfPresent(subtitleHTML, forKey: .subtitleHTML)
        try container.encodeIfPresent(rightsHTML, forKey: .rightsHTML)
    }
}

/// A coding key for members whose names are only known at run time.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
