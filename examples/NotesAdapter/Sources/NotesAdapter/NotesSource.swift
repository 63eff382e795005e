import Foundation
public import TributaryCore

/// Turns a directory of Markdown notes into items: the `notes` kind, an example of a third-party adapter.
///
/// Every `*.md` file in the directory (not its subdirectories) is one item, in file-name order: its id is
/// `note:` and the file name (stable across runs, SRC-2), its title the first `# ` heading (else the file name),
/// its text the rest, its URL the file's `file://` URL (absolute, SRC-5), and its date the `Date:` line when the
/// note has one in RFC 3339 form (else no date, never "now", SRC-4). A note that is not UTF-8 is skipped with a
/// warning; a missing directory fails the source.
public struct NotesSource: Source {
    public typealias Options = NotesOptions

    public static let kind = "notes"

    public static let documentation = SourceDocumentation(
        summary: "A directory of Markdown notes, one item per note.",
        options: [
            .init(
                "directory",
                .string,
                required: true,
                help: "The directory of *.md notes, relative to the directory holding feeds.json.",
                title: "Notes directory"
            )
        ],
        example: #"{ "id": "my-notes", "kind": "notes", "directory": "notes" }"#
    )

    /// How many items go in one `items` event.
    public static let batchSize = 20

    public let id: SourceID
    private let options: NotesOptions
    private let context: SourceContext

    /// Creates the source; checks that a directory is named and touches nothing (SRC-1).
    /// - Throws: ``SourceOptionError`` for `directory` when it is empty.
    public init(id: SourceID, options: NotesOptions, context: SourceContext) throws {
        guard !options.directory.allSatisfy(\.isWhitespace) else {
            throw SourceOptionError(key: "directory", message: "is empty; name the directory of notes")
        }
        self.id = id
        self.options = options
        self.context = context
    }

    // MARK: - Source

    /// Reads the notes and emits them in batches, then `finished` (or `failed` when the directory is missing).
    /// - Throws: `CancellationError` when the task is cancelled.
    public func run(into sink: EventSink) async throws {
        await sink.started()
        guard let directory = context.resolvePath(options.directory) else {
            await sink.failed(SourceError(sourceID: id, reason: .pathOutsideConfigDirectory(path: options.directory)))
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".md") }.sorted()
        } catch {
            await sink.failed(SourceError(sourceID: id, reason: .fileNotFound(path: options.directory)))
            return
        }
        var batch: [FeedItem] = []
        for name in names {
            try Task.checkCancellation()
            let file = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path),
                let text = String(data: data, encoding: .utf8)
            else {
                await sink.warning("skipped a note that is not UTF-8 text", location: name)
                continue
            }
            batch.append(item(name: name, file: file, text: text))
            if batch.count == Self.batchSize {
                await sink.items(batch)
                batch = []
            }
        }
        await sink.items(batch)
        try Task.checkCancellation()
        await sink.finished()
    }

    // MARK: - Private

    private func item(name: String, file: URL, text: String) -> FeedItem {
        var title = String(name.dropLast(3))
        var date: Date?
        var body: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# "), body.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
                title = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("Date: "), date == nil, let parsed = RFC3339.parse(line.dropFirst(6)) {
                date = parsed
            } else {
                body.append(line)
            }
        }
        var item = FeedItem(
            id: "note:\(name)",
            url: file.absoluteString,
            title: title,
            contentText: body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines),
            datePublished: date
        )
        item.sourceID = id
        return item
    }
}
