public import Foundation
public import HTMLSanitizer
public import TributaryCore

extension FeedItem {
    /// Makes `content_html` safe (SRC-7), as the parser does when its options carry a sanitizer: for callers that
    /// parse with `sanitizer: nil` and sanitize later, after reshaping items or on another thread.
    ///
    /// - Parameters:
    ///   - sanitizer: the sanitizer to use.
    ///   - baseURL: the feed's URL, for the relative URLs still left (the parser resolved those it could against
    ///     the `xml:base` chain and the feed's URL already).
    public mutating func sanitizeContent(with sanitizer: HTMLSanitizer, baseURL: URL?) {
        guard let html = contentHTML else { return }
        contentHTML = sanitizer.sanitize(html, baseURL: baseURL)
    }
}
