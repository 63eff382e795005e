import ArgumentParser
import Foundation
import Testing
import TributaryCore

@testable import TributaryCLI

/// A test adapter whose documentation uses every option type.
private struct EveryTypeSource: Source {
    struct Options: Decodable, Sendable {}
    static let kind = "every-type"
    static let documentation = SourceDocumentation(
        summary: "Every option type.",
        options: [
            .init("name", .string, required: true, help: "A name.", title: "Name", allowedValues: ["a", "b"]),
            .init("count", .integer, default: "3", help: "A count.", examples: ["3", "10"]),
            .init("ratio", .number, help: "A ratio."),
            .init("on", .boolean, help: "A switch."),
            .init("wait", .duration, help: "A wait.", examples: ["30s"]),
            .init("words", .stringArray, help: "Words."),
            .init("labels", .object, help: "Labels."),
            .init("nested", .object, help: "Nested.", properties: [.init("seed", .integer, help: "A seed.")]),
        ],
        example: "{}",
        requiredAlternatives: [["name"], ["words"]]
    )
    let id: SourceID
    init(id: SourceID, options: Options, context: SourceContext) throws { self.id = id }
    func run(into sink: EventSink) async throws {}
}

@Suite struct SourceOptionsSchemaTests {
    /// The committed feeds.schema.json, at the package root.
    private func committedSchema() throws -> JSONValue {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("feeds.schema.json"))
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    @Test func feedsSchemaMatchesTheBuiltInAdaptersDocumentation() throws {
        let schema = try committedSchema()
        let generated = try SchemaCommand.text(for: BuiltInSources.registry)
        let hint = "regenerate with `tributary schema` and paste into feeds.schema.json:\n\(generated)"
        let rules = schema["$defs"]?["source"]?["allOf"]?.arrayValue ?? []
        let kindChoices = schema["$defs"]?["source"]?["properties"]?["kind"]?["anyOf"]?.arrayValue ?? []
        let listedKinds = kindChoices.compactMap { $0["enum"]?.arrayValue }.flatMap { $0 }
        for type in BuiltInSources.all {
            let name = SourceOptionsSchema.definitionName(forKind: type.kind)
            #expect(
                schema["$defs"]?[name] == SourceOptionsSchema.definition(for: type),
                "$defs.\(name) differs from \(type.kind)'s documentation; \(hint)"
            )
            #expect(rules.contains(SourceOptionsSchema.rule(forKind: type.kind)), "no allOf rule for \(type.kind)")
            #expect(listedKinds.contains(.string(type.kind)), "kind \(type.kind) is not in the kind enum")
        }
    }

    /// The keys each built-in adapter's code reads (its `Options` decoded from its example, every key it asks
    /// for recorded) are exactly the options its documentation lists, and so feeds.schema.json (held to the
    /// documentation above) and `validate`'s unknown-key check (which uses the documentation).
    @Test(arguments: BuiltInSources.all.map { $0.kind })
    func everyKeyTheCodeReadsIsDocumentedAndEveryDocumentedKeyIsRead(_ kind: String) throws {
        let type = try #require(BuiltInSources.all.first { $0.kind == kind })
        let entry = try JSONDecoder().decode(JSONValue.self, from: Data(type.documentation.example.utf8))
        let read = SourceRegistry.optionKeys(readBy: type, from: entry)
        let topLevel = Set(read.filter { !$0.contains(".") }).subtracting(SourceConfiguration.commonKeys)
        let documented = Set(type.documentation.options.map(\.name))
        #expect(topLevel == documented, "read by the code: \(topLevel.sorted()); documented: \(documented.sorted())")
        for path in read where path.contains(".") {
            let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
            let option = try #require(type.documentation.options.first { $0.name == parts[0] }, "\(path)")
            if parts[1] == "*" {
                #expect(option.type == .object && option.properties.isEmpty, "\(path) reads any key")
            } else {
                #expect(option.properties.contains { $0.name == parts[1] }, "\(path) is read but not documented")
            }
        }
    }

    @Test(arguments: [("json-file", "jsonFileOptions"), ("google-news", "googleNewsOptions"), ("exec", "execOptions")])
    func namesDefinitionsAfterTheKind(_ kind: String, _ name: String) {
        #expect(SourceOptionsSchema.definitionName(forKind: kind) == name)
    }

    @Test func mapsEveryOptionTypeToJSONSchema() throws {
        let definition = SourceOptionsSchema.definition(for: EveryTypeSource.self)
        let properties = try #require(definition["properties"])
        #expect(definition["title"] == .string("every-type options"))
        #expect(definition["required"] == .array([.string("name")]))
        #expect(
            definition["anyOf"]
                == .array([
                    .object(["required": .array([.string("name")])]), .object(["required": .array([.string("words")])]),
                ])
        )
        #expect(
            properties["name"]
                == .object([
                    "title": .string("Name"), "description": .string("A name."), "type": .string("string"),
                    "minLength": .number(1), "enum": .array([.string("a"), .string("b")]),
                ])
        )
        #expect(properties["count"]?["type"] == .string("integer"))
        #expect(properties["count"]?["description"] == .string("A count. Default: 3."))
        #expect(properties["count"]?["examples"] == .array([.number(3), .number(10)]))
        #expect(properties["count"]?["title"] == .string("count"))
        #expect(properties["ratio"]?["type"] == .string("number"))
        #expect(properties["on"]?["type"] == .string("boolean"))
        #expect(properties["wait"]?["$ref"] == .string("#/$defs/duration"))
        #expect(properties["wait"]?["examples"] == .array([.string("30s")]))
        #expect(properties["words"]?["items"] == .object(["type": .string("string")]))
        #expect(properties["words"]?["minItems"] == nil)
        #expect(properties["labels"]?["additionalProperties"] == .object(["type": .string("string")]))
        #expect(properties["nested"]?["properties"]?["seed"]?["type"] == .string("integer"))
    }

    @Test func schemaCommandPrintsADefinitionAndARuleForEveryKind() throws {
        #expect(try TributaryCommand.parseAsRoot(["schema"]) is SchemaCommand)
        let text = try SchemaCommand.text(for: SourceRegistry([EveryTypeSource.self]))
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["$defs"]?["everyTypeOptions"] == SourceOptionsSchema.definition(for: EveryTypeSource.self))
        #expect(value["allOf"] == .array([SourceOptionsSchema.rule(forKind: "every-type")]))
    }

    @Test func sourcesListsExecWithItsOptionsAndAllowedValues() {
        let listing = SourcesCommand.listing(of: SourceRegistry(BuiltInSources.all + [EveryTypeSource.self]))
        #expect(listing.contains("exec\n"))
        for option in ["command", "args", "env", "cwd", "stream"] {
            #expect(listing.contains("      \(option) "), "no line for \(option)")
        }
        #expect(listing.contains("one of a, b"))
    }
}
