/// The RFC 8259 parser behind ``LocatedJSON/parse(_:maximumDepth:allowsDuplicateKeys:)``.
///
/// It keeps its own stack of open arrays and objects instead of recursing, so the nesting limit, not the thread's
/// stack size, decides how deep a document may go. Every byte is consumed through ``advance()``, which keeps the
/// line and the column (in Unicode scalars) in step with the index.
struct LocatedJSONParser {
    private let bytes: [UInt8]
    private let maximumDepth: Int
    private let allowsDuplicateKeys: Bool
    private var index = 0
    private var line = 1
    private var column = 1

    /// An array or object that is open while its children are parsed.
    private struct Frame {
        var isObject: Bool
        var position: JSONPosition
        var elements: [LocatedJSON] = []
        var members: [LocatedJSON.Member] = []
        var pendingKey = ""
        var pendingKeyPosition = JSONPosition(line: 0, column: 0)
        var keyPositions: [String: JSONPosition] = [:]
    }

    init(bytes: [UInt8], maximumDepth: Int, allowsDuplicateKeys: Bool = false) {
        self.allowsDuplicateKeys = allowsDuplicateKeys
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> LocatedJSON {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
        {
            // JSON exchanged between systems must be UTF-8 (RFC 8259 §8.1). A UTF-16 or UTF-32 byte order mark, or
            // a NUL among the first two bytes (ASCII text in a wider encoding), is named as such rather than as
            // the first odd byte.
            throw error("the file is UTF-16 or UTF-32; save it as UTF-8")
        }
        var stack: [Frame] = []
        while true {
            skipWhitespace()
            // Parse one value; containers open a frame and go round again for their first child.
            let start = position
            var completed: LocatedJSON
            guard let byte = peek() else {
                if stack.isEmpty { throw error("expected a JSON value, found the end of the file") }
                throw error("expected a value, found the end of the file")
            }
            switch byte {
            case UInt8(ascii: "{"):
                guard stack.count < maximumDepth else {
                    throw error("arrays and objects nest deeper than \(maximumDepth) levels")
                }
                advance()
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    advance()
                    completed = LocatedJSON(.object([]), at: start)
                } else {
                    var frame = Frame(isObject: true, position: start)
                    try parseKey(into: &frame, afterComma: nil)
                    stack.append(frame)
                    continue
                }
            case UInt8(ascii: "["):
                guard stack.count < maximumDepth else {
                    throw error("arrays and objects nest deeper than \(maximumDepth) levels")
                }
                advance()
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    advance()
                    completed = LocatedJSON(.array([]), at: start)
                } else {
                    stack.append(Frame(isObject: false, position: start))
                    continue
                }
            default:
                completed = LocatedJSON(try parseScalar(), at: start)
            }

            // Hand the finished value to its container; close containers as long as they end here.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if let extra = peek() {
                        throw error("unexpected \(describe(extra)) after the end of the JSON value")
                    }
                    return completed
                }
                let top = stack.count - 1
                skipWhitespace()
                if stack[top].isObject {
                    stack[top].members.append(
                        LocatedJSON.Member(
                            key: stack[top].pendingKey,
                            keyPosition: stack[top].pendingKeyPosition,
                            value: completed
                        )
                    )
                    switch peek() {
                    case UInt8(ascii: ","):
                        let comma = position
                        advance()
                        try parseKey(into: &stack[top], afterComma: comma)
                    case UInt8(ascii: "}"):
                        advance()
                        let frame = stack.removeLast()
                        completed = LocatedJSON(.object(frame.members), at: frame.position)
                        continue
                    case nil:
                        throw error("expected ',' or '}' after object member, found the end of the file")
                    case let other?:
                        throw error("expected ',' or '}' after object member, found \(describe(other))")
                    }
                } else {
                    stack[top].elements.append(completed)
                    switch peek() {
                    case UInt8(ascii: ","):
                        let comma = position
                        advance()
                        skipWhitespace()
                        if peek() == UInt8(ascii: "]") {
                            throw JSONSyntaxError(
                                position: comma,
                                detail: "trailing comma before ']'; remove the comma"
                            )
                        }
                    case UInt8(ascii: "]"):
                        advance()
                        let frame = stack.removeLast()
                        completed = LocatedJSON(.array(frame.elements), at: frame.position)
                        continue
                    case nil:
                        throw error("expected ',' or ']' after array element, found the end of the file")
                    case let other?:
                        throw error("expected ',' or ']' after array element, found \(describe(other))")
                    }
                }
                break
            }
        }
    }

    // MARK: - Private

    private var position: JSONPosition { JSONPosition(line: line, column: column) }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// Consumes one byte, keeping line and column in step: a new line after `\n`, `\r\n` or a lone `\r`, and one
    /// column per Unicode scalar (UTF-8 continuation bytes add none).
    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            if index >= 2, bytes[index - 2] == UInt8(ascii: "\r") { return }
            line += 1
            column = 1
        } else if byte == UInt8(ascii: "\r") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            advance()
        }
    }

    private func error(_ detail: String) -> JSONSyntaxError {
        JSONSyntaxError(position: position, detail: detail)
    }

    /// Parses `"key" :` after an object's `{` or `,`, leaving the parser at the member's value.
    /// - Parameter afterComma: where the comma before the key is, or `nil` right after `{`.
    private mutating func parseKey(into frame: inout Frame, afterComma comma: JSONPosition?) throws(JSONSyntaxError) {
        skipWhitespace()
        guard let byte = peek() else {
            throw error("expected a string key or '}', found the end of the file")
        }
        if let comma, byte == UInt8(ascii: "}") {
            throw JSONSyntaxError(position: comma, detail: "trailing comma before '}'; remove the comma")
        }
        guard byte == UInt8(ascii: "\"") else {
            if byte == UInt8(ascii: "'") { throw error("keys must be in double quotes, not single quotes") }
            throw error("expected a string key in double quotes, found \(describe(byte))")
        }
        let keyPosition = position
        let key = try parseString()
        if !allowsDuplicateKeys, let first = frame.keyPositions[key] {
            throw JSONSyntaxError(
                position: keyPosition,
                detail: "duplicate key \"\(key)\" (first at line \(first.line), column \(first.column)); remove one"
            )
        }
        frame.keyPositions[key] = keyPosition
        frame.pendingKey = key
        frame.pendingKeyPosition = keyPosition
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            throw error(
                "expected ':' after object key \"\(key)\", found \(peek().map(describe) ?? "the end of the file")"
            )
        }
        advance()
    }

    private mutating func parseScalar() throws(JSONSyntaxError) -> LocatedJSON.Value {
        guard let byte = peek() else { throw error("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try parseLiteral()
        case UInt8(ascii: "'"):
            throw error("strings must be in double quotes, not single quotes")
        case UInt8(ascii: "/"):
            throw error("comments are not allowed in JSON")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            throw error("expected a value, found \(describe(byte))")
        default:
            if isLetter(byte) { return try parseLiteral() }
            throw error("expected a value, found \(describe(byte))")
        }
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private mutating func parseLiteral() throws(JSONSyntaxError) -> LocatedJSON.Value {
        let start = position
        var word: [UInt8] = []
        while let byte = peek(), isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
            word.append(byte)
            advance()
        }
        switch String(decoding: word, as: UTF8.self) {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case let other:
            throw JSONSyntaxError(
                position: start,
                detail: "invalid literal '\(other)'; expected true, false, null, a number, or a string in double quotes"
            )
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let startIndex = index
        let start = position
        if peek() == UInt8(ascii: "-") { advance() }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit after '-'") }
        advance()
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw JSONSyntaxError(position: start, detail: "numbers cannot start with a leading zero")
        }
        while let byte = peek(), isDigit(byte) { advance() }
        if peek() == UInt8(ascii: ".") {
            advance()
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit after the decimal point") }
            while let byte = peek(), isDigit(byte) { advance() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            advance()
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { advance() }
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { advance() }
        }
        let text = String(decoding: bytes[startIndex..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(position: start, detail: "number \(text) is out of range")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // the opening quote
        var scalars = String.UnicodeScalarView()
        while true {
            guard let byte = peek() else {
                throw JSONSyntaxError(
                    position: start,
                    detail: "unterminated string: no closing '\"' before the end of the file"
                )
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try parseEscape())
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw JSONSyntaxError(
                    position: start,
                    detail: "unterminated string: no closing '\"' before the end of the line"
                )
            case 0x00..<0x20:
                throw error(
                    "control character \(hex(byte)) in string; write it as an escape such as \\t or \\u00\(hexDigits(byte))"
                )
            case 0x00..<0x80:
                scalars.append(Unicode.Scalar(byte))
                advance()
            default:
                guard let (scalar, length) = decodeUTF8(at: index) else {
                    throw error("invalid UTF-8 byte 0x\(hexDigits(byte)); save the file as UTF-8")
                }
                scalars.append(scalar)
                for _ in 0..<length { advance() }
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = position
        advance()  // the backslash
        guard let byte = peek() else {
            throw error("unterminated string: no closing '\"' before the end of the file")
        }
        advance()
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: start)
            if (0xDC00...0xDFFF).contains(unit) {
                throw JSONSyntaxError(position: start, detail: "unpaired low surrogate \\u\(hex4(unit)) in string")
            }
            if (0xD800...0xDBFF).contains(unit) {
                let lowStart = position
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw JSONSyntaxError(position: start, detail: "unpaired high surrogate \\u\(hex4(unit)) in string")
                }
                advance()
                advance()
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError(position: start, detail: "unpaired high surrogate \\u\(hex4(unit)) in string")
                }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else {
                    throw JSONSyntaxError(position: start, detail: "invalid surrogate pair in string")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else {
                throw JSONSyntaxError(position: start, detail: "invalid \\u escape in string")
            }
            return scalar
        default:
            throw JSONSyntaxError(
                position: start,
                detail:
                    "invalid escape '\\\(describeRaw(byte))' in string; use \\\\, \\\", \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
            )
        }
    }

    private mutating func parseHex4(escapeStart: JSONPosition) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexValue(byte) else {
                throw JSONSyntaxError(position: escapeStart, detail: "\\u must be followed by four hex digits")
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Decodes one well-formed UTF-8 sequence (no overlongs, no surrogates, nothing above U+10FFFF).
    private func decodeUTF8(at start: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[start]
        let length: Int
        var value: UInt32
        let minimum: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value, minimum) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, value, minimum) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, value, minimum) = (4, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard start + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[start + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// Names a byte for a message: `'x'`, `U+0007`, or the character it starts.
    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Unicode.Scalar(byte))'" }
        if byte < 0x80 { return hex(byte) }
        if let (scalar, _) = decodeUTF8(at: index) { return "'\(scalar)'" }
        return "invalid UTF-8 byte 0x\(hexDigits(byte))"
    }

    private func describeRaw(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Unicode.Scalar(byte)) : hex(byte)
    }

    private func hex(_ byte: UInt8) -> String { "U+00\(hexDigits(byte))" }

    private func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private func hex4(_ value: UInt32) -> String {
        hexDigits(UInt8(value >> 8)) + hexDigits(UInt8(value & 0xFF))
    }
}
