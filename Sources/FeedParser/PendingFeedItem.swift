import Foundation
import HTMLSanitizer
public import TributaryCore

/// An item read to its end but not yet built: its fields as the feed gave them, the normalisation into a
/// ``FeedItem`` (choosing its URL, content and id, making `content_html` safe when the options carry a sanitizer)
/// still to do.
///
/// ``StreamingFeedParser/parsePending(_:)`` returns these so that a caller with a second thread can build items
/// there, beside the parsing: in `tributary parse`, whichever of its two threads is ahead builds them. ``build()``
/// gives exactly the item ``StreamingFeedParser/parse(_:)-(UnsafeRawBufferPointer)`` returns.
public struct PendingFeedItem: Sendable {
    var builder: ItemBuilder
    let context: Context

    /// What building needs besides the fields, shared by the items of one parser.
    final class Context: Sendable {
        let sourceID: SourceID
        let sanitizer: HTMLSanitizer?
        let baseURL: URL?

        init(options: FeedParserOptions) {
            sourceID = options.sourceID
            sanitizer = options.sanitizer
            baseURL = options.baseURL
        }
    }

    /// The normalised item.
    public consuming func build() -> FeedItem {
        buildInPlace()
    }

    /// The normalised items, in order.
    ///
    /// Each item is built where it lies in the array, its fields moved into the ``FeedItem``: `items.map { $0.build() }`
    /// would copy every item first (some twenty reference counts each, then as many releases), because a closure's
    /// argument is only borrowed.
    public static func build(_ items: consuming [PendingFeedItem]) -> [FeedItem] {
        var items = items
        return items.withUnsafeMutableBufferPointer { pending in
            let pending = pending
            return pending.indices.map { pending[$0].buildInPlace() }
        }
    }

    /// Builds the item, moving its fields out: what is left is spent (see ``ItemBuilder/build(sourceID:sanitizer:baseURL:)``).
    private mutating func buildInPlace() -> FeedItem {
        builder.build(sourceID: context.sourceID, sanitizer: context.sanitizer, baseURL: context.baseURL)
    }
}
