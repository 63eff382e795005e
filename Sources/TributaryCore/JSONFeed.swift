/// A whole JSON Feed document (https://jsonfeed.org/version/1.1): what `tributary parse` prints, what the JSON
/// renderer writes and what the `json-file` adapter reads.
///
/// Decoding accepts versions 1.0 and 1.1 (1.0's `author` becomes `authors`); encoding always writes 1.1.
public struct JSONFeed: Hashable, Sendable {
    /// The version URL written by ``encode(to:)``.
    public static let version1_1 = "https://jsonfeed.org/version/1.1"

    public var version: String
    public var title: String
    public var homePageURL: String?
    public var feedURL: String?
    public var description: String?
    public var userComment: String?
    public var nextURL: String?
    public var icon: String?
    public var favicon: String?
    public var authors: [FeedItem.Author]
    public var language: String?
    public var expired: Bool?
    public var items: [FeedItem]
    /// Top-level extension members (keys starting with `_`), kept as they were.
    public var extensions: [String: JSONValue]

    public init(
        version: String = JSONFeed.version1_1,
        title: String,
        homePageURL: String? = nil,
        feedURL: String? = nil,
        description: String? = nil,
        userComment: String? = nil,
        nextURL: String? = nil,
        icon: String? = nil,
        favicon: String? = nil,
        authors: [FeedItem.Author] = [],
        language: String? = nil,
        expired: Bool? = nil,
        items: [FeedItem],
        extensions: [String: JSONValue] = [:]
    ) {
        self.version = version
        self.title = title
        self.homePageURL = homePageURL
        self.feedURL = feedURL
        self.description = description
        self.userComment = userComment
        self.nextURL = nextURL
        self.icon = icon
        self.favicon = favicon
        self.authors = authors
        self.language = language
        self.expired = expired
        self.items = items
        self.extensions = extensions
    }
}

extension JSONFeed: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, title, description, icon, favicon, authors, author, language, expired, items
        case homePageURL = "home_page_url"
        case feedURL = "feed_url"
        case userComment = "user_comment"
        case nextURL = "next_url"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        homePageURL = try container.decodeIfPresent(String.self, forKey: .homePageURL)
        feedURL = try container.decodeIfPresent(String.self, forKey: .feedURL)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        userComment = try container.decodeIfPresent(String.self, forKey: .userComment)
        nextURL = try container.decodeIfPresent(String.self, forKey: .nextURL)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        favicon = try container.decodeIfPresent(String.self, forKey: .favicon)
        if let authors = try container.decodeIfPresent([FeedItem.Author].self, forKey: .authors) {
            self.authors = authors
        } else if let author = try container.decodeIfPresent(FeedItem.Author.self, forKey: .author) {
            self.authors = [author]
        } else {
            self.authors = []
        }
        language = try container.decodeIfPresent(String.self, forKey: .language)
        expired = try container.decodeIfPresent(Bool.self, forKey: .expired)
        items = try container.decode([FeedItem].self, forKey: .items)
        let dynamic = try decoder.container(keyedBy: AnyKey.self)
        var extensions: [String: JSONValue] = [:]
        for key in dynamic.allKeys where key.stringValue.hasPrefix("_") {
            extensions[key.stringValue] = try dynamic.decode(JSONValue.self, forKey: key)
        }
        self.extensions = extensions
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version1_1, forKey: .version)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(homePageURL, forKey: .homePageURL)
        try container.encodeIfPresent(feedURL, forKey: .feedURL)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(userComment, forKey: .userComment)
        try container.encodeIfPresent(nextURL, forKey: .nextURL)
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encodeIfPresent(favicon, forKey: .favicon)
        if !authors.isEmpty { try container.encode(authors, forKey: .authors) }
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(expired, forKey: .expired)
        try container.encode(items, forKey: .items)
        if !extensions.isEmpty {
            var dynamic = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in extensions where key.hasPrefix("_") {
                try dynamic.encode(value, forKey: AnyKey(key))
            }
        }
    }
}
