/// The options of an `rss` source: its slice of the feeds.json entry.
///
/// ```json
/// { "id": "swift-org", "kind": "rss", "url": "https://www.swift.org/atom.xml", "maxBytes": 5000000 }
/// ```
public struct RSSOptions: Decodable, Sendable, Hashable {
    /// Where the feed is: an `http://` or `https://` URL, a `file://` URL, or a path relative to the directory
    /// holding feeds.json.
    public var url: String
    /// An encoding that overrides the byte order mark, the HTTP charset and the XML declaration, for a feed known
    /// to lie about its encoding (e.g. `"windows-1252"`).
    public var encoding: String?
    /// The `User-Agent` header; ``FeedFetchSettings/defaultUserAgent`` when absent.
    public var userAgent: String?
    /// How long the whole fetch may take, as a duration string (`"30s"`); 30 seconds when absent. The common
    /// `timeout` key, read by the pipeline as well, so one setting bounds both.
    public var timeout: String?
    /// The largest response body, in bytes after decompression; 20 MiB when absent.
    public var maxBytes: Int?
    /// How many redirects are followed; 5 when absent.
    public var maxRedirects: Int?
    /// Whether a redirect to another host may lead to a private, loopback or link-local address; `false` when absent.
    public var allowPrivateRedirects: Bool?

    /// Creates the options.
    /// - Parameters:
    ///   - url: the feed's URL or path, as feeds.json would write it.
    ///   - encoding: an encoding override.
    ///   - userAgent: the `User-Agent` header.
    ///   - timeout: the fetch's time limit, as a duration string.
    ///   - maxBytes: the largest response body in bytes.
    ///   - maxRedirects: how many redirects are followed.
    ///   - allowPrivateRedirects: whether redirects to other hosts may lead into a private network.
    public init(
        url: String,
        encoding: String? = nil,
        userAgent: String? = nil,
        timeout: String? = nil,
        maxBytes: Int? = nil,
        maxRedirects: Int? = nil,
        allowPrivateRedirects: Bool? = nil
    ) {
        self.url = url
        self.encoding = encoding
        self.userAgent = userAgent
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.allowPrivateRedirects = allowPrivateRedirects
    }
}
