import Foundation
import Testing
import TributaryCore

@Suite struct SourceRegistryMakeSourceTests {
    private let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/nonexistent/tributary-tests"))

    @Test func decodesOptionsAndCreatesTheAdapter() throws {
        let entry = SourceConfiguration(
            id: "swift-org",
            kind: "rss",
            entry: .object([
                "id": .string("swift-org"), "kind": .string("rss"), "url": .string("https://www.swift.org/atom.xml"),
            ])
        )
        let source = try ConfigurationTestSources.registry.makeSource(for: entry, context: context)
        let rss = try #require(source as? ConfigurationTestSources.RSS)
        #expect(rss.id == "swift-org")
        #expect(rss.url == "https://www.swift.org/atom.xml")
    }

    @Test func resolvesPathsAgainstTheContext() throws {
        let entry = SourceConfiguration(
            id: "list",
            kind: "json-file",
            entry: .object(["path": .string("examples/reading-list.json")])
        )
        let source = try ConfigurationTestSources.registry.makeSource(for: entry, context: context)
        let file = try #require(source as? ConfigurationTestSources.JSONFile)
        #expect(file.file.path == "/nonexistent/tributary-tests/examples/reading-list.json")
    }

    @Test func missingOptionNamesSourceAndKeyAtTheEntry() {
        let entry = SourceConfiguration(
            id: "list",
            kind: "json-file",
            entry: .object(["id": .string("list"), "kind": .string("json-file")]),
            line: 7,
            column: 5,
            file: "conf/feeds.json"
        )
        let thrown = #expect(throws: ConfigurationError.self) {
            try ConfigurationTestSources.registry.makeSource(for: entry, context: context)
        }
        #expect(
            thrown?.description
                == #"conf/feeds.json:7:5: source 'list': "path": required key is missing; add "path": "…""#
        )
    }

    @Test func wrongTypePointsAtTheValueWhenItsPositionIsKnown() {
        let entry = SourceConfiguration(
            id: "s",
            kind: "rss",
            entry: .object(["url": .number(3)]),
            line: 2,
            column: 5,
            valuePositions: ["url": JSONPosition(line: 2, column: 40)]
        )
        let thrown = #expect(throws: ConfigurationError.self) {
            try ConfigurationTestSources.registry.makeSource(for: entry, context: context)
        }
        #expect(
            thrown
                == ConfigurationError(
                    file: "feeds.json",
                    line: 2,
                    column: 40,
                    sourceID: "s",
                    key: "url",
                    reason: .wrongType(expected: "a string", found: "a number")
                )
        )
    }

    @Test func corruptedValueBecomesInvalidValue() {
        let entry = SourceConfiguration(
            id: "w",
            kind: "push",
            entry: .object(["simulate": .object(["seed": .number(1.5)])])
        )
        let thrown = #expect(throws: ConfigurationError.self) {
            try ConfigurationTestSources.registry.makeSource(for: entry, context: context)
        }
        #expect(thrown?.key == "simulate.seed")
        guard case .invalidValue(let value, _)? = thrown?.reason else {
            Issue.record("expected invalidValue, got \(String(describing: thrown?.reason))")
            return
        }
        #expect(value == "1.5")
    }

    @Test func sourceOptionErrorBecomesInvalidValueForItsKey() {
        let entry = SourceConfiguration(id: "x", kind: "exec", entry: .object(["command": .array([])]))
        let thrown = #expect(throws: ConfigurationError.self) {
            try ConfigurationTestSources.registry.makeSource(for: entry, context: context)
        }
        #expect(
            thrown
                == ConfigurationError(
                    file: "feeds.json",
                    sourceID: "x",
                    key: "command",
                    reason: .invalidValue("[]", expected: "name the program to run")
                )
        )
        #expect(thrown?.description == #"feeds.json: source 'x': "command": invalid value []; name the program to run"#)
    }

    @Test func unknownKindSuggestsTheClosest() {
        let entry = SourceConfiguration(id: "s", kind: "rsss", entry: .object([:]))
        let thrown = #expect(throws: ConfigurationError.self) {
            try ConfigurationTestSources.small.makeSource(for: entry, context: context)
        }
        #expect(thrown?.reason == .unknownKind("rsss", suggestion: "rss", known: ["json-file", "rss"]))
        #expect(thrown?.key == "kind")
    }
}

/// An adapter whose options use every shape the options decoder has to handle.
private struct RichOptionsSource: Source {
    enum Mode: String, Decodable, Sendable { case fast, slow }
    struct Header: Decodable, Sendable {
        var name: String
        var values: [String]
    }
    struct Options: Decodable, Sendable {
        var endpoint: URL
        var mode: Mode
        var limit: UInt8?
        var ratio: Float
        var weights: [String: Int]
        var headers: [Header]
        var matrix: [[Int]]
        var note: String?
        var extra: JSONValue?
    }
    static let kind = "rich"
    static let documentation = SourceDocumentation(summary: "Rich options.", options: [], example: "{}")
    let id: SourceID
    let options: Options

    init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        self.options = options
    }

    func run(into sink: EventSink) async throws {
        await sink.started()
        await sink.finished()
    }
}

@Suite struct AdapterOptionsDecodingTests {
    private let registry = SourceRegistry([RichOptionsSource.self])
    private let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/nonexistent/tributary-tests"))
    private let valid = #"""
        {"id": "r", "kind": "rich", "endpoint": "https://example.com/a?b=1", "mode": "slow", "limit": 200,
         "ratio": 0.5, "weights": {"a": 1, "b": -2}, "headers": [{"name": "X", "values": ["1", "2"]}],
         "matrix": [[1, 2], [], [3]], "note": null, "extra": {"deep": [true, null, 1.25, "s"]}, "ignored": 1}
        """#

    private func entry(_ text: String) throws -> SourceConfiguration {
        let located = try LocatedJSON.parse(Data(text.utf8))
        return SourceConfiguration(id: "r", kind: "rich", entry: located.jsonValue)
    }

    private func failure(_ text: String) throws -> ConfigurationError? {
        let source = try entry(text)
        return #expect(throws: ConfigurationError.self) { try registry.makeSource(for: source, context: context) }
    }

    @Test func decodesNestedShapes() throws {
        let source = try registry.makeSource(for: try entry(valid), context: context)
        let options = try #require(source as? RichOptionsSource).options
        #expect(options.endpoint.absoluteString == "https://example.com/a?b=1")
        #expect(options.mode == .slow)
        #expect(options.limit == 200)
        #expect(options.ratio == 0.5)
        #expect(options.weights == ["a": 1, "b": -2])
        #expect(options.headers.map(\.name) == ["X"] && options.headers.first?.values == ["1", "2"])
        #expect(options.matrix == [[1, 2], [], [3]])
        #expect(options.note == nil)
        #expect(options.extra == .object(["deep": .array([.bool(true), .null, .number(1.25), .string("s")])]))
    }

    @Test func errorsKeepTheirPath() throws {
        let outOfRange = try failure(valid.replacingOccurrences(of: #""limit": 200"#, with: #""limit": 300"#))
        #expect(outOfRange?.key == "limit")
        let badEnum = try failure(valid.replacingOccurrences(of: #""mode": "slow""#, with: #""mode": "medium""#))
        #expect(badEnum?.key == "mode")
        #expect(badEnum?.reason.isInvalidValue == true)
        let nested = try failure(valid.replacingOccurrences(of: #""values": ["1", "2"]"#, with: #""values": ["1", 2]"#))
        #expect(nested?.key == "headers[0].values[1]")
        #expect(nested?.reason == .wrongType(expected: "a string", found: "a number"))
        let missing = try failure(valid.replacingOccurrences(of: #""name": "X", "#, with: ""))
        #expect(missing?.key == "headers[0].name")
        let nullRequired = try failure(valid.replacingOccurrences(of: #""ratio": 0.5"#, with: #""ratio": null"#))
        #expect(nullRequired?.reason == .wrongType(expected: "a number", found: "null"))
        let badURL = try failure(valid.replacingOccurrences(of: #""https://example.com/a?b=1""#, with: #""""#))
        #expect(badURL?.key == "endpoint")
    }
}

extension ConfigurationError.Reason {
    fileprivate var isInvalidValue: Bool {
        if case .invalidValue = self { return true }
        return false
    }
}
