import Foundation
import Synchronization

/// Decodes a `Decodable` straight from a ``JSONValue``, for adapter options.
///
/// Foundation's `JSONDecoder` (swift-foundation, Swift 6.3) reports a number that does not fit the property's
/// type (`"seed": 1.5` for an `Int`) as "not valid JSON" with an empty coding path, which would lose the key the
/// user has to fix; this decoder keeps the path for every error. Like `JSONDecoder`, it reads a `URL` from a
/// string and ignores keys the type does not ask for.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    /// Decodes `type` from `value`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try unbox(value, as: type, codingPath: [])
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw Self.mismatch([String: JSONValue].self, value, codingPath, "an object")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw Self.mismatch([JSONValue].self, value, codingPath, "an array")
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    // MARK: - Unboxing

    static func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, codingPath: [any CodingKey]) throws -> T {
        // Other types (Optional, JSONValue, …) decide for themselves what null means.
        let isPrimitive =
            type is Bool.Type || type is String.Type || type is Double.Type || type is Float.Type
            || type is any FixedWidthInteger.Type || type is URL.Type
        if case .null = value, isPrimitive {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(codingPath: codingPath, debugDescription: "Found null.")
            )
        }
        let result: Any
        switch type {
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch(type, value, codingPath, "a boolean") }
            result = flag
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch(type, value, codingPath, "a string") }
            result = text
        case is Double.Type:
            guard case .number(let number) = value else { throw mismatch(type, value, codingPath, "a number") }
            result = number
        case is Float.Type:
            guard case .number(let number) = value else { throw mismatch(type, value, codingPath, "a number") }
            result = Float(number)
        case let integer as any FixedWidthInteger.Type:
            result = try unboxInteger(value, as: integer, codingPath: codingPath)
        case is URL.Type:
            guard case .string(let text) = value else { throw mismatch(type, value, codingPath, "a string") }
            guard !text.isEmpty, let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: codingPath, debugDescription: "expected a URL")
                )
            }
            result = url
        default:
            return try T(from: JSONValueDecoder(value: value, codingPath: codingPath))
        }
        guard let typed = result as? T else {
            throw mismatch(type, value, codingPath, String(describing: type))
        }
        return typed
    }

    private static func unboxInteger<I: FixedWidthInteger>(
        _ value: JSONValue,
        as type: I.Type,
        codingPath: [any CodingKey]
    ) throws -> I {
        guard case .number(let number) = value else { throw mismatch(type, value, codingPath, "an integer") }
        guard let integer = I(exactly: number) else {
            let what = number.rounded() == number ? "a whole number in range" : "a whole number"
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(what)")
            )
        }
        return integer
    }

    private static func mismatch(
        _ type: Any.Type,
        _ value: JSONValue,
        _ codingPath: [any CodingKey],
        _ expected: String
    ) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: codingPath, debugDescription: "Expected \(expected).")
        )
    }
}

/// A key made at run time, for array indices in coding paths.
private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init?(intValue: Int) {
        self.init(intValue)
    }
}

extension JSONValueDecoder {
    /// The keys an `Options` type asks for while it is decoded, as dotted paths (`url`, `simulate.seed`; `env.*`
    /// when it reads whatever keys an object has): what the code accepts, for the test that holds the documentation
    /// and feeds.schema.json to it.
    final class KeyLog: Sendable {
        private let keys = Mutex<Set<String>>([])

        var recorded: Set<String> { keys.withLock { $0 } }

        func record(_ path: [any CodingKey], _ key: String) {
            let prefix = path.filter { $0.intValue == nil }.map(\.stringValue)
            keys.withLock { _ = $0.insert((prefix + [key]).joined(separator: ".")) }
        }
    }

    /// Where ``KeyedContainer`` records the keys asked for, when a caller set one.
    @TaskLocal static var keyLog: KeyLog?
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        JSONValueDecoder.keyLog?.record(codingPath, "*")
        return object.keys.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        JSONValueDecoder.keyLog?.record(codingPath, key.stringValue)
        return object[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        JSONValueDecoder.keyLog?.record(codingPath, key.stringValue)
        if case .null = try member(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, forKey: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        JSONValueDecoder.keyLog?.record(codingPath, key.stringValue)
        return try JSONValueDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(value: .object(object), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(codingPath: codingPath, debugDescription: "No value for this key.")
            )
        }
        return value
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        JSONValueDecoder.keyLog?.record(codingPath, key.stringValue)
        return try JSONValueDecoder.unbox(member(key), as: type, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try next(Never?.self, advance: false) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeNext(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(currentIndex)]
        let container = try JSONValueDecoder(value: next(type), codingPath: path).container(keyedBy: type)
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = codingPath + [IndexKey(currentIndex)]
        return try JSONValueDecoder(value: next([JSONValue].self), codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = codingPath + [IndexKey(currentIndex)]
        return JSONValueDecoder(value: try next(JSONValue.self), codingPath: path)
    }

    private mutating func next(_ type: Any.Type, advance: Bool = true) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(currentIndex)],
                    debugDescription: "Unkeyed container is at end."
                )
            )
        }
        let value = elements[currentIndex]
        if advance { currentIndex += 1 }
        return value
    }

    private mutating func decodeNext<T: Decodable>(_ type: T.Type) throws -> T {
        let path = codingPath + [IndexKey(currentIndex)]
        let value = try next(type, advance: false)
        let result = try JSONValueDecoder.unbox(value, as: type, codingPath: path)
        currentIndex += 1
        return result
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: String.Type) throws -> String {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: Double.Type) throws -> Double {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: Float.Type) throws -> Float {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: Int.Type) throws -> Int { try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: UInt.Type) throws -> UInt {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder.unbox(value, as: type, codingPath: codingPath)
    }
}
