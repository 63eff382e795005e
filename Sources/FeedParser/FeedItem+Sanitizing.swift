public import Foundation
public import HTMLSanitizer
public import TributaryCore

extension FeedItem {
    /// Makes the item's HTML safe (SRC-7): `content_html`, and the rights' HTML (`_tributary.rights_html`), as the
    /// parser does when its options carry a sanitizer. For callers that parse with `sanitizer: nil` and sanitize
    /// later, after reshaping items or on another thread, and for items read from JSON Feed.
    ///
    /// - Parameters:
    ///   - sanitizer: the sanitizer to use.
    ///   - baseURL: the feed's URL, for the relative URLs still left (the parser resolved those it could against
    ///     the `xml:base` chain and the feed's URL already).
    public mutating func sanitizeContent(with sanitizer: HTMLSanitizer, baseURL: URL?) {
        if let html = contentHTML { contentHTML = sanitizer.sanitize(html, baseURL: baseURL) }
        if let rights = tributary?.details.rightsHTML {
            let safe = sanitizer.sanitize(rights, baseURL: baseURL)
            tributary?.details.rightsHTML = safe.isEmpty ? nil : safe
        }
    }
}
