import Foundation
public import TributaryCore

/// The parts of feeds.schema.json that are generated from the adapters' own ``SourceDocumentation``: one
/// definition of each kind's options, and the rule that applies it to entries of that kind.
///
/// feeds.schema.json is committed for editors; a test regenerates these parts from ``BuiltInSources/all`` and
/// checks the file matches, so the schema cannot drift from the code. `tributary schema` prints them, to paste into
/// the file after changing an adapter's documentation.
///
/// Each option becomes a property: its ``SourceDocumentation/Option/title`` (or name), its help as the
/// description (with the default appended), and its type: `string` (with `minLength` 1 when required, `enum` for
/// allowed values), `integer`, `number`, `boolean`, `duration` (a reference to `#/$defs/duration`), `string[]`
/// (an array of strings, with `minItems` 1 when required) or `object` (its members, or a map of strings when it has
/// none). Required options are listed in `required`; ``SourceDocumentation/requiredAlternatives`` become `anyOf`.
public enum SourceOptionsSchema {
    /// The `$defs` name of a kind's options: `json-file` → `jsonFileOptions`.
    public static func definitionName(forKind kind: String) -> String {
        let words = kind.split(separator: "-")
        let head = words.first.map { String($0) } ?? ""
        return head + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Options"
    }

    /// The JSON Schema of one adapter's options.
    public static func definition(for type: any Source.Type) -> JSONValue {
        let documentation = type.documentation
        var schema: [String: JSONValue] = [
            "title": .string("\(type.kind) options"),
            "description": .string(documentation.summary),
            "properties": .object(properties(documentation.options)),
        ]
        let required = documentation.options.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema["required"] = .array(required) }
        if !documentation.requiredAlternatives.isEmpty {
            schema["anyOf"] = .array(
                documentation.requiredAlternatives.map { .object(["required": .array($0.map(JSONValue.string))]) }
            )
        }
        return .object(schema)
    }

    /// The rule that applies a kind's definition to the entries of that kind (one element of the source's `allOf`).
    public static func rule(forKind kind: String) -> JSONValue {
        .object([
            "if": .object([
                "properties": .object(["kind": .object(["const": .string(kind)])]),
                "required": .array([.string("kind")]),
            ]),
            "then": .object(["$ref": .string("#/$defs/\(definitionName(forKind: kind))")]),
        ])
    }

    /// Everything generated for a registry: `{ "$defs": { name: definition, … }, "allOf": [rule, …] }`.
    public static func fragments(for registry: SourceRegistry) -> JSONValue {
        var definitions: [String: JSONValue] = [:]
        for type in registry.sourceTypes {
            definitions[definitionName(forKind: type.kind)] = definition(for: type)
        }
        return .object([
            "$defs": .object(definitions),
            "allOf": .array(registry.kinds.map(rule(forKind:))),
        ])
    }

    // MARK: - Private

    /// An example as a JSON value: strings stay strings, other types are parsed from their feeds.json spelling.
    private static func example(from text: String, type: SourceDocumentation.Option.ValueType) -> JSONValue {
        switch type {
        case .string, .duration:
            return .string(text)
        case .integer, .number, .boolean, .stringArray, .object:
            return (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
        }
    }

    private static func properties(_ options: [SourceDocumentation.Option]) -> [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        for option in options {
            properties[option.name] = property(option)
        }
        return properties
    }

    private static func property(_ option: SourceDocumentation.Option) -> JSONValue {
        var description = option.help
        if let value = option.defaultValue { description += " Default: \(value)." }
        var schema: [String: JSONValue] = [
            "title": .string(option.title ?? option.name),
            "description": .string(description),
        ]
        switch option.type {
        case .string:
            schema["type"] = .string("string")
            if option.isRequired { schema["minLength"] = .number(1) }
            if !option.allowedValues.isEmpty { schema["enum"] = .array(option.allowedValues.map(JSONValue.string)) }
        case .integer:
            schema["type"] = .string("integer")
        case .number:
            schema["type"] = .string("number")
        case .boolean:
            schema["type"] = .string("boolean")
        case .duration:
            schema["$ref"] = .string("#/$defs/duration")
        case .stringArray:
            schema["type"] = .string("array")
            schema["items"] = .object(["type": .string("string")])
            if option.isRequired { schema["minItems"] = .number(1) }
        case .object:
            schema["type"] = .string("object")
            if option.properties.isEmpty {
                schema["additionalProperties"] = .object(["type": .string("string")])
            } else {
                schema["properties"] = .object(properties(option.properties))
            }
        }
        if !option.examples.isEmpty {
            schema["examples"] = .array(option.examples.map { example(from: $0, type: option.type) })
        }
        return .object(schema)
    }
}
