import Foundation
import HTMLSanitizer
import TributaryCore

/// An item read to its end but not yet built: its fields as the feed gave them, the normalisation into a
/// ``FeedItem`` (choosing its URL, content and id, making `content_html` safe when the options carry a sanitizer)
/// still to do.
///
/// ``StreamingFeedParser/parsePending(_:)`` returns these so that a caller with a second thread can build items
/// there, beside the parsing: in `tributary parse`, whichever of its two threads is ahead builds them. ``build()``
/// gives exactly the item ``StreamingFeedParser/parse(_:)-(UnsafeRawBufferPointer)`` returns.
struct PendingFeedItem: Sendable {
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
    consuming func build() -> FeedItem {
        buildInPlace()
    }

    /// The normalised items, in order.
    ///
    /// Each item is built where it lies in the array, its fields moved into the ``FeedItem``: `items.map { $0.build() }`
    /// would copy every item first (some twenty reference counts each, then as many releases), because a closure's
    /// argument is only borrowed.
    static func build(_ items: consuming [PendingFeedItem]) -> [FeedItem] {
        var items = items
        return items.withUnsafeMutableBufferPointer { pending in
            let pending = pending
            return pending.indices.map { pending[$0].buildInPlace() }
        }
    }

    /// The normalised items, in order, for writing out: as ``build(_:)``, except that each `content_html` is made
    /// safe as UTF-8 beside its item rather than as a `String` in it (see ``WritableFeedItem``).
    static func buildForWriting(_ items: consuming [PendingFeedItem]) -> [WritableFeedItem] {
        var items = items
        return items.withUnsafeMutableBufferPointer { pending in
            let pending = pending
            return pending.indices.map { pending[$0].buildForWritingInPlace() }
        }
    }

    /// Builds the item, moving its fields out: what is left is spent (see ``ItemBuilder/build(sourceID:sanitizer:baseURL:)``).
    private mutating func buildInPlace() -> FeedItem {
        builder.build(sourceID: context.sourceID, sanitizer: context.sanitizer, baseURL: context.baseURL)
    }

    private mutating func buildForWritingInPlace() -> WritableFeedItem {
        guard let sanitizer = context.sanitizer else { return WritableFeedItem(item: buildInPlace()) }
        let built = builder.build(
            sourceID: context.sourceID,
            contentHTML: .safeUTF8(sanitizer: sanitizer),
            baseURL: context.baseURL
        )
        return WritableFeedItem(item: built.item, safeContentHTML: built.safeContentHTML)
    }
}

/// A normalised item ready to be written out (as JSON Feed, with `JSONFeedWriter`): when the parser's options carry
/// a sanitizer, its safe `content_html` is kept as UTF-8 beside the item instead of as a `String` in it.
///
/// The HTML then goes from libxml2's bytes through the sanitizer to the output without being made into a `String`
/// twice, each time checking its UTF-8 and copying it (on the Atom benchmark feed, the `String`s made on the parsing
/// thread, mostly of content, were a tenth of its time).
struct WritableFeedItem: Sendable {
    /// The item; its `contentHTML` is `nil` when ``safeContentHTML`` holds it.
    var item: FeedItem
    /// The item's `content_html`, made safe, as valid UTF-8; `nil` when it is in ``item`` or there is none.
    var safeContentHTML: [UInt8]?

    /// An item whose `content_html`, if any, is in it.
    init(item: FeedItem, safeContentHTML: [UInt8]? = nil) {
        self.item = item
        self.safeContentHTML = safeContentHTML
    }

    /// The item with its `content_html` in it, as ``PendingFeedItem/build()`` gives it.
    consuming func feedItem() -> FeedItem {
        var item = item
        if let safe = safeContentHTML { item.contentHTML = String(decoding: safe, as: UTF8.self) }
        return item
    }
}
