import FeedParser
import Foundation
import TributaryCore

/// Feeds the input to ``StreamingFeedParser`` in chunks, as a network read would, then finishes.
///
/// The first byte chooses the chunk size (1 to 256 bytes), so the fuzzer also explores how a document split at any
/// point is read; the rest is the document. Errors are expected outcomes; a crash, a trap or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let chunkSize = Int(bytes[0]) + 1
    let document = UnsafeRawBufferPointer(rebasing: bytes[1...])
    guard
        let parser = try? StreamingFeedParser(
            options: FeedParserOptions(baseURL: URL(string: "https://example.org/feed/"), sourceID: "fuzz")
        )
    else { return 0 }
    var offset = 0
    do {
        while offset < document.count {
            let end = min(offset + chunkSize, document.count)
            _ = try parser.parse(UnsafeRawBufferPointer(rebasing: document[offset..<end]))
            offset = end
        }
        _ = try parser.finish()
    } catch {
        // Not a feed, or over a budget: a reported error is a correct outcome.
    }
    _ = parser.metadata
    _ = parser.takeWarnings()
    return 0
}
