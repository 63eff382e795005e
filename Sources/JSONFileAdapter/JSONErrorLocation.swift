import Foundation

/// Finds the line and column of a syntax error that Foundation reported, for the rare input the strict
/// ``JSONSyntaxValidator`` accepts and Foundation still refuses.
///
/// Foundation says where in one of three ways, depending on platform and version: a byte offset in the underlying
/// `NSError` (`NSJSONSerializationErrorIndex`), "around line X, column Y" in the message, or "around character N".
/// The first one present wins; with none, the error is placed at the start of the document.
enum JSONErrorLocation {
    static func position(of context: DecodingError.Context, in bytes: [UInt8]) -> TextPosition {
        let underlying = context.underlyingError.map { $0 as NSError }
        if let offset = underlying?.userInfo["NSJSONSerializationErrorIndex"] as? Int {
            return TextPosition(byteOffset: offset, in: bytes)
        }
        let messages =
            [context.debugDescription] + [underlying?.userInfo[NSDebugDescriptionErrorKey] as? String].compactMap { $0 }
        for message in messages {
            if let numbers = numbers(after: ["line ", ", column "], in: message) {
                return TextPosition(line: numbers[0], column: numbers[1])
            }
            if let numbers = numbers(after: ["character "], in: message) {
                return TextPosition(byteOffset: numbers[0], in: bytes)
            }
        }
        return TextPosition(line: 1, column: 1)
    }

    /// The integers that follow each of `labels`, in order, in `message`; `nil` unless all are found.
    static func numbers(after labels: [String], in message: String) -> [Int]? {
        var rest = Substring(message)
        var numbers: [Int] = []
        for label in labels {
            guard let range = rest.range(of: label) else { return nil }
            rest = rest[range.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let number = Int(digits) else { return nil }
            numbers.append(number)
            rest = rest[digits.endIndex...]
        }
        return numbers
    }
}
