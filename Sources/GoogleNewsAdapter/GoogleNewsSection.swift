import Foundation
import TributaryCore

/// Which Google News feed a source reads: top stories, a topic section, a search, or a place.
enum GoogleNewsSection: Sendable, Hashable {
    /// The topic sections Google News serves.
    static let topics = ["WORLD", "NATION", "BUSINESS", "TECHNOLOGY", "ENTERTAINMENT", "SPORTS", "SCIENCE", "HEALTH"]

    case topStories
    case topic(String)
    case search(String)
    case geo(String)

    /// Picks the section from the options.
    /// - Throws: ``SourceOptionError`` when more than one of `topic`, `search` and `geo` is given, a topic is not
    ///   one of ``topics``, or a value is empty.
    init(options: GoogleNewsOptions) throws {
        let given = [("topic", options.topic), ("search", options.search), ("geo", options.geo)]
            .compactMap { key, value in value.map { (key, $0) } }
        guard given.count <= 1 else {
            throw SourceOptionError(
                key: given[1].0,
                message:
                    "cannot be combined with \"\(given[0].0)\"; give one of topic, search and geo (or none for top stories)"
            )
        }
        guard let (key, value) = given.first else {
            self = .topStories
            return
        }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw SourceOptionError(key: key, message: "is empty; leave it out for top stories")
        }
        switch key {
        case "topic":
            let topic = trimmed.uppercased()
            guard Self.topics.contains(topic) else {
                throw SourceOptionError(key: key, message: "one of \(Self.topics.joined(separator: ", "))")
            }
            self = .topic(topic)
        case "search":
            self = .search(trimmed)
        default:
            self = .geo(trimmed)
        }
    }

    /// The feed's URL under `base` (DESIGN.md section 9): `/rss`, `/rss/headlines/section/topic/TOPIC`,
    /// `/rss/search?q=QUERY` or `/rss/headlines/section/geo/PLACE`, each with `hl`, `gl` and `ceid`.
    func url(base: URL, edition: GoogleNewsEdition) -> URL? {
        let path: String
        var query: [(String, String)] = []
        switch self {
        case .topStories:
            path = "/rss"
        case .topic(let topic):
            path = "/rss/headlines/section/topic/\(Self.encode(topic))"
        case .search(let text):
            path = "/rss/search"
            query.append(("q", text))
        case .geo(let place):
            path = "/rss/headlines/section/geo/\(Self.encode(place))"
        }
        query += [("hl", edition.hl), ("gl", edition.gl), ("ceid", edition.ceid)]
        var base = base.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let queryText = query.map { "\($0)=\(Self.encode($1))" }.joined(separator: "&")
        return URL(string: base + path + "?" + queryText)
    }

    /// Percent-encodes everything but the unreserved characters and `:` (which Google's own links leave as is,
    /// as in `ceid=US:en` and `q=when:7d`); a space becomes `%20`.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
