import Foundation
import TributaryCore

/// Adds sources to feeds.json as a person would: new entries are appended to the `sources` array, one per line,
/// indented like the entries already there, and every other byte of the file (its layout, comments in titles, key
/// order) stays as it was. `import` and `add` both write through it.
struct FeedsFileEditor {
    /// One new entry: its keys in the order they are written.
    struct Entry: Equatable {
        var fields: [(key: String, value: String)]

        static func == (a: Entry, b: Entry) -> Bool {
            a.fields.map(\.key) == b.fields.map(\.key) && a.fields.map(\.value) == b.fields.map(\.value)
        }

        /// `{ "id": "…", "kind": "rss", … }` on one line.
        var json: String {
            "{ "
                + fields.map { "\(FeedsFileEditor.quoted($0.key)): \(FeedsFileEditor.quoted($0.value))" }
                .joined(separator: ", ") + " }"
        }
    }

    enum EditError: Error, CustomStringConvertible {
        case noSourcesArray

        var description: String {
            switch self {
            case .noSourcesArray: "it has no \"sources\" array to add to; run `tributary validate` and fix it first"
            }
        }
    }

    /// The text of a new feeds.json holding `entries`.
    static func newFile(with entries: [Entry]) -> String {
        "{\n  \"sources\": [\n" + entries.map { "    " + $0.json }.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// `text` with `entries` appended to its top-level `sources` array.
    static func appending(_ entries: [Entry], to text: String) throws(EditError) -> String {
        guard !entries.isEmpty else { return text }
        let bytes = Array(text.utf8)
        guard let (open, close) = sourcesArray(in: bytes) else { throw .noSourcesArray }
        // The last non-blank byte before `]` says whether the array is empty.
        var last = close - 1
        while last > open, isBlank(bytes[last]) { last -= 1 }
        let indent = indentation(ofFirstElementAfter: open, before: close, in: bytes) ?? "    "
        let closingIndent = lineIndentation(at: close, in: bytes)
        let lines = entries.map { indent + $0.json }.joined(separator: ",\n")
        var result = Array(bytes[..<(last + 1)])
        if last == open {
            result += Array("\n\(lines)\n\(closingIndent)".utf8)
        } else {
            result += Array(",\n\(lines)\n\(closingIndent)".utf8)
        }
        result += bytes[close...]
        return String(decoding: result, as: UTF8.self)
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    // MARK: - Private

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The offsets of the `[` and the matching `]` of the root object's `sources` value.
    private static func sourcesArray(in bytes: [UInt8]) -> (Int, Int)? {
        var depth = 0
        var index = 0
        var keyStart: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let start = index
                index = endOfString(from: index, in: bytes)
                // A key of the root object: a string at depth 1 followed by `:`.
                if depth == 1 {
                    var next = index + 1
                    while next < bytes.count, isBlank(bytes[next]) { next += 1 }
                    if next < bytes.count, bytes[next] == UInt8(ascii: ":") { keyStart = start }
                    if keyStart == start, String(decoding: bytes[(start + 1)..<index], as: UTF8.self) == "sources" {
                        var value = next + 1
                        while value < bytes.count, isBlank(bytes[value]) { value += 1 }
                        guard value < bytes.count, bytes[value] == UInt8(ascii: "[") else { return nil }
                        guard let close = matchingBracket(from: value, in: bytes) else { return nil }
                        return (value, close)
                    }
                }
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
            }
            index += 1
        }
        return nil
    }

    /// The offset of the `"` that ends the string starting at `start`.
    private static func endOfString(from start: Int, in bytes: [UInt8]) -> Int {
        var index = start + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") { index += 1 }
            index += 1
        }
        return index
    }

    private static func matchingBracket(from open: Int, in bytes: [UInt8]) -> Int? {
        var depth = 0
        var index = open
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): index = endOfString(from: index, in: bytes)
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The spaces before the array's first element, when it starts a line.
    private static func indentation(ofFirstElementAfter open: Int, before close: Int, in bytes: [UInt8]) -> String? {
        var index = open + 1
        while index < close, isBlank(bytes[index]) { index += 1 }
        guard index < close else { return nil }
        var start = index
        while start > open + 1, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start > 0, bytes[start - 1] == 0x0A else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The spaces and tabs that start the line holding `offset`, when only they come before it.
    private static func lineIndentation(at offset: Int, in bytes: [UInt8]) -> String {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return "" }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }
}
