import Foundation

/// Turns a `DecodingError` into one line that names the member, such as
/// `date_published: 'yesterday' is not an RFC 3339 date`, instead of Foundation's multi-line dump.
enum DecodingErrorText {
    /// Describes `error`, naming members relative to the decoded value: `droppingFirst` leading path components
    /// (such as `items` and the item's index) are left out.
    static func describe(_ error: any Error, droppingFirst dropped: Int = 0) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .typeMismatch(let type, let context):
            // Foundation says "Expected to decode String but found number instead."; keep only what was found.
            var message = "must be \(typeName(type))"
            if let start = context.debugDescription.range(of: "but found "),
                let end = context.debugDescription.range(
                    of: " instead",
                    range: start.upperBound..<context.debugDescription.endIndex
                )
            {
                message += " (found \(context.debugDescription[start.upperBound..<end.lowerBound]))"
            }
            return located(context.codingPath, dropped, message)
        case .valueNotFound(let type, let context):
            return located(context.codingPath, dropped, "is null, but must be \(typeName(type))")
        case .keyNotFound(let key, let context):
            return located(context.codingPath + [key], dropped, "is required but missing")
        case .dataCorrupted(let context):
            return located(context.codingPath, dropped, context.debugDescription)
        @unknown default:
            return String(describing: error)
        }
    }

    private static func located(_ path: [any CodingKey], _ dropped: Int, _ message: String) -> String {
        var text = ""
        for key in path.dropFirst(dropped) {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? message : "\(text): \(message)"
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
