import TributaryCore

extension JSONValue {
    /// The JSON type of the value, as messages name it: "a string", "an object".
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
