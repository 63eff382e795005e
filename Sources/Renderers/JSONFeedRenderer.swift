import Foundation
public import TributaryCore

/// Writes the digest as one merged JSON Feed 1.1 document, items in digest order, one item a line: written through
/// the one fast writer `parse` uses (``JSONFeedWriter``), a batch of items at a time when the digest is streamed.
public struct JSONFeedRenderer: StreamingRenderer {
    public static let format = OutputFormat.json

    public init() {}

    public func writeStart(of digest: DigestOutline, into output: inout [UInt8]) {
        var writer = JSONFeedWriter()
        writer.writeHeader(of: JSONFeed(title: digest.title, items: []), into: &output)
    }

    public func writeStart(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) {}

    /// Items without content get the text JSON Feed 1.1 requires (``FeedItem/withRequiredContent()``).
    public func write(_ entries: [Digest.Entry], after written: Int, into output: inout [UInt8]) {
        var writer = JSONFeedWriter(writtenItems: written)
        for entry in entries { writer.writeItem(entry.item.withRequiredContent(), into: &output) }
    }

    public func writeEnd(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) {}

    public func writeEnd(of digest: DigestOutline, into output: inout [UInt8]) {
        var writer = JSONFeedWriter(writtenItems: digest.itemCount)
        writer.writeFooter(into: &output)
    }
}
