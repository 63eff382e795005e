import Foundation
import FeedParser
import TributaryCore

/// Reads the input as a JSON Feed document with ``JSONFeedDocumentReader``, and as one stored item with
/// ``FeedItem/init(json:)``; a thrown ``SourceError`` or `nil` is a correct outcome, a crash, a trap or a hang is a
/// finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFeed(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        let (feed, _) = try JSONFeedDocumentReader.read(data: data, path: "fuzz.json", sourceID: "fuzz")
        for item in feed.items {
            // Every item leaves the reader with an id and the source stamped (SRC-2, SRC-3).
            if item.id.isEmpty || item.sourceID != "fuzz" { fatalError("item without id or source: \(item)") }
        }
    } catch {
        _ = String(describing: error)
    }
    // The store's item reader (FeedItem(json:)) reads the same kind of bytes: nil is a correct outcome.
    if let start {
        _ = FeedItem(json: UnsafeRawBufferPointer(start: start, count: count))
    }
    return 0
}
