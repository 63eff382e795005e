public import Foundation
public import TributaryCore

/// One-call parsing of a whole feed document held in memory.
public enum FeedParser {
    /// Parses a complete document.
    ///
    /// - Parameters:
    ///   - data: The document's bytes, in any supported encoding.
    ///   - options: The base URL, source id, encoding hints and budgets.
    /// - Returns: The feed header, every item in document order and the warnings met.
    /// - Throws: ``FeedParseError`` when the document is not a feed or entity expansion exceeds its budget.
    public static func parse(
        data: Data,
        options: FeedParserOptions
    ) throws -> (metadata: FeedMetadata, items: [FeedItem], warnings: [SourceWarning]) {
        let parser = try StreamingFeedParser(options: options)
        var items = try data.withUnsafeBytes { try parser.parse($0) }
        items += try parser.finish()
        guard let metadata = parser.metadata else {
            throw FeedParseError(.notAFeed("no RSS or Atom root element was found"))
        }
        return (metadata, items, parser.takeWarnings())
    }
}
