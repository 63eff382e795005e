/// How a ``FeedReader`` fetches a feed: identification, time and size limits, redirects, and the encoding override.
public struct FeedFetchSettings: Sendable, Hashable {
    /// The `User-Agent` sent when the options name none.
    public static let defaultUserAgent = "Tributary/0.1 (+https://github.com/tributary-feeds/tributary)"
    /// The default ``maxBytes``: 20 MiB.
    public static let defaultMaxBytes = 20 << 20
    /// The default ``timeout``: 30 seconds.
    public static let defaultTimeout = Duration.seconds(30)
    /// How long establishing a connection may take (within ``timeout``); the run's one HTTP client has it.
    public static let connectTimeout = Duration.seconds(10)
    /// The default ``maxRedirects``.
    public static let defaultMaxRedirects = 5

    /// The `User-Agent` header.
    public var userAgent: String
    /// How long the whole fetch may take, from connecting to the last byte; past it the fetch fails with
    /// `SourceError.Reason.timedOut`.
    public var timeout: Duration
    /// The largest body in bytes, after decompression; past it the download is aborted with
    /// `SourceError.Reason.tooLarge`.
    public var maxBytes: Int
    /// How many redirects are followed before the fetch fails.
    public var maxRedirects: Int
    /// An encoding that overrides the BOM, the HTTP charset and the XML declaration.
    public var encodingOverride: String?
    /// Whether a redirect to another host may lead into a private network (``RedirectPolicy``).
    public var allowPrivateRedirects: Bool

    /// Creates settings; every limit has a default.
    public init(
        userAgent: String = FeedFetchSettings.defaultUserAgent,
        timeout: Duration = FeedFetchSettings.defaultTimeout,
        maxBytes: Int = FeedFetchSettings.defaultMaxBytes,
        maxRedirects: Int = FeedFetchSettings.defaultMaxRedirects,
        encodingOverride: String? = nil,
        allowPrivateRedirects: Bool = false
    ) {
        self.userAgent = userAgent
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.encodingOverride = encodingOverride
        self.allowPrivateRedirects = allowPrivateRedirects
    }
}
