/// A strict RFC 8259 syntax check that finds the first invalid byte of a JSON document.
///
/// Foundation's `JSONDecoder` on Linux reports a syntax error without any position, and it quietly accepts some
/// invalid input, such as a trailing comma in an object (see `Fixtures/trailing-comma.json`). Running this check
/// first gives every syntax error an exact line and column and makes the adapter equally strict on every platform.
///
/// The check is iterative, with an explicit stack and a depth limit, so a hostile file of a million `[` cannot
/// overflow the call stack.
struct JSONSyntaxValidator {
    /// The first syntax error of a document: where it is and what is wrong.
    struct Failure: Error, Hashable, Sendable {
        /// The offset of the offending byte; the data's length when the input ends too early.
        var byteOffset: Int
        /// What is wrong, in words a person editing the file understands.
        var message: String
    }

    /// The deepest nesting of arrays and objects accepted; deeper input is reported, not parsed.
    static let maximumDepth = 512

    private enum Container {
        case object
        case array
    }

    private let bytes: [UInt8]
    private var cursor = 0
    private var stack: [Container] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Checks `bytes` and returns the first syntax error, or `nil` when the document is valid JSON.
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var validator = JSONSyntaxValidator(bytes: bytes)
        do {
            try validator.validateDocument()
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Private

    private mutating func validateDocument() throws(Failure) {
        skipWhitespace()
        if cursor == bytes.count {
            throw Failure(
                byteOffset: cursor,
                message: bytes.isEmpty ? "the file is empty" : "the file holds only whitespace"
            )
        }
        try value()
        while true {
            skipWhitespace()
            guard let container = stack.last else {
                guard cursor == bytes.count else {
                    throw failure("unexpected \(describe(bytes[cursor])) after the end of the JSON document")
                }
                return
            }
            guard cursor < bytes.count else {
                throw failure(
                    container == .object
                        ? "unexpected end of file inside an object; a '}' is missing"
                        : "unexpected end of file inside an array; a ']' is missing"
                )
            }
            let byte = bytes[cursor]
            switch (container, byte) {
            case (.object, UInt8(ascii: "}")), (.array, UInt8(ascii: "]")):
                cursor += 1
                stack.removeLast()
            case (_, UInt8(ascii: ",")):
                let comma = cursor
                cursor += 1
                skipWhitespace()
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: container == .object ? "}" : "]") {
                    throw Failure(
                        byteOffset: comma,
                        message: "trailing comma before '\(container == .object ? "}" : "]")'; remove the comma"
                    )
                }
                if container == .object { try member() } else { try value() }
            case (.object, _):
                throw failure("expected ',' or '}' after an object member, found \(describe(byte))")
            case (.array, _):
                throw failure("expected ',' or ']' after an array element, found \(describe(byte))")
            }
        }
    }

    /// Reads one value. An opened array or object is left on the stack for ``validateDocument()`` to continue, so
    /// nesting costs no recursion.
    private mutating func value() throws(Failure) {
        skipWhitespace()
        guard cursor < bytes.count else { throw failure("unexpected end of file; expected a value") }
        switch bytes[cursor] {
        case UInt8(ascii: "{"):
            try push(.object)
            skipWhitespace()
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "}") {
                cursor += 1
                stack.removeLast()
            } else {
                try member()
            }
        case UInt8(ascii: "["):
            try push(.array)
            skipWhitespace()
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "]") {
                cursor += 1
                stack.removeLast()
            } else {
                try value()
            }
        case UInt8(ascii: "\""):
            try string()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        case let byte:
            throw failure(
                "expected a value, found \(describe(byte))\(byte == UInt8(ascii: "'") ? "; JSON strings use double quotes" : "")"
            )
        }
    }

    /// Reads `"key": ` and then the member's value.
    private mutating func member() throws(Failure) {
        skipWhitespace()
        guard cursor < bytes.count else { throw failure("unexpected end of file inside an object; a '}' is missing") }
        guard bytes[cursor] == UInt8(ascii: "\"") else {
            throw failure("expected a member name in double quotes, found \(describe(bytes[cursor]))")
        }
        try string()
        skipWhitespace()
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else {
            throw failure(
                cursor < bytes.count
                    ? "expected ':' after the member name, found \(describe(bytes[cursor]))"
                    : "unexpected end of file; expected ':' after the member name"
            )
        }
        cursor += 1
        try value()
    }

    private mutating func push(_ container: Container) throws(Failure) {
        guard stack.count < Self.maximumDepth else {
            throw failure("arrays and objects are nested more than \(Self.maximumDepth) levels deep")
        }
        stack.append(container)
        cursor += 1
    }

    private mutating func string() throws(Failure) {
        cursor += 1  // the opening quote
        while cursor < bytes.count {
            let byte = bytes[cursor]
            switch byte {
            case UInt8(ascii: "\""):
                cursor += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw failure("the string is not closed before the end of the line; add the closing '\"'")
            case 0x00..<0x20:
                throw failure("control character \(describe(byte)) inside a string; write it as an escape such as \\t")
            case 0x80...:
                try utf8Scalar()
            default:
                cursor += 1
            }
        }
        throw failure("unexpected end of file inside a string; add the closing '\"'")
    }

    private mutating func escape() throws(Failure) {
        let start = cursor
        cursor += 1
        guard cursor < bytes.count else { throw failure("unexpected end of file inside a string escape") }
        switch bytes[cursor] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            cursor += 1
        case UInt8(ascii: "u"):
            cursor += 1
            for _ in 0..<4 {
                guard cursor < bytes.count, Self.isHexDigit(bytes[cursor]) else {
                    throw Failure(byteOffset: start, message: "invalid \\u escape; it takes exactly four hex digits")
                }
                cursor += 1
            }
        default:
            throw Failure(
                byteOffset: start,
                message: "invalid escape '\\\(describeBare(bytes[cursor]))' inside a string"
            )
        }
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
    private mutating func utf8Scalar() throws(Failure) {
        let lead = bytes[cursor]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF4:
            length = 4
            highest = 0x8F
        case 0xF1...0xF3: length = 4
        default:
            throw failure("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true)); save the file as UTF-8")
        }
        for index in 1..<length {
            let position = cursor + index
            let low = index == 1 ? lowest : 0x80
            let high = index == 1 ? highest : 0xBF
            guard position < bytes.count, bytes[position] >= low, bytes[position] <= high else {
                throw failure("invalid UTF-8 sequence; save the file as UTF-8")
            }
        }
        cursor += length
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let start = cursor
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard cursor < bytes.count, bytes[cursor] == byte else {
                throw Failure(byteOffset: start, message: "invalid literal; expected true, false or null")
            }
            cursor += 1
        }
        if cursor < bytes.count, Self.isLetterOrDigit(bytes[cursor]) {
            throw Failure(byteOffset: start, message: "invalid literal; expected true, false or null")
        }
    }

    private mutating func number() throws(Failure) {
        if bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
        guard cursor < bytes.count, Self.isDigit(bytes[cursor]) else {
            throw failure("invalid number; expected a digit after '-'")
        }
        if bytes[cursor] == UInt8(ascii: "0") {
            cursor += 1
            if cursor < bytes.count, Self.isDigit(bytes[cursor]) {
                throw failure("invalid number; a number may not start with a leading zero")
            }
        } else {
            skipDigits()
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            cursor += 1
            guard cursor < bytes.count, Self.isDigit(bytes[cursor]) else {
                throw failure("invalid number; expected a digit after '.'")
            }
            skipDigits()
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            guard cursor < bytes.count, Self.isDigit(bytes[cursor]) else {
                throw failure("invalid number; expected a digit in the exponent")
            }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while cursor < bytes.count, Self.isDigit(bytes[cursor]) { cursor += 1 }
    }

    private mutating func skipWhitespace() {
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): cursor += 1
            default: return
            }
        }
    }

    private func failure(_ message: String) -> Failure {
        Failure(byteOffset: cursor, message: message)
    }

    /// A byte as the message shows it: `'x'` for printable ASCII, `end of line` and the like, else hex.
    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): "end of line"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    private func describeBare(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "0x\(String(byte, radix: 16))"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
}
