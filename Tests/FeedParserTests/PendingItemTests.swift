import Foundation
import Testing
import TributaryCore

@testable import FeedParser

/// `parsePending` hands items over unbuilt so that another thread can build them (`tributary parse` does): built
/// anywhere, they must be exactly the items `parse` returns, sanitized or not.
@Suite struct PendingItemTests {
    @Test(arguments: ChunkBoundaryTests.fixtures)
    func pendingItemsBuiltOnAnotherThreadAreTheParsedItems(_ name: String) async throws {
        let bytes = try FixtureSupport.bytes(name)
        for options in [FixtureSupport.options(), FeedParserOptions(baseURL: FixtureSupport.feedURL)] {
            let expected = try FixtureSupport.parse(bytes, options: options)
            let parser = try StreamingFeedParser(options: options)
            var pending: [PendingFeedItem] = []
            // Uneven chunks, so that items end in the middle of some and several end in others.
            for start in stride(from: 0, to: bytes.count, by: 1_000) {
                pending += try bytes[start..<min(bytes.count, start + 1_000)].withUnsafeBytes {
                    try parser.parsePending($0)
                }
            }
            pending += try parser.finishPending()
            let forWriting = pending
            let built = await Task.detached { pending.map { $0.build() } }.value
            #expect(built == expected.items, "\(name), sanitizer: \(options.sanitizer != nil)")
            #expect(parser.takeWarnings() == expected.warnings, "\(name)")
            // Built for writing, the safe `content_html` comes beside the item as UTF-8, and only with a sanitizer.
            let writable = await Task.detached { PendingFeedItem.buildForWriting(forWriting) }.value
            #expect(writable.map { $0.feedItem() } == expected.items, "\(name), sanitizer: \(options.sanitizer != nil)")
            for (item, expectedItem) in zip(writable, expected.items) {
                let hasOwnID = expectedItem.tributary?.guid?.isEmpty == false
                if options.sanitizer != nil, expectedItem.contentHTML != nil, hasOwnID {
                    #expect(item.item.contentHTML == nil, "\(name)")
                    #expect(item.safeContentHTML == expectedItem.contentHTML.map { Array($0.utf8) }, "\(name)")
                } else {
                    #expect(item.safeContentHTML == nil, "\(name)")
                }
            }
        }
    }

    /// An item with no id and no link gets an id made from its title, date and, when one of those is missing, its
    /// `content_html`: the safe one, however the item is built (`tributary parse` once made it from the unsafe HTML).
    @Test func anItemWithoutIdOrLinkGetsTheSameIdHoweverItIsBuilt() throws {
        let xml = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
            <item><description>&lt;b onclick="x()"&gt;hi&lt;/b&gt;&lt;script&gt;alert(1)&lt;/script&gt;</description></item>
            <item><title>Only a title</title><description>&lt;p&gt;text&lt;/p&gt;</description></item>
            </channel></rss>
            """
        let options = FeedParserOptions(baseURL: URL(string: "https://example.org/feed.xml"))
        let expected = try FeedParser.parse(data: Data(xml.utf8), options: options).items
        #expect(expected.count == 2)
        #expect(expected.allSatisfy { $0.id.hasPrefix("tributary:") })
        #expect(expected.first?.contentHTML == "<b>hi</b>")
        let parser = try StreamingFeedParser(options: options)
        var pending = try Array(xml.utf8).withUnsafeBytes { try parser.parsePending($0) }
        pending += try parser.finishPending()
        let writable = PendingFeedItem.buildForWriting(pending)
        #expect(writable.map(\.item.id) == expected.map(\.id))
        #expect(writable.map { $0.feedItem() } == expected)
    }
}
