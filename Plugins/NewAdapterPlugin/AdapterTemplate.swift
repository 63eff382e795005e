/// The files `new-adapter` writes for one adapter.
struct AdapterTemplate {
    var name: String
    var kind: String

    private static let summary = "A text file with one item per line: an absolute URL, a space, a title."
    private static let pathHelp = "The file, relative to the directory holding feeds.json."

    private var definitionName: String {
        let words = kind.split(separator: "-")
        return words[0] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Options"
    }

    var options: String {
        """
        /// The options of a `\(kind)` source: its slice of the feeds.json entry.
        public struct \(name)Options: Decodable, Sendable, Hashable {
            /// The file to read, relative to the directory holding feeds.json.
            public var path: String

            /// Creates the options.
            public init(path: String) {
                self.path = path
            }
        }

        """
    }

    var source: String {
        #"""
        import Foundation
        public import TributaryCore

        /// Reads a text file with one item per line (`URL title`): the `\#(kind)` kind.
        ///
        /// Replace the body of ``run(into:)`` with what your source reads; keep the rules on ``Source`` (the
        /// conformance test in Tests/\#(name)AdapterTests checks them).
        public struct \#(name)Source: Source {
            public typealias Options = \#(name)Options

            public static let kind = "\#(kind)"

            public static let documentation = SourceDocumentation(
                summary: "\#(Self.summary)",
                options: [
                    .init(
                        "path",
                        .string,
                        required: true,
                        help: "\#(Self.pathHelp)",
                        title: "File path"
                    )
                ],
                example: #"{ "id": "my-\#(kind)", "kind": "\#(kind)", "path": "items.txt" }"#
            )

            public let id: SourceID
            private let options: \#(name)Options
            private let context: SourceContext

            /// Creates the source; validates the options only (SRC-1).
            /// - Throws: ``SourceOptionError`` for `path` when it is empty.
            public init(id: SourceID, options: \#(name)Options, context: SourceContext) throws {
                guard !options.path.isEmpty else {
                    throw SourceOptionError(key: "path", message: "is empty; name the file to read")
                }
                self.id = id
                self.options = options
                self.context = context
            }

            /// Reads the file and emits its items, then `finished` (or `failed` when it cannot be read).
            /// - Throws: `CancellationError` when the task is cancelled.
            public func run(into sink: EventSink) async throws {
                await sink.started()
                guard let url = context.resolvePath(options.path) else {
                    await sink.failed(SourceError(sourceID: id, reason: .pathOutsideConfigDirectory(path: options.path)))
                    return
                }
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    await sink.failed(SourceError(sourceID: id, reason: .fileNotFound(path: options.path)))
                    return
                }
                var items: [FeedItem] = []
                for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
                    try Task.checkCancellation()
                    guard !line.hasPrefix("#"), !line.allSatisfy(\.isWhitespace) else { continue }
                    let parts = line.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, let link = URL(string: String(parts[0])), link.scheme != nil else {
                        await sink.warning("expected an absolute URL, a space and a title", location: "line \(index + 1)")
                        continue
                    }
                    var item = FeedItem(id: String(parts[0]), url: String(parts[0]), title: String(parts[1]))
                    item.sourceID = id
                    items.append(item)
                }
                await sink.items(items)
                await sink.finished()
            }
        }

        """#
    }

    var tests: String {
        let imports = ["AdapterConformance", "Foundation", "Testing", "TributaryCore", "\(name)Adapter"].sorted()
            .map { "import \($0)" }.joined(separator: "\n")
        return """
            \(imports)

            /// A fixture file and what the conformance kit should expect of it.
            struct Fixture: Sendable, CustomTestStringConvertible {
                var name: String
                var expectation: ConformanceFixture.Expectation

                var testDescription: String { name }

                static let all = [
                    Fixture(name: "items.txt", expectation: .items),
                    Fixture(name: "empty.txt", expectation: .empty),
                    Fixture(name: "malformed.txt", expectation: .malformed),
                    Fixture(name: "missing.txt", expectation: .unreachable),
                ]
            }

            @Suite struct \(name)SourceTests {
                @Test(arguments: Fixture.all)
                func conformsToSourceContract(_ f: Fixture) async throws {
                    let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
                    let context = SourceContext(baseDirectory: fixtures)
                    try await SourceConformance.check(
                        { try \(name)Source(id: "kit", options: \(name)Options(path: f.name), context: context) },
                        fixture: ConformanceFixture(f.name, expectation: f.expectation)
                    )
                }
            }

            """
    }

    var fixtures: [(String, String)] {
        [
            ("items.txt", "https://example.org/1 First item\nhttps://example.org/2 Second item\n"),
            ("empty.txt", "# no items yet\n"),
            ("malformed.txt", "not-a-url\nhttps://example.org/ok Still read\n"),
        ]
    }

    var schemaDefinition: String {
        """
            "\(definitionName)": {
              "title": "\(kind) options",
              "description": "\(Self.summary)",
              "required": ["path"],
              "properties": {
                "path": { "title": "File path", "description": "\(Self.pathHelp)", "type": "string", "minLength": 1 }
              }
            },

        """
    }

    var schemaRule: String {
        """
                {
                  "if": { "properties": { "kind": { "const": "\(kind)" } }, "required": ["kind"] },
                  "then": { "$ref": "#/$defs/\(definitionName)" }
                },

        """
    }
}
