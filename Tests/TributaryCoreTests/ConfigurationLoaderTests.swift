import Foundation
import Testing
import TributaryCore

@Suite struct ConfigurationLoaderTests {
    private let file = URL(fileURLWithPath: "/nonexistent/tributary-tests/feeds.json")

    private func load(
        _ text: String,
        registry: SourceRegistry = ConfigurationTestSources.registry
    ) throws -> FeedsConfiguration {
        try ConfigurationLoader.load(data: Data(text.utf8), file: file, displayPath: "feeds.json", registry: registry)
    }

    /// The problems loading `text` reports; empty when it loads.
    private func errors(
        _ text: String,
        registry: SourceRegistry = ConfigurationTestSources.registry
    ) -> [ConfigurationError] {
        do {
            _ = try load(text, registry: registry)
            return []
        } catch let errors as ConfigurationErrors {
            return errors.errors
        } catch {
            Issue.record("unexpected error type: \(error)")
            return []
        }
    }

    private func fixture(_ name: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/configs")
        )
        return try Data(contentsOf: url)
    }

    private static func fixtureNames(_ folder: String) -> [String] {
        guard let directory = Bundle.module.url(forResource: "Fixtures/configs/\(folder)", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.map { "\(folder)/\($0.dropLast(5))" }.sorted()
    }

    // MARK: - Valid configurations

    @Test func decodesMinimalConfigWithDefaults() throws {
        let configuration = try ConfigurationLoader.load(
            data: try fixture("valid/minimal"),
            file: file,
            registry: ConfigurationTestSources.registry
        )
        #expect(configuration.file == file)
        #expect(configuration.title == "Tributary digest")
        #expect(configuration.timeZone == TimeZone.current)
        #expect(configuration.maxAge == nil)
        #expect(configuration.maxItemsPerSource == nil)
        #expect(configuration.include.isEmpty && configuration.exclude.isEmpty)
        #expect(configuration.output == nil)
        #expect(configuration.allowPathsOutside == false)
        let source = try #require(configuration.sources.first)
        #expect(configuration.sources.count == 1)
        #expect(source.id == "swift-org")
        #expect(source.kind == "rss")
        #expect(source.title == nil)
        #expect(source.enabled)
        #expect(source.maxItems == nil && source.timeout == nil)
        #expect(source.entry["url"] == .string("https://www.swift.org/atom.xml"))
        #expect(source.line == 3 && source.column == 5)
        #expect(source.file == file.path)
    }

    @Test func decodesEveryKeyOfFullConfig() throws {
        let configuration = try ConfigurationLoader.load(
            data: try fixture("valid/full"),
            file: file,
            displayPath: "feeds.json",
            registry: ConfigurationTestSources.registry
        )
        #expect(configuration.title == "Morning digest")
        #expect(configuration.timeZone.identifier == "Asia/Tokyo")
        #expect(configuration.maxAge == .seconds(48 * 3600))
        #expect(configuration.maxItemsPerSource == 30)
        #expect(configuration.include == ["swift", "server"])
        #expect(configuration.exclude == ["sponsored"])
        #expect(configuration.output == "out/digest.html")
        #expect(configuration.allowPathsOutside)
        #expect(configuration.sources.map(\.id) == ["swift-org", "reading-list"])
        #expect(configuration.enabledSources.map(\.id) == ["reading-list"])

        let swift = configuration.sources[0]
        #expect(swift.kind == "rss")
        #expect(swift.title == "Swift.org")
        #expect(swift.enabled == false)
        #expect(swift.include == ["release"])
        #expect(swift.exclude == ["draft", "wip"])
        #expect(swift.maxItems == 5)
        #expect(swift.timeout == .milliseconds(500))
        #expect(swift.line == 13 && swift.column == 5)
        #expect(swift.file == "feeds.json")
        #expect(swift.valuePositions["url"] == JSONPosition(line: 16, column: 14))

        let list = configuration.sources[1]
        #expect(list.kind == "json-file")
        #expect(list.timeout == .seconds(15 * 60))
        #expect(list.entry["path"] == .string("examples/reading-list.json"))
    }

    @Test func readsByteOrderMarkCRLFAndJapanese() throws {
        let configuration = try ConfigurationLoader.load(
            data: try fixture("valid/bom-crlf-japanese"),
            file: file,
            registry: ConfigurationTestSources.registry
        )
        #expect(configuration.title == "朝のダイジェスト \u{2014} 📰")
        #expect(configuration.sources.first?.title == "NHK ニュース")
        #expect(configuration.sources.first?.line == 4)
    }

    @Test(arguments: fixtureNames("valid"))
    func loadsValidFixture(name: String) throws {
        let configuration = try ConfigurationLoader.load(
            data: try fixture(name),
            file: file,
            registry: ConfigurationTestSources.registry
        )
        #expect(configuration.sources.allSatisfy { $0.id.isValid })
    }

    @Test(arguments: fixtureNames("invalid"))
    func rejectsInvalidFixture(name: String) throws {
        let data = try fixture(name)
        #expect(throws: ConfigurationErrors.self) {
            try ConfigurationLoader.load(data: data, file: file, registry: ConfigurationTestSources.registry)
        }
    }

    @Test func fixtureFoldersAreNotEmpty() {
        #expect(Self.fixtureNames("valid").count >= 4)
        #expect(Self.fixtureNames("invalid").count >= 10)
    }

    @Test func loadsFromDiskNamingTheFileAsGiven() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tributary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("feeds.json")
        try Data(#"{ "sources": [ { "id": "a", "kind": "rss", "url": "http://127.0.0.1/" } ] }"#.utf8).write(to: url)
        let configuration = try ConfigurationLoader.load(
            contentsOf: url,
            registry: ConfigurationTestSources.registry
        )
        #expect(configuration.sources.map(\.id) == ["a"])
        #expect(configuration.directory.standardizedFileURL.path == directory.standardizedFileURL.path)

        try Data(#"{ "sources": [ { "id": "a", "kind": "rss", "url": 1 } ] }"#.utf8).write(to: url)
        let thrown = #expect(throws: ConfigurationErrors.self) {
            try ConfigurationLoader.load(
                contentsOf: url,
                displayPath: "conf/feeds.json",
                registry: ConfigurationTestSources.registry
            )
        }
        #expect(thrown?.description == #"conf/feeds.json:1:51: source 'a': "url": expected a string, found a number"#)
    }

    @Test func reportsMissingFileAndDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tributary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = #expect(throws: ConfigurationErrors.self) {
            try ConfigurationLoader.load(
                contentsOf: directory.appendingPathComponent("feeds.json"),
                displayPath: "feeds.json",
                registry: ConfigurationTestSources.registry
            )
        }
        #expect(missing?.errors == [ConfigurationError(file: "feeds.json", reason: .fileNotFound)])
        #expect(missing?.description == "feeds.json: no such file; create it or name another with -c")
        let folder = #expect(throws: ConfigurationErrors.self) {
            try ConfigurationLoader.load(
                contentsOf: directory,
                displayPath: "dir",
                registry: ConfigurationTestSources.registry
            )
        }
        #expect(folder?.errors == [ConfigurationError(file: "dir", reason: .unreadable("it is a directory"))])
    }

    // MARK: - Syntax errors

    @Test func syntaxErrorNamesFileLineAndColumn() {
        let found = errors("{\n  \"title\": \"x\"\n  \"sources\": []\n}")
        #expect(
            found.map(\.description) == [
                #"feeds.json:3:3: invalid JSON: expected ',' or '}' after object member, found '"'"#
            ]
        )
        #expect(found.first?.reason == .syntax("expected ',' or '}' after object member, found '\"'"))
    }

    @Test func syntaxErrorColumnCountsJapaneseCharacters() {
        let found = errors("{\n  \"title\": \"朝のダイジェスト\",\n  \"sources\": [,]\n}")
        #expect(found.map(\.description) == ["feeds.json:3:15: invalid JSON: expected a value, found ','"])
        let after = errors("{\n  \"title\": \"朝のダイジェスト\" x\n}")
        #expect(
            after.map(\.description) == [
                "feeds.json:2:23: invalid JSON: expected ',' or '}' after object member, found 'x'"
            ]
        )
    }

    @Test func syntaxErrorForTrailingCommaAndUnterminatedString() {
        #expect(
            errors("{\n  \"sources\": [],\n}").map(\.description) == [
                "feeds.json:2:16: invalid JSON: trailing comma before '}'; remove the comma"
            ]
        )
        #expect(
            errors("{\n  \"title\": \"Morning\n}").map(\.description) == [
                "feeds.json:2:12: invalid JSON: unterminated string: no closing '\"' before the end of the line"
            ]
        )
    }

    @Test func deepNestingFailsCleanly() {
        let found = errors(String(repeating: "[", count: 10_000))
        #expect(
            found == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 1,
                    column: 513,
                    reason: .syntax("arrays and objects nest deeper than 512 levels")
                )
            ]
        )
    }

    // MARK: - Semantic errors

    @Test func unknownKindSuggestsClosestKind() {
        let text = """
            {
              "sources": [
                { "id": "swift-org", "kind": "rsss", "url": "https://www.swift.org/atom.xml" }
              ]
            }
            """
        let found = errors(text, registry: ConfigurationTestSources.small)
        #expect(
            found == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 3,
                    column: 34,
                    sourceID: "swift-org",
                    key: "kind",
                    reason: .unknownKind("rsss", suggestion: "rss", known: ["json-file", "rss"])
                )
            ]
        )
        #expect(
            found.first?.description == """
                feeds.json:3:34: source 'swift-org': "kind": unknown kind 'rsss'; did you mean 'rss'? (known kinds: json-file, rss)
                """
        )
    }

    @Test func unknownKindWithoutCloseMatchListsKnownKinds() {
        let found = errors(#"{"sources": [{"id": "m", "kind": "mastodon"}]}"#, registry: ConfigurationTestSources.small)
        #expect(
            found.map(\.description) == [
                #"feeds.json:1:34: source 'm': "kind": unknown kind 'mastodon' (known kinds: json-file, rss)"#
            ]
        )
    }

    @Test func duplicateIDNamesBothLines() {
        let text = """
            {
              "sources": [
                { "id": "swift-org", "kind": "rss", "url": "https://a.example/feed" },
                { "id": "swift-org", "kind": "rss", "url": "https://b.example/feed" }
              ]
            }
            """
        let found = errors(text)
        #expect(
            found.map(\.description) == [
                #"feeds.json:4:13: source 'swift-org': "id": duplicate id 'swift-org', already used by the source at line 3; give each source its own id"#
            ]
        )
        #expect(found.first?.reason == .duplicateID(firstLine: 3))
    }

    @Test func missingAdapterOptionNamesSourceAndKey() throws {
        let found = errors(String(decoding: try fixture("invalid/json-file-missing-path"), as: UTF8.self))
        #expect(
            found == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 3,
                    column: 5,
                    sourceID: "reading-list",
                    key: "path",
                    reason: .missingKey(example: "\"…\"")
                ),
                // The key written instead is reported too, in the same run.
                ConfigurationError(
                    file: "feeds.json",
                    line: 3,
                    column: 50,
                    sourceID: "reading-list",
                    key: "file",
                    reason: .unknownKey("file", suggestion: "title")
                ),
            ]
        )
        #expect(
            found.first?.description
                == #"feeds.json:3:5: source 'reading-list': "path": required key is missing; add "path": "…""#
        )
    }

    @Test func badDurationNamesTheKey() {
        let top = errors("{\n  \"maxAge\": \"48x\",\n  \"sources\": []\n}")
        #expect(
            top.map(\.description) == [
                #"feeds.json:2:13: "maxAge": invalid duration '48x'; write a whole number and a unit: 500ms, 3s, 15m, 48h or 7d"#
            ]
        )
        let source = errors(#"{"sources": [{"id": "s", "kind": "rss", "url": "http://127.0.0.1/", "timeout": "48x"}]}"#)
        #expect(
            source == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 1,
                    column: 80,
                    sourceID: "s",
                    key: "timeout",
                    reason: .invalidDuration("48x")
                )
            ]
        )
    }

    @Test func invalidIDIsReportedWithAFix() throws {
        let found = errors(String(decoding: try fixture("invalid/invalid-id"), as: UTF8.self))
        #expect(
            found.map(\.description) == [
                #"feeds.json:3:13: "id": invalid id 'Swift Org'; use only lower-case letters, digits and '-', e.g. 'swift-org'"#
            ]
        )
    }

    @Test func unknownTopLevelKeySuggestsClosestKey() {
        let found = errors("{\n  \"titel\": \"Morning digest\",\n  \"sources\": []\n}")
        #expect(
            found == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 2,
                    column: 3,
                    key: "titel",
                    reason: .unknownKey("titel", suggestion: "title")
                )
            ]
        )
        #expect(found.first?.description == #"feeds.json:2:3: "titel": unknown key; did you mean "title"?"#)
        #expect(errors(#"{"colour": 1, "sources": []}"#).first?.reason == .unknownKey("colour", suggestion: nil))
    }

    /// A typo inside a source entry is an error at its key with the nearest known key (common or the kind's own),
    /// never silently ignored; every such key of every source is reported in one run.
    @Test func unknownKeysInsideASourceAreReportedWithTheNearestKnownKey() {
        let text = """
            {
              "sources": [
                { "id": "a", "kind": "rss", "url": "https://a.example/feed", "enable": false, "maxItem": 3 },
                { "id": "b", "kind": "rss", "urll": "https://b.example/feed", "colour": "red" }
              ]
            }
            """
        let thrown = #expect(throws: ConfigurationErrors.self) { try load(text) }
        // In file order: source b's missing url (at its entry) comes before its misspelt key.
        #expect(
            thrown?.errors.map(\.reason) == [
                .unknownKey("enable", suggestion: "enabled"),
                .unknownKey("maxItem", suggestion: "maxItems"),
                .missingKey(example: "\"…\""),
                .unknownKey("urll", suggestion: "url"),
                .unknownKey("colour", suggestion: nil),
            ]
        )
        #expect(thrown?.errors.map(\.key) == ["enable", "maxItem", "url", "urll", "colour"])
        #expect(
            thrown?.errors.first?.description
                == #"feeds.json:3:66: source 'a': "enable": unknown key; did you mean "enabled"?"#
        )
    }

    @Test func reportsEveryProblemInFileOrder() {
        let text = """
            {
              "titel": "Morning",
              "maxAge": "48x",
              "sources": [
                { "id": "swift-org", "kind": "rsss", "url": "https://www.swift.org/atom.xml" },
                { "id": "list", "kind": "json-file" },
                { "id": "list", "kind": "rss", "url": "https://b.example/feed", "timeout": "soon" }
              ]
            }
            """
        let thrown = #expect(throws: ConfigurationErrors.self) { try load(text) }
        #expect(
            thrown?.errors.map(\.reason) == [
                .unknownKey("titel", suggestion: "title"),
                .invalidDuration("48x"),
                .unknownKind("rsss", suggestion: "rss", known: ConfigurationTestSources.registry.kinds),
                .missingKey(example: "\"…\""),
                .duplicateID(firstLine: 6),
                .invalidDuration("soon"),
            ]
        )
        #expect(thrown?.errors.map(\.line) == [2, 3, 5, 6, 7, 7])
        #expect(thrown?.description.split(separator: "\n").count == 6)
    }

    @Test func invalidTimeZoneSuggestsAKnownOne() {
        let found = errors(#"{"timeZone": "Asia/Tokio", "sources": []}"#)
        #expect(
            found == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 1,
                    column: 14,
                    key: "timeZone",
                    reason: .invalidTimeZone("Asia/Tokio", suggestion: "Asia/Tokyo")
                )
            ]
        )
        #expect(
            found.first?.description
                == #"feeds.json:1:14: "timeZone": unknown time zone 'Asia/Tokio'; did you mean 'Asia/Tokyo'?"#
        )
    }

    @Test func missingSourcesAndWrongTopLevelType() {
        let missing = errors(#"{"title": "x"}"#)
        #expect(missing.map(\.key) == ["sources"])
        #expect(missing.first?.line == 1 && missing.first?.column == 1)
        #expect(
            missing.first?.description.hasPrefix(
                #"feeds.json:1:1: "sources": required key is missing; add "sources": ["#
            ) == true
        )
        #expect(
            errors("[]").map(\.reason) == [.wrongType(expected: "a JSON object at the top level", found: "an array")]
        )
    }

    @Test func checksTypesOfCommonKeys() {
        let text =
            #"{"version": 2, "maxItemsPerSource": 1.5, "include": ["a", 2], "allowPathsOutside": "no", "sources": [7, {"id": "s", "kind": "rss", "url": "http://127.0.0.1/", "enabled": "yes", "maxItems": 0, "title": 3}]}"#
        let found = errors(text)
        #expect(
            found.map(\.key) == [
                "version", "maxItemsPerSource", "include[1]", "allowPathsOutside", "sources", "enabled", "maxItems",
                "title",
            ]
        )
        #expect(
            found.map(\.reason) == [
                .unsupportedVersion("2"),
                .invalidValue("1.5", expected: "write a whole number of at least 1"),
                .wrongType(expected: "a string", found: "a number"),
                .wrongType(expected: "true or false", found: "a string"),
                .wrongType(expected: "a source object", found: "a number"),
                .wrongType(expected: "true or false", found: "a string"),
                .invalidValue("0", expected: "write a whole number of at least 1"),
                .wrongType(expected: "a string", found: "a number"),
            ]
        )
    }

    @Test func checksOptionsOfDisabledSourcesToo() {
        let found = errors(#"{"sources": [{"id": "off", "kind": "json-file", "enabled": false}]}"#)
        #expect(found.map(\.sourceID) == ["off"])
        #expect(found.map(\.key) == ["path"])
    }

    @Test func adapterOptionErrorsPointAtTheValue() {
        let rejected = errors(#"{"sources": [{"id": "s", "kind": "rss", "url": "ftp://example.com/feed"}]}"#)
        #expect(
            rejected.map(\.description) == [
                #"feeds.json:1:48: source 's': "url": invalid value "ftp://example.com/feed"; use an http:// or https:// URL"#
            ]
        )
        let wrongType = errors(#"{"sources": [{"id": "x", "kind": "exec", "command": "./hn.sh"}]}"#)
        #expect(
            wrongType == [
                ConfigurationError(
                    file: "feeds.json",
                    line: 1,
                    column: 53,
                    sourceID: "x",
                    key: "command",
                    reason: .wrongType(expected: "an array", found: "a string")
                )
            ]
        )
        let nested = errors(#"{"sources": [{"id": "w", "kind": "push", "simulate": {"rate": 2}}]}"#)
        #expect(nested.map(\.key) == ["simulate.seed"])
        #expect(nested.first?.column == 54)
    }

    @Test func pathOutsideTheConfigDirectoryIsRejectedUnlessAllowed() {
        let outside = errors(#"{"sources": [{"id": "f", "kind": "json-file", "path": "../elsewhere.json"}]}"#)
        #expect(outside.map(\.key) == ["path"])
        #expect(
            outside.first?.reason
                == .invalidValue("\"../elsewhere.json\"", expected: "outside the directory holding feeds.json")
        )
        let allowed = errors(
            #"{"allowPathsOutside": true, "sources": [{"id": "f", "kind": "json-file", "path": "../elsewhere.json"}]}"#
        )
        #expect(allowed.isEmpty)
    }
}
