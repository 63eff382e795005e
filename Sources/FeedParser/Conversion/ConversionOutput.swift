import Foundation
import TributaryCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where parsed items go: straight to standard output as JSON Feed, or collected for a renderer.
enum ConversionOutput {
    case streaming(BackgroundJSONFeedWriter)
    case collecting(CollectedFeed)

    func begin(_ header: @autoclosure () -> JSONFeed) {
        switch self {
        case .streaming(let writer): writer.begin(header())
        case .collecting(let collected): collected.begin(header())
        }
    }

    /// Writes items.
    func write(_ items: [FeedItem]) {
        switch self {
        case .streaming(let writer): writer.write(.built(items.map { WritableFeedItem(item: $0) }))
        case .collecting(let collected): collected.feed.items += items
        }
    }

    /// Builds and writes items.
    func write(_ items: [PendingFeedItem]) {
        switch self {
        case .streaming(let writer): writer.write(.pending(items))
        case .collecting(let collected): collected.feed.items += PendingFeedItem.build(items)
        }
    }

    func finish() {
        if case .streaming(let writer) = self { writer.finish(afterFailure: false) }
    }

    /// Closes a document that was started, so what was printed before a failure is still valid JSON.
    func finishAfterFailure() {
        if case .streaming(let writer) = self { writer.finish(afterFailure: true) }
    }
}

/// The whole feed, for renderers that need every item before they start.
final class CollectedFeed {
    var feed = JSONFeed(title: "", items: [])

    func begin(_ header: JSONFeed) {
        guard feed.title.isEmpty, feed.homePageURL == nil else { return }
        let items = feed.items
        feed = header
        feed.items = items
    }
}
