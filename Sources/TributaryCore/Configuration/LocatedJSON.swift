public import Foundation

/// A parsed JSON document in which every value knows where it starts in the text, so that messages about a
/// value (a bad duration, an unknown kind) can name its line and column.
///
/// The parser follows RFC 8259 strictly: UTF-8 input (a leading byte order mark is skipped; UTF-16 and UTF-32 are
/// refused as such), no comments, no trailing commas, no duplicate keys within one object. It is iterative, with a nesting limit, so hostile input
/// cannot overflow the stack. Use ``jsonValue`` to drop the positions.
public struct LocatedJSON: Sendable, Hashable {
    /// The nesting depth ``parse(_:maximumDepth:allowsDuplicateKeys:)`` accepts by default.
    public static let defaultMaximumDepth = 512

    /// A JSON value whose children are themselves located.
    public indirect enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([LocatedJSON])
        /// The members in the order written (the parser rejects duplicate keys).
        case object([Member])
    }

    /// One `"key": value` member of an object.
    public struct Member: Sendable, Hashable {
        /// The key, unescaped.
        public var key: String
        /// Where the key's opening quote is.
        public var keyPosition: JSONPosition
        /// The member's value.
        public var value: LocatedJSON

        /// Creates a member.
        public init(key: String, keyPosition: JSONPosition, value: LocatedJSON) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    /// The value.
    public var value: Value
    /// Where the value's first character is.
    public var position: JSONPosition

    /// Creates a located value.
    public init(_ value: Value, at position: JSONPosition) {
        self.value = value
        self.position = position
    }

    /// The 1-based line where the value starts.
    public var line: Int { position.line }
    /// The 1-based column (in characters) where the value starts.
    public var column: Int { position.column }

    /// Parses a whole JSON document.
    /// - Parameters:
    ///   - data: UTF-8 JSON text, optionally starting with a byte order mark.
    ///   - maximumDepth: how deeply arrays and objects may nest.
    ///   - allowsDuplicateKeys: whether a key may appear twice in one object. RFC 8259 only says names SHOULD be
    ///     unique: feeds.json refuses duplicates (one of them is a mistake), feeds from elsewhere are read as
    ///     tolerantly as other readers read them.
    /// - Throws: ``JSONSyntaxError`` naming the line, the column and what was expected there.
    public static func parse(
        _ data: Data,
        maximumDepth: Int = defaultMaximumDepth,
        allowsDuplicateKeys: Bool = false
    ) throws(JSONSyntaxError) -> LocatedJSON {
        var parser = LocatedJSONParser(
            bytes: [UInt8](data),
            maximumDepth: maximumDepth,
            allowsDuplicateKeys: allowsDuplicateKeys
        )
        return try parser.parseDocument()
    }

    /// The same value without positions.
    public var jsonValue: JSONValue {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .object(let members):
            var object: [String: JSONValue] = [:]
            for member in members { object[member.key] = member.value.jsonValue }
            return .object(object)
        }
    }

    /// The members, if this value is an object.
    public var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements, if this value is an array.
    public var elements: [LocatedJSON]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The member with this key, if this value is an object that has it.
    public func member(_ key: String) -> Member? {
        members?.first { $0.key == key }
    }

    /// The value of the member with this key, if this value is an object that has it.
    public subscript(key: String) -> LocatedJSON? {
        member(key)?.value
    }

    /// What kind of JSON value this is, as messages say it: "a string", "an array", ….
    public var typeDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
