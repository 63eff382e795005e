import Foundation
public import TributaryCore

/// Writes the digest as one merged JSON Feed 1.1 document, items in digest order.
public struct JSONFeedRenderer: Renderer {
    public static let format = OutputFormat.json

    public init() {}

    public func render(_ digest: Digest) throws -> String {
        try Self.encode(JSONFeed(title: digest.title, items: digest.entries.map(\.item)))
    }

    /// Encodes a JSON Feed document: pretty-printed, keys sorted, slashes unescaped, ending in a newline.
    ///
    /// JSON Feed 1.1 requires every item to have `content_html` or `content_text`; many feeds have items with
    /// neither (a headline and a link), so such an item gets its summary, else its title, as `content_text`, and
    /// the document stays valid.
    public static func encode(_ feed: JSONFeed) throws -> String {
        var feed = feed
        for index in feed.items.indices
        where feed.items[index].contentHTML == nil && feed.items[index].contentText == nil {
            feed.items[index].contentText = feed.items[index].summary ?? feed.items[index].title ?? ""
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(feed), as: UTF8.self) + "\n"
    }
}
