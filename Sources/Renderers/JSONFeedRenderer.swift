import Foundation
public import TributaryCore

/// Writes the digest as one merged JSON Feed 1.1 document, items in digest order.
public struct JSONFeedRenderer: Renderer {
    public static let format = OutputFormat.json

    public init() {}

    public func render(_ digest: Digest) throws -> String {
        let feed = JSONFeed(title: digest.title, items: digest.entries.map(\.item))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(feed)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
