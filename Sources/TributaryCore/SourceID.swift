/// The identifier of one source in feeds.json: non-empty, lower-case ASCII letters, digits and `-`.
///
/// A source id is stamped on every item the source emits (`_tributary.source`) and names the source in every
/// message, so it is kept short and stable.
public struct SourceID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    /// Creates an id without validating it; use ``isValid`` to check ids that come from users.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether the id matches `[a-z0-9-]+`, the form feeds.json requires.
    /// `Swift Org` → `swift-org`: the letters and digits of `text`, lower-cased, other runs as one `-`; empty when
    /// it has none (a Japanese title). The invalid-id hint and the ids `import` and `add` make come from here.
    public static func slug(_ text: String, maxLength: Int = 40) -> String {
        var result = ""
        for scalar in text.lowercased().unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty, !result.hasSuffix("-") {
                result += "-"
            }
            if result.count >= maxLength { break }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result
    }

    public var isValid: Bool {
        !rawValue.isEmpty
            && rawValue.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            }
    }

    public var description: String { rawValue }

    public static func < (lhs: SourceID, rhs: SourceID) -> Bool { lhs.rawValue < rhs.rawValue }
}
