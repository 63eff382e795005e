import FeedParser
import Foundation
import RSSAdapter
import TributaryCore

/// Finding the feeds of an address, as `tributary add` does: the address itself when it is a feed; else the
/// feeds an HTML page announces (`<link rel="alternate">` of RSS, Atom and JSON Feed types, and `rel="feed"`);
/// else the paths sites commonly serve them at.
enum FeedDiscovery {
    /// A feed found, with the title it gives itself (or its `<link title>`).
    struct Candidate: Equatable {
        var url: URL
        var title: String?
    }

    /// The paths tried, in order, when a page announces no feed.
    static let commonPaths = [
        "/feed", "/rss", "/feed.xml", "/rss.xml", "/atom.xml", "/index.xml", "/feed.json", "/feeds/posts/default",
    ]

    /// The media types a feed `<link>` announces.
    static let feedTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json",
        "application/json", "text/xml", "application/xml",
    ]

    /// The feeds at or announced by `url`.
    /// - Throws: ``WebPage/Failure`` when the address itself cannot be fetched.
    static func feeds(at url: URL) async throws(WebPage.Failure) -> [Candidate] {
        let page = try await WebPage.fetch(url)
        if let feed = parse(page) { return [Candidate(url: page.url, title: feed.title.isEmpty ? nil : feed.title)] }
        let announced = links(in: String(decoding: page.body, as: UTF8.self), base: page.url)
        if !announced.isEmpty { return announced }
        // Nothing announced: the common paths of the site, the first that is a feed.
        var components = URLComponents()
        components.scheme = page.url.scheme
        components.host = page.url.host
        components.port = page.url.port
        for path in commonPaths {
            components.path = path
            guard let candidate = components.url, let fetched = try? await WebPage.fetch(candidate) else { continue }
            if let feed = parse(fetched) {
                return [Candidate(url: fetched.url, title: feed.title.isEmpty ? nil : feed.title)]
            }
        }
        return []
    }

    /// The page read as a feed, or `nil` when it is not one.
    static func parse(_ page: WebPage) -> JSONFeed? {
        let options = FeedParserOptions(baseURL: page.url, sourceID: SourceID("add"), httpCharset: page.charset)
        let feed = try? FeedConversion.convert(
            options: options,
            output: .collected,
            read: page.bodyReader(),
            warning: { _ in }
        )
        return feed ?? nil
    }

    /// The feeds an HTML page announces in `<link>` tags, resolved against its `<base href>` or `base`, in order,
    /// without repeats.
    static func links(in html: String, base: URL) -> [Candidate] {
        var base = base
        var result: [Candidate] = []
        var seen = Set<String>()
        for tag in html.matches(of: /(?i)<(link|base)\b[^>]*>/) {
            let attributes = Self.attributes(of: String(tag.output.0))
            if tag.output.1.lowercased() == "base" {
                if let href = attributes["href"], let url = URL(string: href, relativeTo: base)?.absoluteURL {
                    base = url
                }
                continue
            }
            let rel = Set((attributes["rel"] ?? "").lowercased().split(separator: " ").map(String.init))
            let type = (attributes["type"] ?? "").lowercased().split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let isFeed = rel.contains("feed") || (rel.contains("alternate") && type.map(feedTypes.contains) == true)
            guard isFeed, !rel.contains("stylesheet"), let href = attributes["href"], !href.isEmpty,
                let url = URL(string: href, relativeTo: base)?.absoluteURL,
                ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                seen.insert(url.absoluteString).inserted
            else { continue }
            let title = attributes["title"].map { FeedText.collapseWhitespace($0) }.flatMap { $0.isEmpty ? nil : $0 }
            result.append(Candidate(url: url, title: title))
        }
        return result
    }

    /// The attributes of one start tag, names lower-cased, values with the common character references decoded.
    static func attributes(of tag: String) -> [String: String] {
        var result: [String: String] = [:]
        for match in tag.matches(of: /([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/) {
            let value = String(match.output.2 ?? match.output.3 ?? match.output.4 ?? "")
            result[match.output.1.lowercased()] = FeedText.decodeEntities(value)
        }
        return result
    }
}

extension WebPage {
    /// The body as ``FeedConversion`` reads its input, chunk by chunk, as a file would be read: what `parse URL`
    /// and `add` parse a fetched page with.
    func bodyReader() -> (UnsafeMutableRawBufferPointer) -> Int {
        let body = self.body
        var offset = 0
        return { buffer in
            let count = min(buffer.count, body.count - offset)
            body.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
    }
}
