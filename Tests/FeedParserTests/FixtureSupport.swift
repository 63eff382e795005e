import FeedParser
import Foundation
import Testing
import TributaryCore

/// Loading fixtures and parsing them in chunks.
enum FixtureSupport {
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try data(name))
    }

    static let feedURL = URL(string: "https://feeds.example.com/path/feed.xml")

    /// The fixtures check what the parser reads, so `content_html` is kept as the feed wrote it (decoded, not
    /// sanitized); ContentSanitizingTests checks the default, which sanitizes.
    static func options(httpCharset: String? = nil) -> FeedParserOptions {
        FeedParserOptions(baseURL: feedURL, sourceID: "test-source", httpCharset: httpCharset, sanitizer: nil)
    }

    /// Parses `bytes` fed in the given chunk sizes (the last size repeats).
    static func parse(
        _ bytes: [UInt8],
        splitAt positions: [Int] = [],
        options: FeedParserOptions = options()
    ) throws -> (metadata: FeedMetadata?, items: [FeedItem], warnings: [SourceWarning]) {
        let parser = try StreamingFeedParser(options: options)
        var items: [FeedItem] = []
        var start = 0
        for position in positions + [bytes.count] where position >= start {
            items += try parser.parse(Array(bytes[start..<position]))
            start = position
        }
        items += try parser.finish()
        return (parser.metadata, items, parser.takeWarnings())
    }

    static func parseFixture(
        _ name: String,
        options: FeedParserOptions = options()
    ) throws -> (metadata: FeedMetadata?, items: [FeedItem], warnings: [SourceWarning]) {
        try parse(bytes(name), options: options)
    }
}
