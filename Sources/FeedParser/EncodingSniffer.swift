import CLibXML2
import Foundation
import TributaryCore

/// Chooses the character encoding libxml2 is told to use, before the first byte is parsed.
///
/// The rule (after feedparser and RFC 7303), in order:
/// 1. ``FeedParserOptions/encodingOverride`` wins over everything (a byte order mark is then skipped).
/// 2. A byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins over the HTTP charset and the declaration; an HTTP charset
///    that contradicts it is reported as a warning.
/// 3. An HTTP charset that libxml2 knows wins over the XML declaration, and a contradiction is reported as a
///    warning. `us-ascii` is the exception: it is the default servers send for `text/xml` and is almost always
///    wrong, so it never overrides a declaration.
/// 4. Otherwise libxml2 reads the XML declaration itself (UTF-8 when there is none), except that a declared
///    ISO-8859-1 is read as windows-1252, as browsers do.
enum EncodingSniffer {
    /// The encoding to force (`nil`: let libxml2 decide), how many leading bytes to skip, and warnings.
    static func choose(
        prefix: [UInt8],
        httpCharset: String?,
        override: String?
    ) -> (encoding: String?, skip: Int, warnings: [SourceWarning]) {
        let bom = byteOrderMark(prefix)
        if let override { return (override, bom?.length ?? 0, []) }
        let declared = declaredEncoding(prefix)
        guard let http = cleaned(httpCharset) else {
            // As browsers do (WHATWG Encoding), ISO-8859-1 is read as its superset windows-1252: feeds that say
            // Latin-1 routinely contain curly quotes and euro signs in the 0x80-0x9F range.
            if bom == nil, let declared, normalized(declared) == "iso88591" { return ("windows-1252", 0, []) }
            return (nil, 0, [])
        }
        if let bom {
            if normalized(http) != normalized(bom.name), !(normalized(http) == "utf16" && bom.name.hasPrefix("UTF-16"))
            {
                let message = "the HTTP charset '\(http)' contradicts the byte order mark (\(bom.name)); using the BOM"
                return (nil, 0, [SourceWarning(message, location: "encoding")])
            }
            return (nil, 0, [])
        }
        if normalized(http) == "usascii" || normalized(http) == "ascii" { return (nil, 0, []) }
        guard isKnown(http) else {
            let message = "the HTTP charset '\(http)' is unknown; using \(declared ?? "UTF-8") instead"
            return (nil, 0, [SourceWarning(message, location: "encoding")])
        }
        if let declared {
            if normalized(declared) != normalized(http) {
                let message =
                    "the HTTP charset '\(http)' contradicts the XML declaration (encoding=\"\(declared)\"); "
                    + "using '\(http)' as RFC 7303 says; fix the server's Content-Type or the declaration"
                return (http, 0, [SourceWarning(message, location: "encoding")])
            }
            return (nil, 0, [])
        }
        if normalized(http) == "utf8" { return (nil, 0, []) }
        return (http, 0, [])
    }

    /// Whether libxml2 (through iconv) can decode an encoding.
    static func isKnown(_ name: String) -> Bool {
        guard let handler = xmlFindCharEncodingHandler(name) else { return false }
        xmlCharEncCloseFunc(handler)
        return true
    }

    /// The encoding named in the XML declaration, read from an ASCII-compatible or UTF-16 prefix.
    static func declaredEncoding(_ prefix: [UInt8]) -> String? {
        var bytes = prefix.prefix(1024)
        if bytes.count >= 4, bytes[bytes.startIndex + 1] == 0 || bytes[bytes.startIndex] == 0 {
            bytes = ArraySlice(bytes.filter { $0 != 0 })
        }
        let bomLength = byteOrderMark(Array(bytes))?.length ?? 0
        let text = Array(bytes.dropFirst(bomLength))
        guard text.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: Array("?>".utf8), in: text) else {
            return nil
        }
        let declaration = String(decoding: text[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        let name = rest.prefix { $0 != quote }
        return name.isEmpty ? nil : String(name)
    }

    // MARK: - Private

    private static func byteOrderMark(_ bytes: [UInt8]) -> (name: String, length: Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
        return nil
    }

    private static func cleaned(_ charset: String?) -> String? {
        guard var value = charset?.trimmingCharacters(in: .whitespaces) else { return nil }
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            value = String(value.dropFirst().dropLast())
        }
        return value.isEmpty ? nil : value
    }

    private static func normalized(_ name: String) -> String {
        let compact = String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch compact {
        case "latin1", "iso88591", "l1": return "iso88591"
        case "sjis", "shiftjis", "xsjis", "mskanji", "csshiftjis": return "shiftjis"
        case "eucjp", "xeucjp": return "eucjp"
        case "cp1252", "windows1252", "xcp1252": return "windows1252"
        default: return compact
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
