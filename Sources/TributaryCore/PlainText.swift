import Foundation

/// Turns (sanitized) feed HTML into plain text for summaries: tags are dropped, block-level tags become spaces so
/// words do not run together, the contents of `script`, `style` and comments are dropped, and character references
/// are decoded once (`&amp;nbsp;` stays `&nbsp;`: Google News escapes twice, and decoding again would turn text
/// into markup).
enum PlainText {
    /// The plain text of an HTML fragment; whitespace is not collapsed.
    static func fromHTML(_ html: String) -> String {
        decodingCharacterReferences(strippingTags(html))
    }

    /// Removes tags and comments; `script` and `style` elements are removed with their contents.
    static func strippingTags(_ html: String) -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            guard character == "<" else {
                result.append(character)
                index = html.index(after: index)
                continue
            }
            let rest = html[index...]
            if rest.hasPrefix("<!--") {
                index = rest.range(of: "-->")?.upperBound ?? html.endIndex
                continue
            }
            guard let close = rest.firstIndex(of: ">") else {
                // A lone `<` that starts no tag is text.
                result.append(character)
                index = html.index(after: index)
                continue
            }
            let tag = rest[rest.index(after: rest.startIndex)..<close]
            let name = tagName(tag)
            guard !name.isEmpty || tag.hasPrefix("/") || tag.hasPrefix("!") || tag.hasPrefix("?") else {
                // `a < b > c` is text, not a tag.
                result.append(character)
                index = html.index(after: index)
                continue
            }
            index = html.index(after: close)
            if (name == "script" || name == "style"), !tag.hasPrefix("/") {
                let end = html[index...].range(of: "</\(name)", options: .caseInsensitive)
                index =
                    end.flatMap { html[$0.upperBound...].firstIndex(of: ">") }.map(html.index(after:)) ?? html.endIndex
                continue
            }
            if blockElements.contains(name) { result.append(" ") }
        }
        return result
    }

    /// Decodes numeric character references and the named ones feeds use; unknown names are left as written.
    static func decodingCharacterReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&",
                let semicolon = text[index...].prefix(34).firstIndex(of: ";"),
                let decoded = decode(text[text.index(after: index)..<semicolon])
            else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            result.append(decoded)
            index = text.index(after: semicolon)
        }
        return result
    }

    // MARK: - Private

    private static func tagName(_ tag: Substring) -> String {
        let body = tag.hasPrefix("/") ? tag.dropFirst() : tag
        return String(body.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }).lowercased()
    }

    private static func decode(_ reference: Substring) -> String? {
        if reference.hasPrefix("#") {
            let digits = reference.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return String(Character(scalar))
        }
        return namedReferences[String(reference)]
    }

    private static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "footer",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section", "table", "td", "th",
        "tr", "ul",
    ]

    private static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "ensp": "\u{2002}",
        "emsp": "\u{2003}", "thinsp": "\u{2009}", "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘",
        "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„", "laquo": "«", "raquo": "»",
        "middot": "·", "bull": "•", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "euro": "€", "pound": "£",
        "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷", "plusmn": "±",
        "frac12": "½", "iexcl": "¡", "iquest": "¿", "shy": "\u{AD}", "zwj": "\u{200D}", "zwnj": "\u{200C}",
        "agrave": "à", "aacute": "á", "acirc": "â", "auml": "ä", "ccedil": "ç", "egrave": "è", "eacute": "é",
        "ecirc": "ê", "euml": "ë", "iacute": "í", "ntilde": "ñ", "oacute": "ó", "ouml": "ö", "uuml": "ü",
        "szlig": "ß", "Eacute": "É", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü",
    ]
}
