import FeedParser
import Foundation
public import TributaryCore

/// Reads a local JSON Feed file (versions 1.0 and 1.1): the `json-file` kind.
///
/// `init` only checks that `path` is not empty (SRC-1). ``run(into:)`` resolves the path against the directory
/// holding feeds.json, refusing one that escapes it (through `..`, an absolute path or a symbolic link) unless
/// feeds.json allows it, reads the file and decodes it with ``JSONFeedDocumentReader``, then emits the items in
/// batches of ``batchSize``.
///
/// Failures are reported as a `failed` event carrying a ``SourceError`` (and `run` then returns normally):
/// `pathOutsideConfigDirectory`, `fileNotFound` (with the path as written in feeds.json), `unreadable`, `tooLarge`,
/// `invalidJSON` (with line and column) or `notAFeed`. An item that cannot be decoded becomes a `warning` and is
/// skipped. When the task is cancelled, `run` stops between steps and throws `CancellationError`, which stands for
/// `failed` (SRC-8, SRC-10).
public struct JSONFileSource: Source {
    public typealias Options = JSONFileOptions

    public static let kind = "json-file"

    public static let documentation = SourceDocumentation(
        summary: "A local file in JSON Feed 1.0 or 1.1 format.",
        options: [
            .init(
                "path",
                .string,
                required: true,
                help:
                    "The file, relative to the directory holding feeds.json; it may not lead outside that directory unless \"allowPathsOutside\" is true.",
                title: "File path"
            )
        ],
        example: #"{ "id": "reading-list", "kind": "json-file", "path": "examples/reading-list.json" }"#
    )

    /// How many items go in one `items` event.
    public static let batchSize = 100

    public let id: SourceID
    /// The options from feeds.json.
    public let options: JSONFileOptions
    private let context: SourceContext

    /// Creates the source; checks the options and touches no file (SRC-1).
    /// - Throws: ``SourceOptionError`` for the key `path` when the path is empty.
    public init(id: SourceID, options: JSONFileOptions, context: SourceContext) throws {
        guard !options.path.allSatisfy(\.isWhitespace) else {
            throw SourceOptionError(
                key: "path",
                message: "is empty; give the JSON Feed file's path, relative to the directory holding feeds.json"
            )
        }
        if context.pathLeavesBaseDirectory(options.path) {
            throw SourceOptionError(key: "path", message: SourceContext.pathOutsideMessage)
        }
        self.id = id
        self.options = options
        self.context = context
    }

    // MARK: - Source

    /// Reads the file and emits `started`, any warnings, the items in batches, then `finished` (or `failed`).
    /// - Throws: `CancellationError` when the task is cancelled before the run completes.
    public func run(into sink: EventSink) async throws {
        await sink.started()
        try Task.checkCancellation()
        let feed: JSONFeed
        let warnings: [SourceWarning]
        do {
            (feed, warnings) = try read()
        } catch let error as SourceError {
            await sink.failed(error)
            return
        } catch {
            await sink.failed(SourceError(sourceID: id, reason: .other(String(describing: error)), underlying: error))
            return
        }
        try Task.checkCancellation()
        for warning in warnings {
            await sink.send(.warning(warning))
        }
        var start = feed.items.startIndex
        while start < feed.items.endIndex {
            try Task.checkCancellation()
            let end = min(start + Self.batchSize, feed.items.endIndex)
            await sink.items(Array(feed.items[start..<end]))
            start = end
        }
        try Task.checkCancellation()
        await sink.finished()
    }

    // MARK: - Private

    private func read() throws -> (feed: JSONFeed, warnings: [SourceWarning]) {
        guard let url = context.resolvePath(options.path) else {
            throw SourceError(sourceID: id, reason: .pathOutsideConfigDirectory(path: options.path))
        }
        let data = try JSONFeedDocumentReader.readFile(at: url, path: options.path, sourceID: id)
        return try JSONFeedDocumentReader.read(data: data, path: options.path, sourceID: id)
    }
}
