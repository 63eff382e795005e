import Foundation
import TributaryCore

/// Tiny test-only adapters standing in for the built-in kinds, so configuration tests need no adapter module.
/// Their `init`s validate like real adapters would and perform no I/O.
enum ConfigurationTestSources {
    static let registry = SourceRegistry([
        RSS.self, JSONFile.self, GoogleNews.self, Push.self, Exec.self,
    ])

    /// Only `rss` and `json-file`, for the "known kinds" list in messages.
    static let small = SourceRegistry([JSONFile.self, RSS.self])

    struct RSS: Source {
        struct Options: Decodable, Sendable {
            var url: String
        }
        static let kind = "rss"
        static let documentation = SourceDocumentation(
            summary: "RSS for tests.",
            options: [.init("url", .string, required: true, help: "The feed URL.")],
            example: "{}"
        )
        let id: SourceID
        let url: String

        init(id: SourceID, options: Options, context: SourceContext) throws {
            guard options.url.hasPrefix("http://") || options.url.hasPrefix("https://") else {
                throw SourceOptionError(key: "url", message: "use an http:// or https:// URL")
            }
            self.id = id
            self.url = options.url
        }

        func run(into sink: EventSink) async throws {
            await sink.started()
            await sink.finished()
        }
    }

    struct JSONFile: Source {
        struct Options: Decodable, Sendable {
            var path: String
        }
        static let kind = "json-file"
        static let documentation = SourceDocumentation(
            summary: "A file for tests.",
            options: [.init("path", .string, required: true, help: "The file.")],
            example: "{}"
        )
        let id: SourceID
        let file: URL

        init(id: SourceID, options: Options, context: SourceContext) throws {
            guard let file = context.resolvePath(options.path) else {
                throw SourceOptionError(key: "path", message: "outside the directory holding feeds.json")
            }
            self.id = id
            self.file = file
        }

        func run(into sink: EventSink) async throws {
            await sink.started()
            await sink.finished()
        }
    }

    struct GoogleNews: Source {
        struct Options: Decodable, Sendable {
            var hl: String?
            var gl: String?
            var ceid: String?
            var search: String?
            var topic: String?
            var geo: String?
        }
        static let kind = "google-news"
        static let documentation = SourceDocumentation(
            summary: "Google News for tests.",
            options: ["hl", "gl", "ceid", "search", "topic", "geo"].map { .init($0, .string, help: "A parameter.") },
            example: "{}"
        )
        let id: SourceID

        init(id: SourceID, options: Options, context: SourceContext) throws {
            self.id = id
        }

        func run(into sink: EventSink) async throws {
            await sink.started()
            await sink.finished()
        }
    }

    struct Push: Source {
        struct Simulation: Decodable, Sendable {
            var seed: Int
            var rate: Double?
        }
        struct Options: Decodable, Sendable {
            var url: String?
            var simulate: Simulation?
            var listen: String?
        }
        static let kind = "push"
        static let documentation = SourceDocumentation(
            summary: "Push for tests.",
            options: [
                .init("url", .string, help: "The ws:// URL."),
                .init(
                    "simulate",
                    .object,
                    help: "The simulator.",
                    properties: [.init("seed", .integer, help: "A seed."), .init("rate", .number, help: "A rate.")]
                ),
                .init("listen", .duration, help: "The listen window."),
            ],
            example: "{}"
        )
        let id: SourceID

        init(id: SourceID, options: Options, context: SourceContext) throws {
            guard options.url != nil || options.simulate != nil else {
                throw SourceOptionError(key: "url", message: "add a ws:// URL or a \"simulate\" object")
            }
            self.id = id
        }

        func run(into sink: EventSink) async throws {
            await sink.started()
            await sink.finished()
        }
    }

    struct Exec: Source {
        struct Options: Decodable, Sendable {
            var command: [String]
        }
        static let kind = "exec"
        static let documentation = SourceDocumentation(
            summary: "A program for tests.",
            options: [.init("command", .stringArray, required: true, help: "The program and its arguments.")],
            example: "{}"
        )
        let id: SourceID

        init(id: SourceID, options: Options, context: SourceContext) throws {
            guard !options.command.isEmpty else {
                throw SourceOptionError(key: "command", message: "name the program to run")
            }
            self.id = id
        }

        func run(into sink: EventSink) async throws {
            await sink.started()
            await sink.finished()
        }
    }
}
