/// A small, conservative scanner for HTML that a sanitizer should have cleaned (SRC-7).
///
/// It is not a sanitizer and not a full HTML tokenizer: it reads tags and their attributes the way browsers
/// roughly do and reports what a sanitizer must never let through. Elements: `script`, `style`, `iframe`,
/// `frame`, `frameset`, `object`, `embed`, `applet`, `form`, `base`, `meta`, `link`. Attributes: any event handler
/// (`on…`), and URL attributes (`href`, `src`, `action`, `srcset`, …) whose value, after character references are
/// decoded and whitespace and control characters removed, starts with `javascript:`, `vbscript:` or `data:`; a
/// `style` attribute holding `expression(` or `javascript:`.
enum HTMLSafetyScanner {
    static let forbiddenElements: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "base", "meta", "link",
    ]

    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "srcset", "poster", "background", "cite", "longdesc", "xlink:href",
        "data", "codebase", "lowsrc", "dynsrc", "usemap", "manifest", "icon",
    ]

    static let forbiddenSchemes = ["javascript:", "vbscript:", "data:"]

    /// What is unsafe in `html`, one description each; empty when nothing is.
    static func findings(in html: String) -> [String] {
        var findings: [String] = []
        let scalars = Array(html.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "<" else {
                index += 1
                continue
            }
            index += 1
            if matches(scalars, at: index, "!--") {
                index = find(scalars, "-->", from: index + 3).map { $0 + 3 } ?? scalars.count
                continue
            }
            var isClosing = false
            if index < scalars.count, scalars[index] == "/" {
                isClosing = true
                index += 1
            }
            guard index < scalars.count, scalars[index].properties.isAlphabetic else { continue }
            let nameStart = index
            while index < scalars.count, isNameCharacter(scalars[index]) { index += 1 }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<index])).lowercased()
            if !isClosing, forbiddenElements.contains(name) {
                findings.append("a <\(name)> element")
            }
            index = scanAttributes(scalars, from: index, element: name, into: &findings)
        }
        return findings
    }

    // MARK: - Private

    /// Reads the attributes of one tag up to its `>`; returns the index after it.
    private static func scanAttributes(
        _ scalars: [Unicode.Scalar],
        from start: Int,
        element: String,
        into findings: inout [String]
    ) -> Int {
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == ">" { return index + 1 }
            if scalar.properties.isWhitespace || scalar == "/" {
                index += 1
                continue
            }
            let nameStart = index
            while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != "=",
                scalars[index] != ">", !(scalars[index] == "/" && index > nameStart)
            {
                index += 1
            }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<index])).lowercased()
            if index == nameStart { index += 1 }
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            var value: String?
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                    let quote = scalars[index]
                    let valueStart = index + 1
                    let valueEnd = scalars[valueStart...].firstIndex(of: quote) ?? scalars.count
                    value = String(String.UnicodeScalarView(scalars[valueStart..<valueEnd]))
                    index = min(valueEnd + 1, scalars.count)
                } else {
                    let valueStart = index
                    while index < scalars.count, !scalars[index].properties.isWhitespace, scalars[index] != ">" {
                        index += 1
                    }
                    value = String(String.UnicodeScalarView(scalars[valueStart..<index]))
                }
            }
            check(attribute: name, value: value, element: element, into: &findings)
        }
        return index
    }

    private static func check(attribute name: String, value: String?, element: String, into findings: inout [String]) {
        guard !name.isEmpty else { return }
        if name.hasPrefix("on") {
            findings.append("an event handler attribute \(name) on <\(element)>")
            return
        }
        guard let value else { return }
        let flattened = flatten(value)
        if urlAttributes.contains(name) {
            let candidates =
                name == "srcset"
                ? flattened.split(separator: ",").map { String($0) } : [flattened]
            for candidate in candidates {
                if let scheme = forbiddenSchemes.first(where: { candidate.hasPrefix($0) }) {
                    findings.append("a \(scheme) URL in \(name) on <\(element)>")
                }
            }
        } else if name == "style", flattened.contains("expression(") || flattened.contains("javascript:") {
            findings.append("script in the style attribute of <\(element)>")
        }
    }

    /// The value as a browser would read it for a scheme: references decoded, whitespace and controls removed,
    /// lower-cased.
    private static func flatten(_ value: String) -> String {
        var decoded = String.UnicodeScalarView()
        let scalars = Array(value.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (scalar, next) = reference(in: scalars, at: index) {
                decoded.append(scalar)
                index = next
                continue
            }
            decoded.append(scalars[index])
            index += 1
        }
        return String(String.UnicodeScalarView(decoded.filter { $0.value > 0x20 && $0.value != 0x7F }))
            .lowercased()
    }

    /// A numeric character reference, or one of the named ones used to hide a scheme, at `index`.
    private static func reference(in scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        let named: [(String, Unicode.Scalar)] = [("colon;", ":"), ("tab;", "\t"), ("newline;", "\n")]
        for (name, scalar) in named where matches(scalars, at: index + 1, name, caseInsensitive: true) {
            return (scalar, index + 1 + name.unicodeScalars.count)
        }
        guard matches(scalars, at: index + 1, "#") else { return nil }
        var cursor = index + 2
        var radix: UInt32 = 10
        if cursor < scalars.count, scalars[cursor] == "x" || scalars[cursor] == "X" {
            radix = 16
            cursor += 1
        }
        var number: UInt32 = 0
        let digitsStart = cursor
        while cursor < scalars.count, let digit = Character(scalars[cursor]).hexDigitValue,
            radix == 16 || digit < 10, number < 0x11_0000
        {
            number = number * radix + UInt32(digit)
            cursor += 1
        }
        guard cursor > digitsStart else { return nil }
        if cursor < scalars.count, scalars[cursor] == ";" { cursor += 1 }
        return (Unicode.Scalar(number) ?? "\u{FFFD}", cursor)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ":"
    }

    private static func matches(
        _ scalars: [Unicode.Scalar],
        at index: Int,
        _ text: String,
        caseInsensitive: Bool = false
    ) -> Bool {
        let pattern = Array(text.unicodeScalars)
        guard index >= 0, index + pattern.count <= scalars.count else { return false }
        for (offset, expected) in pattern.enumerated() {
            let actual = scalars[index + offset]
            if caseInsensitive {
                guard String(actual).lowercased() == String(expected) else { return false }
            } else {
                guard actual == expected else { return false }
            }
        }
        return true
    }

    private static func find(_ scalars: [Unicode.Scalar], _ text: String, from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            if matches(scalars, at: index, text) { return index }
            index += 1
        }
        return nil
    }
}
