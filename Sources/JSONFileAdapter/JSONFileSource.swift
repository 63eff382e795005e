import Foundation
public import TributaryCore

/// Reads a local JSON Feed file (versions 1.0 and 1.1).
public struct JSONFileSource: Source {
    public static let kind = "json-file"

    public static let documentation = SourceDocumentation(
        summary: "A local file in JSON Feed 1.0 or 1.1 format.",
        options: [
            .init("path", .string, required: true, help: "The file, relative to the directory holding feeds.json.")
        ],
        example: #"{ "id": "reading-list", "kind": "json-file", "path": "examples/reading-list.json" }"#
    )

    /// The `json-file` entry's own keys.
    public struct Options: Decodable, Sendable {
        /// The file to read.
        public var path: String
    }

    public let id: SourceID
    let options: Options
    let context: SourceContext

    public init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        self.options = options
        self.context = context
    }

    public func run(into sink: EventSink) async throws {
        await sink.started()
        await sink.finished()
    }
}
