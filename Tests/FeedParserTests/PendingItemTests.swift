import FeedParser
import Foundation
import Testing
import TributaryCore

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
            let built = await Task.detached { pending.map { $0.build() } }.value
            #expect(built == expected.items, "\(name), sanitizer: \(options.sanitizer != nil)")
            #expect(parser.takeWarnings() == expected.warnings, "\(name)")
        }
    }
}
