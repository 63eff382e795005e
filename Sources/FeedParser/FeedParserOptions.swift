public import Foundation
public import HTMLSanitizer
public import TributaryCore

/// How a ``StreamingFeedParser`` reads one document: where relative links point, which source the items belong
/// to, how to pick the character encoding, and the size budgets that keep hostile input harmless.
public struct FeedParserOptions: Sendable {
    /// The URL the feed was fetched from; relative links are resolved against it after the `xml:base` chain.
    public var baseURL: URL?
    /// The source stamped on every item (`_tributary.source`).
    public var sourceID: SourceID
    /// The `charset` parameter of the HTTP `Content-Type`, when the feed came over HTTP.
    ///
    /// The rule, after feedparser and RFC 7303: a byte order mark wins; otherwise an HTTP charset that names an
    /// encoding libxml2 knows wins over the XML declaration (the server is the authority for `application/xml`
    /// and `text/xml` alike), and a disagreement with the declaration is reported as a warning. An HTTP charset
    /// libxml2 does not know is ignored with a warning, and the declaration (or UTF-8) is used.
    public var httpCharset: String?
    /// The language of the HTTP `Content-Language` (its first tag), when the feed came over HTTP: the feed's language
    /// when the feed names none (no `language`, `dc:language` or `xml:lang` on its root), as feedparser reads it.
    public var httpLanguage: String?
    /// An encoding that overrides the BOM, the HTTP charset and the XML declaration (for a feed known to lie).
    public var encodingOverride: String?
    /// The budget for one text node in bytes (default 16 MiB); a longer node is truncated with a warning.
    public var maxTextBytes: Int
    /// The deepest element nesting that is looked at (default 256, libxml2's own limit); deeper elements are
    /// skipped with a warning.
    public var maxDepth: Int
    /// What makes `content_html` safe (SRC-7); relative URLs in it were resolved against the `xml:base` chain and
    /// ``baseURL`` before. `nil` leaves the HTML as the feed wrote it, for a caller that reads it first (the
    /// `google-news` adapter takes related coverage out of it) and sanitizes afterwards.
    public var sanitizer: HTMLSanitizer?

    /// Creates options; only the source id is required.
    public init(
        baseURL: URL? = nil,
        sourceID: SourceID = "feed",
        httpCharset: String? = nil,
        httpLanguage: String? = nil,
        encodingOverride: String? = nil,
        maxTextBytes: Int = 16 << 20,
        maxDepth: Int = 256,
        sanitizer: HTMLSanitizer? = HTMLSanitizer()
    ) {
        self.baseURL = baseURL
        self.sourceID = sourceID
        self.httpCharset = httpCharset
        self.httpLanguage = httpLanguage.flatMap(Self.firstLanguage)
        self.encodingOverride = encodingOverride
        self.maxTextBytes = maxTextBytes
        self.maxDepth = maxDepth
        self.sanitizer = sanitizer
    }

    /// The first language tag of a `Content-Language` value (`de-DE, en` is `de-DE`); `nil` when there is none.
    static func firstLanguage(_ header: String) -> String? {
        let first = header.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return first.isEmpty ? nil : first
    }
}
