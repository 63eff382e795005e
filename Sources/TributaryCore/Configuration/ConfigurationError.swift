/// One problem in feeds.json: the file, the place, the source and key it concerns, and what is wrong.
///
/// The ``description`` reads `FILE:LINE:COLUMN: source 'ID': "key": message; fix`, leaving out the parts that
/// are unknown, for example
/// `feeds.json:12:17: source 'swift-org': "kind": unknown kind 'rsss'; did you mean 'rss'? (known kinds: json-file, rss)`.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration file as the user named it (for display).
    public var file: String
    /// The 1-based line of the offending value, when known.
    public var line: Int?
    /// The 1-based column (in characters) of the offending value, when known.
    public var column: Int?
    /// The source the problem is in, when it is in a source entry that has an id.
    public var sourceID: SourceID?
    /// The offending key (`"maxAge"`, `"path"`, `"simulate.seed"`), when there is one.
    public var key: String?
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    public init(
        file: String,
        line: Int? = nil,
        column: Int? = nil,
        sourceID: SourceID? = nil,
        key: String? = nil,
        reason: Reason
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.sourceID = sourceID
        self.key = key
        self.reason = reason
    }

    /// Creates an error at a position in the file.
    public init(
        file: String,
        position: JSONPosition?,
        sourceID: SourceID? = nil,
        key: String? = nil,
        reason: Reason
    ) {
        self.init(
            file: file,
            line: position?.line,
            column: position?.column,
            sourceID: sourceID,
            key: key,
            reason: reason
        )
    }

    /// The ways feeds.json can be wrong.
    public enum Reason: Hashable, Sendable {
        /// The file is not valid JSON; the detail says what was expected at the position.
        case syntax(String)
        /// The file exists but cannot be read.
        case unreadable(String)
        /// There is no file at the path.
        case fileNotFound
        /// A required key is absent; `example` is a value to suggest, as JSON (`"…"`, `[ … ]`).
        case missingKey(example: String?)
        /// A value has the wrong JSON type.
        case wrongType(expected: String, found: String?)
        /// A value has the right type but cannot be used; `value` is as written (JSON text).
        case invalidValue(String, expected: String)
        /// A duration that is not a whole number and a unit.
        case invalidDuration(String)
        /// The source id is already used by the entry at `firstLine`.
        case duplicateID(firstLine: Int)
        /// The source id does not match `[a-z0-9-]+`.
        case invalidID(String)
        /// No adapter is registered for the kind; `suggestion` is the closest known kind, `known` all of them.
        case unknownKind(String, suggestion: String?, known: [String])
        /// A top-level key feeds.json does not have; `suggestion` is the closest known key.
        case unknownKey(String, suggestion: String?)
        /// `version` is not 1.
        case unsupportedVersion(String)
        /// `timeZone` is not an IANA time zone name; `suggestion` is the closest known one.
        case invalidTimeZone(String, suggestion: String?)
        /// The adapter refused the entry with an error other than a ``SourceOptionError``.
        case adapterError(String)
    }

    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let sourceID { text += "source '\(sourceID)': " }
        if let key { text += "\"\(key)\": " }
        return text + message
    }

    /// What is wrong and how to fix it, without the file, place, source and key.
    public var message: String {
        switch reason {
        case .syntax(let detail):
            return "invalid JSON: \(detail)"
        case .unreadable(let detail):
            return "cannot be read: \(detail)"
        case .fileNotFound:
            return "no such file; create it or name another with -c"
        case .missingKey(let example):
            let name = key ?? "key"
            return "required key is missing; add \"\(name)\": \(example ?? "…")"
        case .wrongType(let expected, let found):
            return "expected \(expected)" + (found.map { ", found \($0)" } ?? "")
        case .invalidValue(let value, let expected):
            return "invalid value \(value); \(expected)"
        case .invalidDuration(let value):
            return "invalid duration '\(value)'; write a whole number and a unit: 500ms, 3s, 15m, 48h or 7d"
        case .duplicateID(let firstLine):
            let id = sourceID.map { "'\($0)'" } ?? "id"
            return "duplicate id \(id), already used by the source at line \(firstLine); give each source its own id"
        case .invalidID(let value):
            let fixed = SourceID.slug(value)
            return "invalid id '\(value)'; use only lower-case letters, digits and '-'"
                + (fixed.isEmpty ? "" : ", e.g. '\(fixed)'")
        case .unknownKind(let kind, let suggestion, let known):
            return "unknown kind '\(kind)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " (known kinds: \(known.sorted().joined(separator: ", ")))"
        case .unknownKey(let name, let suggestion):
            let what = key == nil ? "unknown key '\(name)'" : "unknown key"
            return what + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; remove it")
        case .unsupportedVersion(let value):
            return "unsupported version \(value); this Tributary reads version 1"
        case .invalidTimeZone(let value, let suggestion):
            return "unknown time zone '\(value)'"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "; use an IANA name such as 'Europe/Paris' or 'UTC'")
        case .adapterError(let detail):
            return detail
        }
    }
}
