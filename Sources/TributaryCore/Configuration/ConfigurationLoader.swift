public import Foundation

/// Reads feeds.json (version 1) into a ``FeedsConfiguration``, checking everything that can be checked without
/// fetching anything: JSON syntax, every key's type and value, unique and well-formed ids, known kinds, and each
/// source's adapter options (decoded and passed to the adapter's `init`, which performs no I/O).
///
/// Every problem is collected and thrown together as ``ConfigurationErrors``, each naming the file, the line and
/// column, the source id and the key.
public enum ConfigurationLoader {
    /// The top-level keys of feeds.json version 1.
    public static let topLevelKeys: [String] = [
        "$schema", "version", "title", "timeZone", "maxAge", "maxItemsPerSource", "include", "exclude", "output",
        "template", "allowPathsOutside", "maxConnectionsPerHost", "minimumHostInterval", "state", "store", "retention",
        "runTimeout", "sources",
    ]

    /// Reads and validates a feeds.json file.
    /// - Parameters:
    ///   - file: the file to read.
    ///   - displayPath: how messages name the file (the path as the user gave it); `file.relativePath` when `nil`.
    ///   - registry: the adapters that may appear as `kind`.
    /// - Throws: ``ConfigurationErrors`` with every problem found (a missing or unreadable file is one problem).
    public static func load(
        contentsOf file: URL,
        displayPath: String? = nil,
        registry: SourceRegistry
    ) throws -> FeedsConfiguration {
        let name = displayPath ?? file.relativePath
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) {
                throw ConfigurationErrors([ConfigurationError(file: name, reason: .fileNotFound)])
            }
            let detail = isDirectory.boolValue ? "it is a directory" : error.localizedDescription
            throw ConfigurationErrors([ConfigurationError(file: name, reason: .unreadable(detail))])
        }
        return try load(data: data, file: file, displayPath: name, registry: registry)
    }

    /// Validates feeds.json text that has already been read.
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8).
    ///   - file: where the text came from; relative paths in it resolve against its directory.
    ///   - displayPath: how messages name the file; `file.relativePath` when `nil`.
    ///   - registry: the adapters that may appear as `kind`.
    /// - Throws: ``ConfigurationErrors`` with every problem found.
    public static func load(
        data: Data,
        file: URL,
        displayPath: String? = nil,
        registry: SourceRegistry
    ) throws -> FeedsConfiguration {
        var reader = Reader(file: displayPath ?? file.relativePath)
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(data)
        } catch {
            throw ConfigurationErrors([
                ConfigurationError(file: reader.file, position: error.position, reason: .syntax(error.detail))
            ])
        }
        let configuration = reader.read(root, file: file, registry: registry)
        guard let configuration, reader.errors.isEmpty else {
            throw ConfigurationErrors(reader.errors)
        }
        return configuration
    }
}

/// Walks the located tree, collecting every problem instead of stopping at the first.
private struct Reader {
    let file: String
    var errors: [ConfigurationError] = []

    init(file: String) {
        self.file = file
    }

    mutating func read(_ root: LocatedJSON, file url: URL, registry: SourceRegistry) -> FeedsConfiguration? {
        guard let members = root.members else {
            fail(
                root.position,
                reason: .wrongType(expected: "a JSON object at the top level", found: root.typeDescription)
            )
            return nil
        }
        var configuration = FeedsConfiguration(file: url, sources: [])
        var sawSources = false
        for member in members {
            let value = member.value
            let key = member.key
            switch key {
            case "$schema":
                _ = string(value, key: key)
            case "version":
                if case .number(let number) = value.value {
                    if number != 1 { fail(value.position, key: key, reason: .unsupportedVersion(format(number))) }
                } else {
                    fail(
                        value.position,
                        key: key,
                        reason: .wrongType(expected: "the number 1", found: value.typeDescription)
                    )
                }
            case "title":
                if let title = string(value, key: key) { configuration.title = title }
            case "timeZone":
                if let name = string(value, key: key) {
                    if let zone = TimeZone(identifier: name), !name.isEmpty {
                        configuration.timeZone = zone
                    } else {
                        let suggestion = closest(to: name, in: TimeZone.knownTimeZoneIdentifiers, caseInsensitive: true)
                        fail(value.position, key: key, reason: .invalidTimeZone(name, suggestion: suggestion))
                    }
                }
            case "maxAge":
                configuration.maxAge = duration(value, key: key)
            case "runTimeout":
                configuration.runTimeout = duration(value, key: key)
            case "maxItemsPerSource":
                configuration.maxItemsPerSource = positiveInteger(value, key: key)
            case "maxConnectionsPerHost":
                if let limit = positiveInteger(value, key: key) { configuration.maxConnectionsPerHost = limit }
            case "minimumHostInterval":
                if let interval = duration(value, key: key) { configuration.minimumHostInterval = interval }
            case "include":
                configuration.include = strings(value, key: key) ?? []
            case "exclude":
                configuration.exclude = strings(value, key: key) ?? []
            case "output":
                if let output = string(value, key: key) {
                    if output.isEmpty {
                        fail(
                            value.position,
                            key: key,
                            reason: .invalidValue("\"\"", expected: "write a file path such as \"digest.html\"")
                        )
                    } else {
                        configuration.output = output
                    }
                }
            case "template":
                if let template = string(value, key: key) {
                    if template.isEmpty {
                        fail(
                            value.position,
                            key: key,
                            reason: .invalidValue("\"\"", expected: "write a template path such as \"digest.mustache\"")
                        )
                    } else {
                        configuration.template = template
                    }
                }
            case "state", "store":
                if let state = string(value, key: key) {
                    if state.isEmpty {
                        fail(
                            value.position,
                            key: key,
                            reason: .invalidValue(
                                "\"\"",
                                expected:
                                    "write a file path such as \".tributary/state.sqlite\" or a URL such as \"postgres://tributary@db.example.org/tributary\""
                            )
                        )
                    } else if configuration.state != nil {
                        fail(
                            value.position,
                            key: key,
                            reason: .invalidValue(
                                "a second store",
                                expected: "give one of \"state\" and \"store\" (they name the same thing)"
                            )
                        )
                    } else if FeedsConfiguration.isDatabaseURL(state), URLComponents(string: state)?.password != nil {
                        fail(
                            value.position,
                            key: key,
                            reason: .invalidValue(
                                "a URL with a password",
                                expected:
                                    "leave the password out of feeds.json; put it in PGPASSWORD or ~/.pgpass"
                            )
                        )
                    } else {
                        configuration.state = state
                    }
                }
            case "retention":
                if let retention = duration(value, key: key) { configuration.retention = retention }
            case "allowPathsOutside":
                if case .bool(let flag) = value.value {
                    configuration.allowPathsOutside = flag
                } else {
                    fail(
                        value.position,
                        key: key,
                        reason: .wrongType(expected: "true or false", found: value.typeDescription)
                    )
                }
            case "sources":
                sawSources = true
                guard let elements = value.elements else {
                    fail(
                        value.position,
                        key: key,
                        reason: .wrongType(expected: "an array of source objects", found: value.typeDescription)
                    )
                    continue
                }
                configuration.sources = readSources(elements, registry: registry)
            default:
                let suggestion = closest(to: key, in: ConfigurationLoader.topLevelKeys, caseInsensitive: true)
                fail(member.keyPosition, key: key, reason: .unknownKey(key, suggestion: suggestion))
            }
        }
        if !sawSources {
            fail(
                root.position,
                key: "sources",
                reason: .missingKey(
                    example: #"[ { "id": "swift-org", "kind": "rss", "url": "https://www.swift.org/atom.xml" } ]"#
                )
            )
        }
        // Options are checked last, with the final allowPathsOutside, and only for entries that are otherwise sound.
        for source in configuration.sources where registry.sourceType(forKind: source.kind) != nil && source.id.isValid
        {
            let context = SourceContext(
                baseDirectory: configuration.directory,
                allowsPathsOutsideBaseDirectory: configuration.allowPathsOutside
            )
            do {
                _ = try registry.makeSource(for: source, context: context)
            } catch let error as ConfigurationError {
                errors.append(error)
            } catch {
                fail(source.entryPosition, sourceID: source.id, reason: .adapterError(String(describing: error)))
            }
        }
        return configuration
    }

    private mutating func readSources(_ elements: [LocatedJSON], registry: SourceRegistry) -> [SourceConfiguration] {
        var sources: [SourceConfiguration] = []
        var firstLines: [SourceID: Int] = [:]
        for element in elements {
            guard let members = element.members else {
                fail(
                    element.position,
                    key: "sources",
                    reason: .wrongType(expected: "a source object", found: element.typeDescription)
                )
                continue
            }
            var sourceID: SourceID?
            if let idValue = element["id"] {
                if let id = string(idValue, key: "id") {
                    sourceID = SourceID(id)
                    if !SourceID(id).isValid {
                        fail(idValue.position, key: "id", reason: .invalidID(id))
                    } else if let firstLine = firstLines[SourceID(id)] {
                        fail(
                            idValue.position,
                            sourceID: SourceID(id),
                            key: "id",
                            reason: .duplicateID(firstLine: firstLine)
                        )
                    } else {
                        firstLines[SourceID(id)] = element.line
                    }
                }
            } else {
                fail(element.position, key: "id", reason: .missingKey(example: #""my-source""#))
            }
            var source = SourceConfiguration(
                id: sourceID ?? SourceID(""),
                kind: "",
                entry: element.jsonValue,
                line: element.line,
                column: element.column,
                file: file,
                valuePositions: Dictionary(members.map { ($0.key, $0.value.position) }, uniquingKeysWith: { a, _ in a })
            )
            for member in members {
                let value = member.value
                let key = member.key
                switch key {
                case "id":
                    break
                case "kind":
                    guard let kind = string(value, key: key, sourceID: sourceID) else { continue }
                    source.kind = kind
                    if registry.sourceType(forKind: kind) == nil {
                        fail(
                            value.position,
                            sourceID: sourceID,
                            key: key,
                            reason: .unknownKind(
                                kind,
                                suggestion: registry.suggestion(forUnknownKind: kind),
                                known: registry.kinds
                            )
                        )
                    }
                case "title":
                    source.title = string(value, key: key, sourceID: sourceID)
                case "category":
                    source.category = string(value, key: key, sourceID: sourceID)
                case "enabled":
                    if case .bool(let flag) = value.value {
                        source.enabled = flag
                    } else {
                        fail(
                            value.position,
                            sourceID: sourceID,
                            key: key,
                            reason: .wrongType(expected: "true or false", found: value.typeDescription)
                        )
                    }
                case "include":
                    source.include = strings(value, key: key, sourceID: sourceID) ?? []
                case "exclude":
                    source.exclude = strings(value, key: key, sourceID: sourceID) ?? []
                case "maxItems":
                    source.maxItems = positiveInteger(value, key: key, sourceID: sourceID)
                case "timeout":
                    source.timeout = duration(value, key: key, sourceID: sourceID)
                case "interval":
                    source.interval = duration(value, key: key, sourceID: sourceID)
                default:
                    // The adapter's own options: checked when its Options are decoded.
                    break
                }
            }
            if element["kind"] == nil {
                fail(element.position, sourceID: sourceID, key: "kind", reason: .missingKey(example: #""rss""#))
            }
            if let type = registry.sourceType(forKind: source.kind) {
                checkKeys(members, of: type.documentation, sourceID: sourceID)
            }
            sources.append(source)
        }
        return sources
    }

    /// Reports every key of a source entry that neither the common keys nor the kind's options know (`"enable"`,
    /// `"urll"`), with the nearest known key; inside an object option with documented properties, its keys too.
    private mutating func checkKeys(
        _ members: [LocatedJSON.Member],
        of documentation: SourceDocumentation,
        sourceID: SourceID?
    ) {
        let options = Dictionary(documentation.options.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let known = SourceConfiguration.commonKeys.sorted() + documentation.options.map(\.name)
        for member in members {
            guard let option = options[member.key] else {
                if SourceConfiguration.commonKeys.contains(member.key) { continue }
                let suggestion = closest(to: member.key, in: known, caseInsensitive: true)
                fail(
                    member.keyPosition,
                    sourceID: sourceID,
                    key: member.key,
                    reason: .unknownKey(member.key, suggestion: suggestion)
                )
                continue
            }
            guard !option.properties.isEmpty, let inner = member.value.members else { continue }
            let names = option.properties.map(\.name)
            for field in inner where !names.contains(field.key) {
                let suggestion = closest(to: field.key, in: names, caseInsensitive: true)
                fail(
                    field.keyPosition,
                    sourceID: sourceID,
                    key: "\(member.key).\(field.key)",
                    reason: .unknownKey(field.key, suggestion: suggestion)
                )
            }
        }
    }

    // MARK: - Values

    private mutating func string(_ value: LocatedJSON, key: String, sourceID: SourceID? = nil) -> String? {
        if case .string(let text) = value.value { return text }
        fail(
            value.position,
            sourceID: sourceID,
            key: key,
            reason: .wrongType(expected: "a string", found: value.typeDescription)
        )
        return nil
    }

    private mutating func strings(_ value: LocatedJSON, key: String, sourceID: SourceID? = nil) -> [String]? {
        guard let elements = value.elements else {
            fail(
                value.position,
                sourceID: sourceID,
                key: key,
                reason: .wrongType(expected: "an array of strings", found: value.typeDescription)
            )
            return nil
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if case .string(let text) = element.value {
                result.append(text)
            } else {
                fail(
                    element.position,
                    sourceID: sourceID,
                    key: "\(key)[\(index)]",
                    reason: .wrongType(expected: "a string", found: element.typeDescription)
                )
            }
        }
        return result
    }

    private mutating func duration(_ value: LocatedJSON, key: String, sourceID: SourceID? = nil) -> Duration? {
        guard let text = string(value, key: key, sourceID: sourceID) else { return nil }
        guard let duration = DurationFormat.parse(text) else {
            fail(value.position, sourceID: sourceID, key: key, reason: .invalidDuration(text))
            return nil
        }
        return duration
    }

    private mutating func positiveInteger(_ value: LocatedJSON, key: String, sourceID: SourceID? = nil) -> Int? {
        guard case .number(let number) = value.value else {
            fail(
                value.position,
                sourceID: sourceID,
                key: key,
                reason: .wrongType(expected: "a positive integer", found: value.typeDescription)
            )
            return nil
        }
        guard number.rounded() == number, number >= 1, number <= Double(Int32.max) else {
            fail(
                value.position,
                sourceID: sourceID,
                key: key,
                reason: .invalidValue(format(number), expected: "write a whole number of at least 1")
            )
            return nil
        }
        return Int(number)
    }

    private func format(_ number: Double) -> String {
        jsonText(.number(number))
    }

    private mutating func fail(
        _ position: JSONPosition?,
        sourceID: SourceID? = nil,
        key: String? = nil,
        reason: ConfigurationError.Reason
    ) {
        errors.append(ConfigurationError(file: file, position: position, sourceID: sourceID, key: key, reason: reason))
    }

    /// The candidate closest to `text` by edit distance, when it is close enough to be a likely typo.
    private func closest(to text: String, in candidates: [String], caseInsensitive: Bool) -> String? {
        let needle = caseInsensitive ? text.lowercased() : text
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = EditDistance.between(caseInsensitive ? candidate.lowercased() : candidate, needle)
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, best.candidate.count / 3) else { return nil }
        return best.candidate
    }
}
