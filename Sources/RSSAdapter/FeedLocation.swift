import Foundation
import TributaryCore

/// Where an `rss` source's feed is, as checked by `init`: a web URL, or a file still to be resolved against the
/// directory holding feeds.json (which needs the file system, so it waits for `run`).
enum FeedLocation: Sendable, Hashable {
    case web(URL)
    case file(path: String)

    /// Classifies `text` without touching the file system.
    /// - Throws: ``SourceOptionError`` for `key` when the text is empty or has an unsupported scheme.
    init(_ text: String, key: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw SourceOptionError(key: key, message: "is empty; give the feed's http(s) URL or a file path")
        }
        let lowercased = trimmed.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            guard let url = URL(string: trimmed), let host = url.host, !host.isEmpty else {
                throw SourceOptionError(
                    key: key,
                    message: "is not a valid URL; percent-encode spaces and other special characters"
                )
            }
            self = .web(url)
        } else if lowercased.hasPrefix("file://") {
            guard let url = URL(string: trimmed), url.isFileURL, !url.path.isEmpty else {
                throw SourceOptionError(key: key, message: "is not a valid file:// URL, e.g. file:///srv/feed.xml")
            }
            self = .file(path: url.path)
        } else if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].contains("/"),
            trimmed[..<colon].count > 1
        {
            throw SourceOptionError(
                key: key,
                message: "uses the scheme \"\(trimmed[..<colon])\"; only http, https, file and plain paths are read"
            )
        } else {
            self = .file(path: trimmed)
        }
    }

    /// The URL to read: the web URL, or the file resolved against the directory holding feeds.json.
    /// - Throws: ``SourceError`` `pathOutsideConfigDirectory` when the path leads outside that directory.
    func resolve(in context: SourceContext, sourceID: SourceID) throws -> URL {
        switch self {
        case .web(let url):
            return url
        case .file(let path):
            guard let url = context.resolvePath(path) else {
                throw SourceError(sourceID: sourceID, reason: .pathOutsideConfigDirectory(path: path))
            }
            return url
        }
    }
}
