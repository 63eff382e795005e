import Foundation

/// A value of the HTML template's context: typed, so that rendering looks keys up without `Any` or dynamic casts
/// (through `Any`, swift-mustache spent most of a digest's rendering time in casts and conformance lookups). Not
/// `indirect`: lists and objects already hold their elements on the heap, and boxing every value cost an allocation
/// for each of an entry's eighteen values.
enum TemplateData: Sendable, Equatable {
    case text(String)
    case flag(Bool)
    case number(Int)
    case list([TemplateData])
    case object(TemplateObject)
    /// Where a list's element is: what `{{#first()}}`, `{{index()}}`, `even()`, `odd()` and `last()` read.
    case position(first: Bool, last: Bool, index: Int)
}

/// The Mustache subset a digest template may use (``TemplateChecker`` refuses the rest before it gets here):
/// `{{name}}` (always HTML-escaped), dotted names, `{{.}}`, sections, inverted sections, comments, set delimiters
/// and swift-mustache's transforms (`{{uppercased(title)}}`, `{{#first()}}`). It reads a template as swift-mustache
/// 2 does, standalone lines, whitespace and all, and renders the same bytes (`MustacheEngineTests` compares the two
/// on the built-in template and on every construct); what it does not have is the cost of `Any`.
struct MustacheEngine: Sendable {
    /// A piece of a parsed template.
    indirect enum Node: Sendable {
        case text([UInt8])
        case variable(Name)
        case section(Name, inverted: Bool, [Node])
    }

    /// A tag's name: `a.b`, `.`, `.a` (the current object only) or `` with transforms (the list position), and the
    /// transforms around it, outermost first (`uppercased(reversed(title))` is `["uppercased", "reversed"]`).
    struct Name: Sendable, Equatable {
        var path: [TemplateKey]
        var current: Bool
        var transforms: [String]
    }

    /// A template that could not be read, with the line it is on.
    struct ParseError: Error {
        var line: Int
        var detail: String
    }

    /// A digest template cut where its entries go, so that it can be drawn a part at a time (``HTMLRenderer`` as a
    /// ``StreamingRenderer``): the nodes before the `{{#days}}` section that holds `{{#entries}}`, the nodes of that
    /// section before, inside and after `{{#entries}}`, and the nodes after it. Drawing the parts in that order, each
    /// with the stack and list position the whole template would have there, writes the same bytes.
    struct Parts: Sendable {
        var beforeDays: [Node]
        var dayStart: [Node]
        var entry: [Node]
        var dayEnd: [Node]
        var afterDays: [Node]
    }

    let nodes: [Node]
    /// The template's parts, when it can be drawn in parts (``parts(of:)``).
    let parts: Parts?

    /// Parses `text`.
    init(_ text: String) throws(ParseError) {
        var parser = Parser(Array(text))
        nodes = try parser.parse(section: nil)
        parts = Self.parts(of: nodes)
    }

    /// Renders the template with `data` as its outermost object.
    func render(_ data: TemplateData) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        var stack = [data]
        Self.render(nodes, stack: &stack, position: nil, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Renders `nodes` (one of the ``Parts``) with `stack` as the objects it is inside, innermost last, and
    /// `position` as the list position `first()`, `index()` and the like read.
    static func render(_ nodes: [Node], stack: [TemplateData], position: TemplateData?, into output: inout [UInt8]) {
        var stack = stack
        render(nodes, stack: &stack, position: position, into: &output)
    }

    /// The template's parts, or `nil` when drawing it whole is the only way to be sure of its output. A template
    /// has parts when one `{{#days}}` section at its top level holds one `{{#entries}}` section at its own top
    /// level, no other tag names `entries` (its day objects are then the same without their entries), and no tag
    /// lists an object's members (`enumerated`, `sorted`), which would show that they are missing.
    static func parts(of nodes: [Node]) -> Parts? {
        var entriesNamed = 0
        var listsMembers = false
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text: break
                case .variable(let name): note(name)
                case .section(let name, _, let children):
                    note(name)
                    visit(children)
                }
            }
        }
        func note(_ name: Name) {
            if name.path.contains("entries") { entriesNamed += 1 }
            if name.transforms.contains(where: { $0 == "enumerated" || $0 == "sorted" }) { listsMembers = true }
        }
        visit(nodes)
        guard entriesNamed == 1, !listsMembers else { return nil }
        func plain(_ name: Name, _ key: TemplateKey) -> Bool {
            name.path == [key] && !name.current && name.transforms.isEmpty
        }
        for (dayIndex, node) in nodes.enumerated() {
            guard case .section(let name, inverted: false, let dayNodes) = node, plain(name, "days") else { continue }
            for (entryIndex, child) in dayNodes.enumerated() {
                guard case .section(let name, inverted: false, let entryNodes) = child, plain(name, "entries") else {
                    continue
                }
                return Parts(
                    beforeDays: Array(nodes[..<dayIndex]),
                    dayStart: Array(dayNodes[..<entryIndex]),
                    entry: entryNodes,
                    dayEnd: Array(dayNodes[(entryIndex + 1)...]),
                    afterDays: Array(nodes[(dayIndex + 1)...])
                )
            }
        }
        return nil
    }

    // MARK: - Rendering

    private static func render(
        _ nodes: [Node],
        stack: inout [TemplateData],
        position: TemplateData?,
        into output: inout [UInt8]
    ) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                output.append(contentsOf: bytes)
            case .variable(let name):
                switch value(of: name, stack: stack, position: position) {
                case .text(let text): HTMLEscaping.appendEscaped(text, to: &output)
                case .number(let number): output.append(contentsOf: String(number).utf8)
                case .flag(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
                case .list, .object, .position, nil: break
                }
            case .section(let name, let inverted, let children):
                let value = value(of: name, stack: stack, position: position)
                if inverted {
                    renderInverted(value, children, stack: &stack, position: position, into: &output)
                } else {
                    renderSection(value, children, stack: &stack, position: position, into: &output)
                }
            }
        }
    }

    private static func renderSection(
        _ value: TemplateData?,
        _ children: [Node],
        stack: inout [TemplateData],
        position: TemplateData?,
        into output: inout [UInt8]
    ) {
        switch value {
        case .list(let elements):
            for (index, element) in elements.enumerated() {
                stack.append(element)
                let here = TemplateData.position(first: index == 0, last: index == elements.count - 1, index: index)
                render(children, stack: &stack, position: here, into: &output)
                stack.removeLast()
            }
        case .flag(let flag):
            if flag { render(children, stack: &stack, position: position, into: &output) }
        case .some(let value):
            render(children, pushing: value, stack: &stack, into: &output)
        case nil:
            break
        }
    }

    private static func renderInverted(
        _ value: TemplateData?,
        _ children: [Node],
        stack: inout [TemplateData],
        position: TemplateData?,
        into output: inout [UInt8]
    ) {
        switch value {
        case .list(let elements) where elements.isEmpty:
            render(children, pushing: .list([]), stack: &stack, into: &output)
        case .flag(false), nil:
            render(children, stack: &stack, position: position, into: &output)
        default:
            break
        }
    }

    /// Renders `nodes` with `value` as the innermost object and no list position (swift-mustache's `withObject`).
    private static func render(
        _ nodes: [Node],
        pushing value: TemplateData,
        stack: inout [TemplateData],
        into output: inout [UInt8]
    ) {
        stack.append(value)
        render(nodes, stack: &stack, position: nil, into: &output)
        stack.removeLast()
    }

    /// The value a name stands for: looked up in the innermost object that has its first part, then through the
    /// rest, then transformed from the innermost transform out; `nil` when any step finds nothing.
    private static func value(of name: Name, stack: [TemplateData], position: TemplateData?) -> TemplateData? {
        var found: TemplateData?
        if name.path.isEmpty {
            found = name.current || name.transforms.isEmpty ? stack.last : position
        } else if name.current {
            found = stack.last
            for part in name.path { found = found.flatMap { child(part, of: $0) } }
        } else {
            for object in stack.reversed() {
                guard let first = child(name.path[0], of: object) else { continue }
                found = first
                for part in name.path.dropFirst() { found = found.flatMap { child(part, of: $0) } }
                break
            }
        }
        for transform in name.transforms.reversed() {
            guard let value = found else { return nil }
            found = apply(transform, to: value)
        }
        return found
    }

    private static func child(_ key: TemplateKey, of value: TemplateData) -> TemplateData? {
        guard case .object(let values) = value else { return nil }
        return values[key]
    }

    /// swift-mustache's transforms on the kinds of value a context holds; `nil` where it has none.
    private static func apply(_ transform: String, to value: TemplateData) -> TemplateData? {
        switch value {
        case .text(let text):
            switch transform {
            case "empty": return .flag(text.isEmpty)
            case "capitalized": return .text(text.capitalized)
            case "lowercased": return .text(text.lowercased())
            case "uppercased": return .text(text.uppercased())
            case "reversed": return .text(String(text.reversed()))
            default: return nil
            }
        case .list(let elements):
            switch transform {
            case "first": return elements.first
            case "last": return elements.last
            case "reversed": return .list(elements.reversed())
            case "count": return .number(elements.count)
            case "empty": return .flag(elements.isEmpty)
            case "sorted":
                // Only a list of strings is sorted (its elements are Comparable in swift-mustache).
                var texts: [String] = []
                for element in elements {
                    guard case .text(let text) = element else { return nil }
                    texts.append(text)
                }
                return .list(texts.sorted().map(TemplateData.text))
            default: return nil
            }
        case .object(let values):
            switch transform {
            case "count": return .number(values.count)
            case "empty": return .flag(values.isEmpty)
            case "enumerated", "sorted":
                let pairs = transform == "sorted" ? values.members.sorted { $0.0 < $1.0 } : values.members
                return .list(pairs.map { .object(["key": .text($0.0.name), "value": $0.1]) })
            default: return nil
            }
        case .number(let number):
            switch transform {
            case "equalzero": return .flag(number == 0)
            case "plusone": return .number(number + 1)
            case "minusone": return .number(number - 1)
            case "even": return .flag(number & 1 == 0)
            case "odd": return .flag(number & 1 == 1)
            default: return nil
            }
        case .position(let first, let last, let index):
            switch transform {
            case "first": return .flag(first)
            case "last": return .flag(last)
            case "index": return .number(index)
            case "even": return .flag(index & 1 == 0)
            case "odd": return .flag(index & 1 == 1)
            default: return nil
            }
        case .flag:
            return nil
        }
    }

    // MARK: - Parsing

    /// Reads a template the way swift-mustache's parser does (its `MustacheTemplate.parse`), for the tags a digest
    /// template may hold.
    private struct Parser {
        let characters: [Character]
        var index = 0
        var open: [Character] = ["{", "{"]
        var close: [Character] = ["}", "}"]
        /// Whether the parser is at the start of a line (or after a standalone tag that ended one).
        var newLine = true

        init(_ characters: [Character]) {
            self.characters = characters
        }

        var atEnd: Bool { index >= characters.count }

        mutating func parse(section: Name?) throws(ParseError) -> [Node] {
            var nodes: [Node] = []
            var whitespaceBefore = ""
            while !atEnd {
                if newLine { whitespaceBefore = read(while: { $0 == " " || $0 == "\t" }) }
                let (text, foundTag) = readTextUntilTagOrNewline()
                if !foundTag, !atEnd, characters[index].isNewline {
                    nodes.append(.text(Array((whitespaceBefore + text + String(characters[index])).utf8)))
                    newLine = true
                    index += 1
                    continue
                }
                if !text.isEmpty {
                    nodes.append(.text(Array((whitespaceBefore + text).utf8)))
                    whitespaceBefore = ""
                    newLine = false
                }
                guard foundTag, !atEnd else { break }
                func flushWhitespace() {
                    if !whitespaceBefore.isEmpty { nodes.append(.text(Array(whitespaceBefore.utf8))) }
                    whitespaceBefore = ""
                }
                var standalone = false
                switch characters[index] {
                case "#", "^":
                    let inverted = characters[index] == "^"
                    index += 1
                    let name = try readName()
                    if isStandalone() { standalone = true } else { flushWhitespace() }
                    // As in swift-mustache, delimiters set inside a section end with it.
                    let (outerNewLine, outerOpen, outerClose) = (newLine, open, close)
                    newLine = standalone
                    let children = try parse(section: name)
                    (newLine, open, close) = (outerNewLine, outerOpen, outerClose)
                    nodes.append(.section(name, inverted: inverted, children))
                case "/":
                    index += 1
                    let name = try readName()
                    guard name == section else { throw error("a section is closed that is not the one open") }
                    if !isStandalone() { flushWhitespace() }
                    return nodes
                case "!":
                    index += 1
                    guard let end = find(close, from: index) else { throw error("a comment is never closed") }
                    index = end + close.count
                    standalone = isStandalone()
                case "=":
                    index += 1
                    try readDelimiters()
                    standalone = isStandalone()
                case "{", "&", ">", "<", "$", "%":
                    throw error("'\(characters[index])' tags are not allowed in a digest template")
                default:
                    flushWhitespace()
                    nodes.append(.variable(try readName()))
                }
                newLine = standalone
            }
            if section != nil { throw error("a section is never closed") }
            return nodes
        }

        /// Text up to the next opening delimiter (consumed) or line break (not consumed).
        mutating func readTextUntilTagOrNewline() -> (String, foundTag: Bool) {
            var text = ""
            while !atEnd {
                let character = characters[index]
                if character.isNewline { return (text, false) }
                if character == open[0], matches(open, at: index) {
                    index += open.count
                    return (text, true)
                }
                text.append(character)
                index += 1
            }
            return (text, false)
        }

        /// A tag's name up to the closing delimiter, with its transforms.
        mutating func readName() throws(ParseError) -> Name {
            _ = read(while: \.isWhitespace)
            let text = read(while: { Self.nameCharacters.contains($0) })
            _ = read(while: \.isWhitespace)
            guard matches(close, at: index) else { throw error("a tag's name is not followed by its closing braces") }
            index += close.count
            var transforms: [String] = []
            var rest = Substring(text)
            while let parenthesis = rest.firstIndex(of: "(") {
                transforms.append(String(rest[..<parenthesis]))
                rest = rest[rest.index(after: parenthesis)...]
            }
            if !transforms.isEmpty {
                let closing = rest.drop { $0 != ")" }
                guard closing.count == transforms.count, closing.allSatisfy({ $0 == ")" }) else {
                    throw error("the parentheses of '\(text)' do not match")
                }
                rest = rest.prefix { $0 != ")" }
            }
            let name = String(rest)
            if name == "." { return Name(path: [], current: true, transforms: transforms) }
            return Name(
                path: name.split(separator: ".").map { TemplateKey(String($0)) },
                current: name.first == ".",
                transforms: transforms
            )
        }

        /// `{{=<% %>=}}`: the two new delimiters.
        mutating func readDelimiters() throws(ParseError) {
            _ = read(while: \.isWhitespace)
            let start = read(while: { !$0.isWhitespace })
            _ = read(while: \.isWhitespace)
            let end = read(while: { $0 != "=" && !$0.isWhitespace })
            _ = read(while: \.isWhitespace)
            guard !atEnd, characters[index] == "=", matches(close, at: index + 1), !start.isEmpty, !end.isEmpty else {
                throw error("'{{=...=}}' does not set two delimiters")
            }
            index += 1 + close.count
            open = Array(start)
            close = Array(end)
        }

        /// Whether the tag just read stands alone on its line; if so, the rest of the line is consumed.
        mutating func isStandalone() -> Bool {
            guard newLine else { return false }
            if atEnd { return true }
            var probe = index
            while probe < characters.count, characters[probe] == " " || characters[probe] == "\t" { probe += 1 }
            guard probe < characters.count, characters[probe].isNewline else { return false }
            index = probe + 1
            return true
        }

        mutating func read(while keep: (Character) -> Bool) -> String {
            var text = ""
            while !atEnd, keep(characters[index]) {
                text.append(characters[index])
                index += 1
            }
            return text
        }

        func matches(_ delimiter: [Character], at position: Int) -> Bool {
            guard position + delimiter.count <= characters.count else { return false }
            for offset in delimiter.indices where characters[position + offset] != delimiter[offset] { return false }
            return true
        }

        func find(_ delimiter: [Character], from position: Int) -> Int? {
            var probe = position
            while probe < characters.count {
                if matches(delimiter, at: probe) { return probe }
                probe += 1
            }
            return nil
        }

        func error(_ detail: String) -> ParseError {
            let line = characters[..<min(index, characters.count)].reduce(1) { $1.isNewline ? $0 + 1 : $0 }
            return ParseError(line: line, detail: detail)
        }

        static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    }
}
