import Foundation

extension SourceRegistry {
    /// Creates the adapter for one feeds.json entry: decodes the adapter's `Options` from
    /// ``SourceConfiguration/entry`` and calls its `init`, which validates and performs no I/O (SRC-1).
    ///
    /// Errors point at the offending key's value when ``SourceConfiguration/valuePositions`` knows it (the loader
    /// fills it in), otherwise at the entry.
    /// - Parameters:
    ///   - source: the entry, as ``ConfigurationLoader`` produced it.
    ///   - context: what the source gets from the host.
    /// - Throws: ``ConfigurationError`` naming the file, the source id and the key: `unknownKind` when no adapter
    ///   has the entry's kind, `missingKey`, `wrongType` or `invalidValue` when the options do not decode or the
    ///   adapter throws a ``SourceOptionError``, `adapterError` for any other error from `init`.
    public func makeSource(for source: SourceConfiguration, context: SourceContext) throws -> any Source {
        guard let type = sourceType(forKind: source.kind) else {
            throw ConfigurationError(
                file: source.file ?? "feeds.json",
                position: source.valuePositions["kind"] ?? source.entryPosition,
                sourceID: source.id,
                key: "kind",
                reason: .unknownKind(source.kind, suggestion: suggestion(forUnknownKind: source.kind), known: kinds)
            )
        }
        return try Self.makeSource(type, for: source, context: context)
    }

    /// The option keys `type`'s `Options` reads when it decodes `entry`, as dotted paths (`simulate.seed`, and
    /// `env.*` for an object whose keys are free): what the code accepts, which the adapter's documentation (and
    /// so feeds.schema.json and `validate`) must list exactly. Decoding errors are ignored.
    public static func optionKeys(readBy type: any Source.Type, from entry: JSONValue) -> Set<String> {
        func keys<S: Source>(_ type: S.Type) -> Set<String> {
            let log = JSONValueDecoder.KeyLog()
            JSONValueDecoder.$keyLog.withValue(log) { _ = try? JSONValueDecoder.decode(S.Options.self, from: entry) }
            return log.recorded
        }
        return keys(type)
    }

    // MARK: - Private

    /// Opens the existential so that `S.Options` can be named.
    private static func makeSource<S: Source>(
        _ type: S.Type,
        for source: SourceConfiguration,
        context: SourceContext
    ) throws -> S {
        let options: S.Options
        do {
            options = try JSONValueDecoder.decode(S.Options.self, from: source.entry)
        } catch let error as DecodingError {
            throw configurationError(for: error, in: source, documentation: S.documentation)
        }
        do {
            return try S(id: source.id, options: options, context: context)
        } catch let error as SourceOptionError {
            throw ConfigurationError(
                file: source.file ?? "feeds.json",
                position: source.valuePositions[error.key] ?? source.entryPosition,
                sourceID: source.id,
                key: error.key,
                reason: .invalidValue(source.entry[error.key].map(jsonText) ?? "(absent)", expected: error.message)
            )
        } catch {
            throw ConfigurationError(
                file: source.file ?? "feeds.json",
                position: source.entryPosition,
                sourceID: source.id,
                reason: .adapterError(String(describing: error))
            )
        }
    }

    private static func configurationError(
        for error: DecodingError,
        in source: SourceConfiguration,
        documentation: SourceDocumentation
    ) -> ConfigurationError {
        func make(_ path: [any CodingKey], _ reason: ConfigurationError.Reason) -> ConfigurationError {
            let topKey = path.first?.stringValue
            let position = topKey.flatMap { source.valuePositions[$0] } ?? source.entryPosition
            return ConfigurationError(
                file: source.file ?? "feeds.json",
                position: position,
                sourceID: source.id,
                key: path.isEmpty ? nil : keyPath(path),
                reason: reason
            )
        }
        switch error {
        case .keyNotFound(let key, let context):
            let path = context.codingPath + [key]
            let option = documentation.options.first { $0.name == key.stringValue }
            let example = option.map { exampleValue(for: $0.type) }
            // The key is missing, so point at the object that should hold it.
            var parent = make(context.codingPath, .missingKey(example: example))
            parent.key = keyPath(path)
            return parent
        case .typeMismatch(let expected, let context):
            let found = value(at: context.codingPath, in: source.entry).map(typeName)
            return make(context.codingPath, .wrongType(expected: typeDescription(expected), found: found))
        case .valueNotFound(let expected, let context):
            return make(context.codingPath, .wrongType(expected: typeDescription(expected), found: "null"))
        case .dataCorrupted(let context):
            let written = value(at: context.codingPath, in: source.entry).map(jsonText) ?? "(absent)"
            return make(context.codingPath, .invalidValue(written, expected: context.debugDescription))
        @unknown default:
            return make([], .adapterError(String(describing: error)))
        }
    }

    /// `simulate.seed`, `command[0]`.
    private static func keyPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func value(at path: [any CodingKey], in entry: JSONValue) -> JSONValue? {
        var current: JSONValue? = entry
        for key in path {
            if let index = key.intValue, let elements = current?.arrayValue {
                current = elements.indices.contains(index) ? elements[index] : nil
            } else {
                current = current?[key.stringValue]
            }
        }
        return current
    }

    private static func typeDescription(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is URL.Type: return "a URL string"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return name
        }
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func exampleValue(for type: SourceDocumentation.Option.ValueType) -> String {
        switch type {
        case .string: return "\"…\""
        case .integer: return "1"
        case .number: return "1.0"
        case .boolean: return "true"
        case .duration: return "\"30s\""
        case .stringArray: return "[\"…\"]"
        case .object: return "{ … }"
        }
    }
}

/// A value as JSON text, for messages.
func jsonText(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
}

extension SourceConfiguration {
    /// A short, stable fingerprint of the whole entry (its keys sorted, so layout and key order do not count):
    /// the state store keeps it with the source's health, so an edited entry starts with a clean slate.
    public var fingerprint: String { StableHash.hex(of: jsonText(entry)) }

    /// Where the entry starts, when known.
    var entryPosition: JSONPosition? {
        line.map { JSONPosition(line: $0, column: column ?? 1) }
    }
}
