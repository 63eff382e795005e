import Foundation
import TributaryCore

/// Turns a Google News RSS item, as the feed parser reads it, into the item Tributary keeps (DESIGN.md
/// section 9): the article token as the id, the consent wrapper removed from links, the publisher split off the
/// title into `_tributary.origin`, the description's related coverage in `_tributary.related`, and the
/// description itself dropped, since it is a list of links and not article text.
///
/// The fixtures in `Tests/GoogleNewsAdapterTests/Fixtures/` (`google-news-*.xml`) show each quirk.
struct GoogleNewsItemShaper: Sendable {
    /// Shapes one item.
    func shape(_ item: FeedItem) -> FeedItem {
        var item = item
        var tributary = item.tributary ?? TributaryExtension()
        if let url = item.url { item.url = Self.unwrapConsent(url) }
        if let token = item.url.flatMap(Self.articleToken) ?? tributary.guid.flatMap(Self.tokenFromGUID) {
            item.id = token
        }
        if let title = item.title {
            let (headline, publisher) = Self.splitTitle(title, publisher: tributary.origin?.title)
            item.title = headline
            if let publisher, tributary.origin?.title == nil {
                tributary.origin = TributaryExtension.Origin(title: publisher, url: tributary.origin?.url)
            }
        }
        item.tributary = tributary
        let description = item.contentHTML ?? item.contentText ?? item.summary
        tributary.related = description.map { Self.relatedCoverage(in: $0, excluding: item) } ?? []
        item.contentHTML = nil
        item.contentText = nil
        item.summary = nil
        item.tributary = tributary
        return item
    }

    // MARK: - Title

    /// Splits `Headline - Publisher` on the last ` - `, only when the suffix is the `<source>` publisher or when
    /// there is no `<source>` (a headline may itself contain ` - `).
    static func splitTitle(_ title: String, publisher: String?) -> (headline: String, publisher: String?) {
        guard let range = title.range(of: " - ", options: .backwards) else { return (title, nil) }
        let headline = String(title[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        let suffix = String(title[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        guard !headline.isEmpty, !suffix.isEmpty else { return (title, nil) }
        if let publisher {
            guard suffix == publisher.trimmingCharacters(in: .whitespaces) else { return (title, nil) }
        }
        return (headline, suffix)
    }

    // MARK: - Links

    /// `https://consent.google.com/ml?continue=https://news.google.com/rss/articles/...` → the `continue` link,
    /// when it leads to Google News; any other URL is returned unchanged.
    static func unwrapConsent(_ url: String) -> String {
        guard let components = URLComponents(string: url), components.host == "consent.google.com",
            let target = components.queryItems?.first(where: { $0.name == "continue" })?.value,
            let targetHost = URLComponents(string: target)?.host,
            targetHost == "news.google.com" || targetHost.hasSuffix(".google.com")
        else { return url }
        return target
    }

    /// The opaque token in `…/rss/articles/TOKEN?oc=5` (also `…/articles/TOKEN`).
    static func articleToken(_ url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        let segments = components.path.split(separator: "/")
        guard let index = segments.lastIndex(of: "articles"), index + 1 < segments.endIndex else { return nil }
        let token = String(segments[index + 1])
        return token.isEmpty ? nil : token
    }

    /// The guid, when it is a bare token rather than a URL.
    static func tokenFromGUID(_ guid: String) -> String? {
        let trimmed = guid.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("://") { return articleToken(trimmed) }
        return trimmed.isEmpty || trimmed.contains("/") ? nil : trimmed
    }

    // MARK: - Related coverage

    /// The `<li>` entries of the description's `<ol>` (`<a href="…">Title</a>&nbsp;&nbsp;<font …>Publisher</font>`),
    /// leaving out the item's own entry. A single-story description (no `<ol>`) has no related coverage.
    static func relatedCoverage(in html: String, excluding item: FeedItem) -> [TributaryExtension.RelatedLink] {
        guard html.range(of: "<ol", options: .caseInsensitive) != nil else { return [] }
        let ownToken = item.url.flatMap(articleToken)
        let ownTitle = item.title
        let ownPublisher = item.tributary?.origin?.title
        var links: [TributaryExtension.RelatedLink] = []
        var rest = html[...]
        while let open = rest.range(of: "<li", options: .caseInsensitive) {
            let after = rest[open.upperBound...]
            let close = after.range(of: "</li>", options: .caseInsensitive)
            let entry = close.map { after[..<$0.lowerBound] } ?? after
            rest = close.map { after[$0.upperBound...] } ?? after[after.endIndex...]
            guard let link = relatedLink(in: entry) else { continue }
            if let ownToken, link.url.flatMap(articleToken) == ownToken { continue }
            if link.title == ownTitle, link.publisher == ownPublisher { continue }
            links.append(link)
        }
        return links
    }

    private static func relatedLink(in entry: Substring) -> TributaryExtension.RelatedLink? {
        guard let anchor = entry.range(of: "<a", options: .caseInsensitive),
            let tagEnd = entry[anchor.upperBound...].firstIndex(of: ">"),
            let anchorClose = entry[tagEnd...].range(of: "</a>", options: .caseInsensitive)
        else { return nil }
        let title = plainText(entry[entry.index(after: tagEnd)..<anchorClose.lowerBound])
        guard !title.isEmpty else { return nil }
        let href = attribute("href", in: entry[anchor.upperBound..<tagEnd]).map { unwrapConsent($0) }
        var publisher: String?
        let tail = entry[anchorClose.upperBound...]
        if let font = tail.range(of: "<font", options: .caseInsensitive),
            let fontEnd = tail[font.upperBound...].firstIndex(of: ">"),
            let fontClose = tail[fontEnd...].range(of: "</font>", options: .caseInsensitive)
        {
            let text = plainText(tail[tail.index(after: fontEnd)..<fontClose.lowerBound])
            publisher = text.isEmpty ? nil : text
        }
        return TributaryExtension.RelatedLink(title: title, url: href, publisher: publisher)
    }

    /// The value of `name="…"` (or `'…'`) in a tag's attribute text, entities decoded.
    private static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag
        while let range = rest.range(of: name, options: .caseInsensitive) {
            rest = rest[range.upperBound...]
            let afterName = rest.drop { $0 == " " }
            guard afterName.first == "=" else { continue }
            let value = afterName.dropFirst().drop { $0 == " " }
            guard let quote = value.first, quote == "\"" || quote == "'" else { continue }
            let body = value.dropFirst()
            guard let end = body.firstIndex(of: quote) else { return nil }
            return FeedText.decodeEntities(String(body[..<end]))
        }
        return nil
    }

    /// Tags removed, entities decoded (twice-escaped text is common in these descriptions), whitespace collapsed.
    private static func plainText(_ html: Substring) -> String {
        let text = FeedText.plainText(String(html))
        return text.contains("&") ? FeedText.plainText(text, stripTags: false) : text
    }
}
