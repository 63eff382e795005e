import Foundation

/// Stands in for a source that is not fetched this run: it hands the pipeline the items the source's last
/// successful run delivered (from the state store). For a source that is backing off after failing several runs in
/// a row it then fails with a reason that says why it was not fetched, so the digest shows the source's state and
/// keeps its items; for `--no-fetch` (a fleet of workers fetches) it finishes.
public struct BackoffSource: Source {
    public struct Options: Decodable, Sendable {}

    public static let kind = "backoff"
    public static let documentation = SourceDocumentation(
        summary: "The state store's items of a source that is backing off.",
        options: [],
        example: "{}"
    )

    public let id: SourceID
    /// The stored items to serve.
    public let items: [FeedItem]
    /// Why the source was not fetched, as its failure; `nil` to finish.
    public let reason: String?

    public init(id: SourceID, options: Options, context: SourceContext) throws {
        throw SourceOptionError(key: "kind", message: "is internal to tributary's backoff")
    }

    public init(id: SourceID, items: [FeedItem], reason: String?) {
        self.id = id
        self.items = items
        self.reason = reason
    }

    public func run(into sink: EventSink) async throws {
        await sink.started()
        if !items.isEmpty { await sink.items(items) }
        if let reason {
            await sink.failed(SourceError(sourceID: id, reason: .other(reason)))
        } else {
            await sink.finished()
        }
    }
}
