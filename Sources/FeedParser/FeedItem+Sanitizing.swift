public import Foundation
public import HTMLSanitizer
public import TributaryCore

extension FeedItem {
    /// Whether the item may hold HTML that ``sanitizeContent(with:baseURL:)`` makes safe: a cheap check, so that
    /// items with none skip it.
    public var mayHoldHTML: Bool {
        guard contentHTML == nil, tributary?.hasDetails != true else { return true }
        guard let origin = tributary?.origin else { return false }
        return origin.subtitleHTML != nil || origin.rightsHTML != nil
    }

    /// Makes the item's HTML safe (SRC-7): `content_html`, the rights' HTML (`_tributary.rights_html`), and its Atom
    /// source's subtitle and rights HTML (`_tributary.origin.subtitle_html`, `rights_html`), as the parser does when
    /// its options carry a sanitizer. For callers that parse with `sanitizer: nil` and sanitize later, after
    /// reshaping items or on another thread, and for items read from JSON Feed.
    ///
    /// - Parameters:
    ///   - sanitizer: the sanitizer to use.
    ///   - baseURL: the feed's URL, for the relative URLs still left (the parser resolved those it could against
    ///     the `xml:base` chain and the feed's URL already).
    public mutating func sanitizeContent(with sanitizer: HTMLSanitizer, baseURL: URL?) {
        if let html = contentHTML { contentHTML = sanitizer.sanitize(html, baseURL: baseURL) }
        /// An extension's HTML made safe; nothing when nothing is left of it.
        func safe(_ html: String) -> String? {
            let safe = sanitizer.sanitize(html, baseURL: baseURL)
            return safe.isEmpty ? nil : safe
        }
        if let rights = tributary?.details.rightsHTML { tributary?.details.rightsHTML = safe(rights) }
        if var origin = tributary?.origin, origin.subtitleHTML != nil || origin.rightsHTML != nil {
            origin.subtitleHTML = origin.subtitleHTML.flatMap(safe)
            origin.rightsHTML = origin.rightsHTML.flatMap(safe)
            tributary?.origin = origin
        }
    }
}
