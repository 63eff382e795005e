import Foundation
import Testing
import TributaryCore

/// Checks feeds.schema.json (JSON Schema draft 2020-12) with Python's `jsonschema` against the config fixtures,
/// and against the repository's own feeds.json when there is one. Missing python3 or jsonschema fails the test:
/// a schema nobody checks drifts from the loader.
@Suite struct JSONSchemaTests {
    /// The repository root, three levels above this file.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let schema = root.appendingPathComponent("feeds.schema.json")
    private static let configs = root.appendingPathComponent("Tests/TributaryCoreTests/Fixtures/configs")

    /// Validates every file named and prints `{ path: [error messages] }`; exits 3 without jsonschema.
    private static let script = """
        import json, pathlib, sys
        try:
            import jsonschema
        except ImportError:
            print("the Python package jsonschema is missing; install it with: pip install jsonschema", file=sys.stderr)
            sys.exit(3)
        schema = json.loads(pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        result = {}
        for path in sys.argv[2:]:
            document = json.loads(pathlib.Path(path).read_bytes().decode("utf-8-sig"))
            result[path] = [error.message for error in validator.iter_errors(document)]
        print(json.dumps(result))
        """

    private static func jsonFiles(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.path < $1.path }
    }

    /// Runs the script on `files`, returning each file's schema errors.
    private static func validate(_ files: [URL]) throws -> [String: [String]] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tributary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let errorFile = scratch.appendingPathComponent("stderr.txt")
        try Data().write(to: errorFile)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        defer { try? errorHandle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema.path] + files.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)

        switch process.terminationStatus {
        case 0:
            break
        case 127:
            Issue.record("python3 was not found on PATH; install Python 3 and `pip install jsonschema`. \(stderr)")
            return [:]
        case 3:
            Issue.record("\(stderr)")
            return [:]
        default:
            Issue.record("schema check failed (exit \(process.terminationStatus)): \(stderr)")
            return [:]
        }
        let decoded = try JSONDecoder().decode([String: [String]].self, from: data)
        #expect(decoded.count == files.count, "every file was validated")
        return decoded
    }

    @Test func schemaIsValidAndAcceptsValidConfigs() throws {
        var files = try Self.jsonFiles(in: Self.configs.appendingPathComponent("valid"))
        #expect(files.count >= 4)
        // The repository's default config, and any example configs, when they exist.
        for candidate in ["feeds.json", "examples/feeds.json"] {
            let url = Self.root.appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: url.path) { files.append(url) }
        }
        let result = try Self.validate(files)
        for file in files {
            let errors = try #require(result[file.path], "no result for \(file.lastPathComponent)")
            #expect(errors.isEmpty, "\(file.lastPathComponent) should match feeds.schema.json: \(errors)")
        }
    }

    @Test func schemaRejectsInvalidConfigs() throws {
        let files = try Self.jsonFiles(in: Self.configs.appendingPathComponent("invalid"))
        #expect(files.count >= 10)
        let result = try Self.validate(files)
        for file in files {
            let errors = try #require(result[file.path], "no result for \(file.lastPathComponent)")
            #expect(!errors.isEmpty, "\(file.lastPathComponent) should not match feeds.schema.json")
        }
    }

    @Test func schemaKnowsExactlyTheKeysTheLoaderKnows() throws {
        let schema = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.schema))
        #expect(schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(schema["additionalProperties"] == .bool(false))
        let topLevel = try #require(schema["properties"]?.objectValue)
        #expect(Set(topLevel.keys) == Set(ConfigurationLoader.topLevelKeys))
        let source = try #require(schema["$defs"]?["source"])
        let common = try #require(source["properties"]?.objectValue)
        #expect(Set(common.keys) == SourceConfiguration.commonKeys)
        #expect(source["required"] == .array([.string("id"), .string("kind")]))
        // A misspelt key inside a source ("enable") is an error in editors as in `validate`.
        #expect(source["unevaluatedProperties"] == .bool(false))
        // Every property says what it is for, so editors have hover text.
        for (key, property) in topLevel.merging(common, uniquingKeysWith: { a, _ in a }) {
            #expect(property["description"]?.stringValue?.isEmpty == false, "\(key) has no description")
            #expect(property["title"]?.stringValue?.isEmpty == false, "\(key) has no title")
        }
    }
}
