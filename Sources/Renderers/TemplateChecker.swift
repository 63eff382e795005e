import Foundation
import TributaryCore

/// Checks a Mustache template against the keys of ``HTMLTemplateContext`` before it is used, because Mustache
/// renders an unknown key as nothing: a misspelt `{{titel}}` would silently drop every title.
///
/// It walks the template's tags as Mustache reads them (sections open and close scopes; `{{=<% %>=}}` changes the
/// delimiters) and reports the first problem with its line: an unknown key, a key used as the wrong kind of value,
/// an unknown transform, an unbalanced section, or a feature that would defeat escaping or reach outside the file
/// (triple braces, `{{&key}}`, pragmas such as `{{%CONTENT_TYPE:TEXT}}`, partials and blocks).
struct TemplateChecker {
    /// How messages name the template file.
    var file: String

    /// Throws ``RenderError`` with the template's file and line for the first problem in `template`.
    func check(_ template: String) throws(RenderError) {
        var scanner = Scanner(text: template)
        var scopes: [Scope] = [.object(HTMLTemplateContext.digestKeys)]
        var sections: [(name: String, line: Int)] = []
        while let tag = scanner.nextTag() {
            let line = tag.line
            switch tag.kind {
            case .comment, .delimiters:
                break
            case .unterminated:
                throw error(line, "the tag that starts here is never closed with '\(scanner.close)'")
            case .invalidDelimiters:
                throw error(line, "'{{=\(tag.content)=}}' does not set two delimiters such as {{=<% %>=}}")
            case .unescaped:
                throw error(
                    line,
                    "'\(tag.content)' would write text without HTML escaping, which Tributary does not allow; "
                        + "write {{\(tag.content)}}"
                )
            case .pragma:
                throw error(line, "pragmas ('{{%\(tag.content)}}') are not allowed: HTML escaping stays on")
            case .partial:
                throw error(
                    line,
                    "partials and blocks ('\(tag.content)') are not supported: a digest template is one file"
                )
            case .variable:
                let value = try resolve(tag.content, line: line, scopes: scopes)
                // A transform (`count(entries)`) turns a list into a value.
                guard !tag.content.contains("(") else { break }
                switch value {
                case .value(.list), .value(.texts):
                    throw error(
                        line,
                        "'\(tag.content)' is \(value.kindName); write {{#\(tag.content)}}...{{/\(tag.content)}}"
                    )
                case .value(.text), .value(.flag), .value(.number), .scope:
                    break
                }
            case .section(let inverted):
                let value = try resolve(tag.content, line: line, scopes: scopes)
                sections.append((tag.content, line))
                if inverted || tag.content.contains("(") {
                    scopes.append(.transparent)
                } else {
                    switch value {
                    case .value(.list(let keys)): scopes.append(.object(keys))
                    case .value(.flag): scopes.append(.transparent)
                    case .value(.text), .value(.number), .value(.texts): scopes.append(.value)
                    case .scope(let scope): scopes.append(scope)
                    }
                }
            case .close:
                guard let open = sections.popLast() else {
                    throw error(line, "'{{/\(tag.content)}}' closes a section that was never opened")
                }
                guard open.name == tag.content else {
                    throw error(
                        line,
                        "'{{/\(tag.content)}}' closes '{{#\(open.name)}}' from line \(open.line); "
                            + "write {{/\(open.name)}}"
                    )
                }
                scopes.removeLast()
            }
        }
        if let open = sections.last {
            throw error(open.line, "'{{#\(open.name)}}' is never closed; add {{/\(open.name)}}")
        }
    }

    // MARK: - Private

    /// The transforms swift-mustache applies, as in `{{uppercased(title)}}` or `{{#first()}}`.
    private static let transforms: Set<String> = [
        "capitalized", "lowercased", "uppercased", "reversed", "empty", "count", "first", "last", "index", "even",
        "odd", "sorted", "enumerated", "equalzero", "plusone", "minusone",
    ]

    /// What names resolve against at one level of nesting.
    private enum Scope {
        /// An object: its keys are visible, and Mustache looks further out for names it lacks.
        case object([String: TemplateValue])
        /// A string or number: only `{{.}}` means something here.
        case value
        /// A `{{#flag}}` or an inverted section: nothing new is visible.
        case transparent
    }

    /// A resolved name: a key's value, or (for `.`) the current scope.
    private enum Resolved {
        case value(TemplateValue)
        case scope(Scope)

        var kindName: String {
            switch self {
            case .value(let value): value.kindName
            case .scope: "the current value"
            }
        }
    }

    private func error(_ line: Int, _ detail: String) -> RenderError {
        RenderError(format: .html, reason: .template(file: file, line: line, detail: detail))
    }

    private func resolve(_ name: String, line: Int, scopes: [Scope]) throws(RenderError) -> Resolved {
        var name = Substring(name)
        // `transform(name)`, possibly nested: check each transform, then the name inside.
        while let open = name.firstIndex(of: "("), name.last == ")" {
            let transform = String(name[..<open])
            guard Self.transforms.contains(transform) else {
                let known = Self.transforms.sorted().joined(separator: ", ")
                throw error(line, "unknown transform '\(transform)' (known: \(known))")
            }
            name = name[name.index(after: open)..<name.index(before: name.endIndex)]
        }
        if name.isEmpty || name == "." {
            return .scope(scopes.last(where: { if case .transparent = $0 { false } else { true } }) ?? .transparent)
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let first = String(parts[0])
        for scope in scopes.reversed() {
            guard case .object(let keys) = scope, let value = keys[first] else { continue }
            if parts.count > 1 {
                throw error(line, "'\(name)': '\(first)' is \(value.kindName), which has no key '\(parts[1])'")
            }
            return .value(value)
        }
        var known: [String] = []
        for scope in scopes.reversed() {
            guard case .object(let keys) = scope else { continue }
            for key in keys.keys.sorted() where !known.contains(key) { known.append(key) }
        }
        // Levenshtein distance, with swapped letters (`titel`) counted as one edit rather than two.
        let suggestion = known.map { key in
            let distance = EditDistance.between(key, first)
            return (key: key, distance: key.sorted() == first.sorted() ? min(distance, 1) : distance)
        }
        .filter { $0.distance <= max(2, first.count / 3) }
        .min { $0.distance < $1.distance }
        let hint = suggestion.map { "; did you mean '\($0.key)'?" } ?? ""
        throw error(line, "unknown key '\(first)'\(hint) (known here: \(known.joined(separator: ", ")))")
    }
}

extension TemplateChecker {
    /// One Mustache tag: where it starts and what it is.
    struct Tag {
        enum Kind: Equatable {
            case variable, unescaped, comment, pragma, partial, delimiters, invalidDelimiters, unterminated, close
            case section(inverted: Bool)
        }

        var kind: Kind
        /// The tag's name or text, trimmed.
        var content: String
        /// The 1-based line the tag starts on.
        var line: Int
    }

    /// Finds the tags of a template in order, following delimiter changes and counting lines.
    struct Scanner {
        private let text: Substring
        private var position: Substring.Index
        private var line = 1
        private(set) var open = "{{"
        private(set) var close = "}}"

        init(text: String) {
            self.text = Substring(text)
            self.position = self.text.startIndex
        }

        /// The next tag, or `nil` at the end of the template.
        mutating func nextTag() -> Tag? {
            guard let start = text[position...].range(of: open) else { return nil }
            line += text[position..<start.lowerBound].count(where: \.isNewline)
            let tagLine = line
            var inner = start.upperBound
            var closing = close
            if open == "{{", text[inner...].first == "{" {
                inner = text.index(after: inner)
                closing = "}" + close
            }
            guard let end = text[inner...].range(of: closing) else {
                position = text.endIndex
                return Tag(kind: .unterminated, content: "", line: tagLine)
            }
            let body = text[inner..<end.lowerBound]
            line += body.count(where: \.isNewline)
            position = end.upperBound
            if closing != close {
                return Tag(kind: .unescaped, content: "{{{\(trimmed(body))}}}", line: tagLine)
            }
            let sigil = body.first { !$0.isWhitespace } ?? " "
            let rest = trimmed(trimmed(body).dropFirst())
            switch sigil {
            case "!": return Tag(kind: .comment, content: rest, line: tagLine)
            case "#": return Tag(kind: .section(inverted: false), content: rest, line: tagLine)
            case "^": return Tag(kind: .section(inverted: true), content: rest, line: tagLine)
            case "/": return Tag(kind: .close, content: rest, line: tagLine)
            case "&": return Tag(kind: .unescaped, content: "{{&\(rest)}}", line: tagLine)
            case "%": return Tag(kind: .pragma, content: rest, line: tagLine)
            case ">", "<", "$": return Tag(kind: .partial, content: "{{\(sigil)\(rest)}}", line: tagLine)
            case "=":
                let spec = trimmed(body)
                guard spec.count >= 2, spec.last == "=" else {
                    return Tag(kind: .invalidDelimiters, content: String(spec), line: tagLine)
                }
                let delimiters = spec.dropFirst().dropLast().split(whereSeparator: \.isWhitespace)
                guard delimiters.count == 2 else {
                    return Tag(kind: .invalidDelimiters, content: String(spec.dropFirst().dropLast()), line: tagLine)
                }
                open = String(delimiters[0])
                close = String(delimiters[1])
                return Tag(kind: .delimiters, content: "", line: tagLine)
            default:
                return Tag(kind: .variable, content: trimmed(body), line: tagLine)
            }
        }

        private func trimmed(_ text: Substring) -> String {
            String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        }
    }
}
