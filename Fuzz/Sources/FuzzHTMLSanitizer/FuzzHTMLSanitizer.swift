import Foundation
import HTMLSanitizer

private let sanitizer = HTMLSanitizer()
private let libxml2Only = HTMLSanitizer(options: .init(readsSimpleFragmentsDirectly: false))
private let base = URL(string: "https://example.org/posts/item.html")

/// Sanitizes the input (as UTF-8, invalid bytes replaced) and checks what must hold for every output: it is made
/// only of allowed tags with allowed, double-quoted, escaped attributes and escaped text, every element is closed
/// in order, URLs are http, https, mailto or relative, sanitizing it again changes nothing, and the output is the
/// same when every fragment goes through libxml2 (no fragment read directly). A violated property traps, which
/// libFuzzer reports as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLSanitizer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes =
        start.map { UnsafeRawBufferPointer(start: $0, count: count) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
    let html = String(decoding: bytes, as: UTF8.self)
    for baseURL in [base, nil] {
        let output = sanitizer.sanitize(html, baseURL: baseURL)
        if let problem = OutputChecker.problem(in: output) {
            fatalError("unsafe or malformed output (\(problem)): \(output.debugDescription)")
        }
        let reference = libxml2Only.sanitize(html, baseURL: baseURL)
        if reference != output {
            fatalError(
                "read directly, not as libxml2 reads it:\n\(output.debugDescription)\n\(reference.debugDescription)"
            )
        }
        let again = sanitizer.sanitize(output, baseURL: baseURL)
        if again != output {
            fatalError("not idempotent:\n\(output.debugDescription)\n\(again.debugDescription)")
        }
    }
    _ = sanitizer.plainText(html)
    return 0
}

/// An independent reading of the sanitizer's output grammar (it does not share the sanitizer's tables).
enum OutputChecker {
    static let elements: Set<String> = [
        "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code",
        "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "footer",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre",
        "q", "rp", "rt", "ruby", "s", "samp", "section", "small", "span", "strike", "strong", "sub", "summary", "sup",
        "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "tt", "u", "ul", "var", "wbr",
    ]
    static let voidElements: Set<String> = ["br", "col", "hr", "img", "wbr"]
    static let attributes: Set<String> = [
        "title", "lang", "dir", "href", "hreflang", "rel", "target", "src", "alt", "width", "height", "cite",
        "datetime", "colspan", "rowspan", "scope", "span", "start", "reversed", "type", "value", "open",
    ]
    static let urlAttributes: Set<String> = ["href", "src", "cite"]

    /// What is wrong with `output`, or `nil`.
    static func problem(in output: String) -> String? {
        let scalars = Array(output.unicodeScalars)
        var open: [String] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case ">": return "a bare >"
            case "&":
                guard let end = scalars[index...].firstIndex(of: ";") else { return "a bare &" }
                let reference = String(String.UnicodeScalarView(scalars[index...end]))
                guard ["&amp;", "&lt;", "&gt;", "&quot;"].contains(reference) else { return "reference \(reference)" }
                index = end + 1
            case "<":
                guard let end = scalars[index...].firstIndex(of: ">") else { return "an unclosed tag" }
                let tag = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                if let problem = check(tag: tag, open: &open) { return problem }
                index = end + 1
            default:
                if scalar.value < 0x20, ![0x09, 0x0A, 0x0C].contains(scalar.value) { return "a control character" }
                if scalar.value == 0x7F { return "DEL" }
                index += 1
            }
        }
        return open.isEmpty ? nil : "unclosed \(open)"
    }

    private static func check(tag: String, open: inout [String]) -> String? {
        if tag.hasPrefix("/") {
            let name = String(tag.dropFirst())
            guard open.last == name else { return "</\(name)> closes \(open.last ?? "nothing")" }
            open.removeLast()
            return nil
        }
        var rest = Substring(tag)
        let name = String(rest.prefix { $0 != " " })
        guard elements.contains(name) else { return "element <\(name)>" }
        rest = rest.dropFirst(name.count)
        // Void elements are written `<br />`: the slash closes nothing and is no attribute.
        if voidElements.contains(name), rest.hasSuffix(" /") { rest = rest.dropLast(2) }
        while !rest.isEmpty {
            guard rest.first == " " else { return "no space before an attribute in <\(tag)>" }
            rest = rest.dropFirst()
            let attribute = String(rest.prefix { $0 != "=" })
            guard attributes.contains(attribute) else { return "attribute \(attribute)" }
            rest = rest.dropFirst(attribute.count)
            guard rest.hasPrefix("=\"") else { return "unquoted \(attribute)" }
            rest = rest.dropFirst(2)
            guard let quote = rest.firstIndex(of: "\"") else { return "unterminated \(attribute)" }
            let value = rest[..<quote]
            rest = rest[rest.index(after: quote)...]
            if value.contains("<") || value.contains(">") { return "unescaped < or > in \(attribute)" }
            if urlAttributes.contains(attribute), let problem = checkURL(String(value)) { return problem }
        }
        if !voidElements.contains(name) { open.append(name) }
        return nil
    }

    /// The URL as a browser reads it: references decoded, tabs and line breaks removed, leading spaces and controls
    /// trimmed; it must have no scheme or an allowed one.
    private static func checkURL(_ escaped: String) -> String? {
        let decoded = escaped.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let flattened = String(
            String.UnicodeScalarView(decoded.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        ).lowercased()
        guard let colon = flattened.firstIndex(of: ":") else { return nil }
        let scheme = flattened[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return ["http", "https", "mailto"].contains(scheme) ? nil : "URL scheme \(scheme)"
    }
}
