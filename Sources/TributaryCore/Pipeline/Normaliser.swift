public import Foundation

/// Puts one item into the shape every renderer may rely on. Pure: the same input gives the same output.
///
/// - text is left as the source made it: titles and summaries are plain text already (the feed readers make them
///   plain once, with ``FeedText``), and walking them again would cut titles such as `History of the <blink> tag`;
/// - URLs (`url`, `external_url`, `image`, `banner_image`, authors, attachments, `_tributary.origin` and
///   `related`) are made absolute against the item's own URL, else the source's base URL; a URL that cannot be
///   made absolute is dropped with a warning, so no relative URL ever leaves the pipeline;
/// - an empty id is replaced by ``FeedItem/derivedID()``;
/// - `_tributary.source` is stamped with the source's id.
///
/// Dates need nothing: a `Date` is an instant, UTC by construction.
public struct Normaliser: Sendable {
    /// A normalised item and what had to be dropped on the way.
    public struct Output: Sendable, Equatable {
        /// The normalised item.
        public var item: FeedItem
        /// One warning per dropped URL.
        public var warnings: [SourceWarning]
    }

    /// Creates a normaliser.
    public init() {}

    /// Normalises one item from `source`.
    /// - Parameters:
    ///   - item: the item as the source emitted it.
    ///   - source: the source's id, stamped into `_tributary.source`.
    ///   - baseURL: what relative URLs resolve against when the item has no absolute `url`.
    public func normalise(_ item: FeedItem, from source: SourceID, baseURL: URL? = nil) -> Output {
        var result = item
        var warnings: [SourceWarning] = []
        let location = result.id.isEmpty ? nil : "item \(result.id)"

        func absolute(_ value: String?, field: String, base: () -> URL?) -> String? {
            guard let value else { return nil }
            if FeedText.trimmingWhitespace(value).isEmpty { return nil }
            if let resolved = Self.absoluteURL(value, base: base) { return resolved }
            warnings.append(
                SourceWarning(
                    "dropped relative \(field) '\(value)': no absolute URL to resolve it against",
                    location: location
                )
            )
            return nil
        }

        result.url = absolute(result.url, field: "url", base: { baseURL })
        // What the item's other URLs resolve against: its own URL, else the source's; parsed at the first need.
        var parsedItemBase: URL??
        func itemBase() -> URL? {
            if let parsedItemBase { return parsedItemBase }
            let base = result.url.flatMap { URL(string: $0) } ?? baseURL
            parsedItemBase = .some(base)
            return base
        }
        result.externalURL = absolute(result.externalURL, field: "external_url", base: itemBase)
        result.image = absolute(result.image, field: "image", base: itemBase)
        result.bannerImage = absolute(result.bannerImage, field: "banner_image", base: itemBase)
        if !result.authors.isEmpty {
            result.authors = result.authors.map { author in
                var author = author
                author.url = absolute(author.url, field: "author url", base: itemBase)
                author.avatar = absolute(author.avatar, field: "author avatar", base: itemBase)
                return author
            }
        }
        if !result.attachments.isEmpty {
            result.attachments = result.attachments.compactMap { attachment in
                var attachment = attachment
                guard let url = absolute(attachment.url, field: "attachment url", base: itemBase) else { return nil }
                attachment.url = url
                return attachment
            }
        }

        // Taken out of the item before it changes, so that the item's copy does not share (and copy) its fields.
        var tributary = result.tributary ?? TributaryExtension()
        result.tributary = nil
        tributary.source = source
        if var origin = tributary.origin {
            origin.url = absolute(origin.url, field: "origin url", base: itemBase)
            tributary.origin = origin
        }
        if !tributary.related.isEmpty {
            tributary.related = tributary.related.map { link in
                var link = link
                link.url = absolute(link.url, field: "related url", base: itemBase)
                return link
            }
        }
        result.tributary = tributary

        // Whatever the source, a title or summary reaches no output with bidi overrides in it.
        result.title = result.title.map(FeedText.withoutFormatControls)
        result.summary = result.summary.map(FeedText.withoutFormatControls)
        for removed in result.removeUnsafeURLs() {
            warnings.append(
                SourceWarning(
                    "dropped \(removed): javascript:, data:, file: and like URLs are never kept",
                    location: location
                )
            )
        }

        result.id = FeedText.trimmingWhitespace(result.id)
        if result.id.isEmpty { result.id = result.derivedID() }
        return Output(item: result, warnings: warnings)
    }

    /// `text` as an absolute URL: unchanged when it already has a scheme, resolved against `base` when relative,
    /// `nil` when it is relative and there is no base (or it is not a URL at all). A protocol-relative URL
    /// (`//host/path`) takes the base's scheme, else `https`.
    public static func absoluteURL(_ text: String, base: URL?) -> String? {
        absoluteURL(text, base: { base })
    }

    /// The same, with the base made only when `text` needs one: a plain web URL (nearly every one) is returned as it
    /// is, so an item's own URL is parsed as a base only for its relative ones.
    static func absoluteURL(_ text: String, base: () -> URL?) -> String? {
        isPlainWebURL(text) ? text : parsedAbsoluteURL(text, base: base())
    }

    /// ``absoluteURL(_:base:)`` through `URL`.
    static func parsedAbsoluteURL(_ text: String, base: URL?) -> String? {
        let trimmed = FeedText.trimmingWhitespace(text).replacingOccurrences(of: " ", with: "%20")
        guard !trimmed.isEmpty, let url = URL(string: trimmed) else { return nil }
        if let scheme = url.scheme, !scheme.isEmpty { return trimmed }
        if let base, base.scheme != nil, let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            resolved.scheme != nil
        {
            return resolved.absoluteString
        }
        if trimmed.hasPrefix("//") { return "https:" + trimmed }
        return nil
    }

    /// Whether `text` is an http(s) URL of printable ASCII with nothing `URL(string:)` would refuse or this type
    /// would change (no white space, quotes, angle brackets, braces, backslashes, brackets, and every `%` followed
    /// by two hex digits): the usual case, returned by ``absoluteURL(_:base:)`` without parsing.
    static func isPlainWebURL(_ text: String) -> Bool {
        guard URLBytes.hasWebScheme(text) else { return false }
        var text = text
        // Over the contiguous bytes: iterating the UTF-8 view cost three times as much, for every link of every item.
        return text.withUTF8 { bytes in
            var percentDigits = 0
            for byte in bytes {
                if percentDigits > 0 {
                    guard isHexDigit(byte) else { return false }
                    percentDigits -= 1
                    continue
                }
                if byte == UInt8(ascii: "%") {
                    percentDigits = 2
                } else if !URLBytes.isURLByte(byte) || URLBytes.isBracket(byte) {
                    return false
                }
            }
            return percentDigits == 0
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
