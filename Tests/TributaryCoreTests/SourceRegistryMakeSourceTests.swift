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
