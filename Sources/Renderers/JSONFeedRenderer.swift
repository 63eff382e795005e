import Foundation
public import TributaryCore

/// Writes the digest as one merged JSON Feed 1.1 document, items in digest order.
public struct JSONFeedRenderer: Renderer {
    public static let format = OutputFormat.json

    public init() {}

    public func render(_ digest: Digest) throws -> String {
        try Self.encode(JSONFeed(title: digest.title, items: digest.entries.map(\.item)))
    }

    /// Encodes a JSON Feed document with the one fast writer `parse` uses (``JSONFeedWriter``): one item per line,
    /// slashes unescaped, ending in a newline. Items without content get the text JSON Feed 1.1 requires
    /// (``FeedItem/withRequiredContent()``).
    public static func encode(_ feed: JSONFeed) throws -> String {
        var feed = feed
        feed.items = feed.items.map { $0.withRequiredContent() }
        return String(decoding: JSONFeedWriter.encode(feed), as: UTF8.self)
    }
}
