import TributaryCore

/// Collects the text of the sanitized tree: runs of white space become one space (except inside `pre`), `br`
/// starts a new line, and block elements stand on their own lines with one blank line between them.
struct TextExtractor: TreeEmitter {
    private var lines: [String] = []
    private var current = ""
    private var preDepth = 0
    private var pendingSpace = false

    mutating func start(_ element: String, attributes: [(name: String, value: String)], isVoid: Bool) {
        if element == "br" {
            breakLine(force: true)
        } else if HTMLElements.blocks.contains(element) {
            breakLine(force: false)
        } else if element == "img", let alt = attributes.first(where: { $0.name == "alt" })?.value {
            text(alt)
        }
        if element == "pre" { preDepth += 1 }
    }

    mutating func end(_ element: String) {
        if element == "pre" { preDepth -= 1 }
        if HTMLElements.blocks.contains(element) { breakLine(force: false) }
    }

    mutating func unwrapped(_ element: String, starts: Bool) {}

    mutating func text(_ text: String) {
        if preDepth > 0 {
            let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index > 0 { breakLine(force: true) }
                current += part.filter { !$0.isASCII || !$0.isNewline }
            }
            return
        }
        for character in text {
            if character.isWhitespace {
                pendingSpace = !current.isEmpty
            } else {
                if pendingSpace { current += " " }
                pendingSpace = false
                if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F { continue }
                current.append(character)
            }
        }
    }

    /// The text collected, trimmed.
    var result: String {
        var all = lines
        if !current.isEmpty { all.append(current) }
        while all.last?.isEmpty == true { all.removeLast() }
        while all.first?.isEmpty == true { all.removeFirst() }
        return all.joined(separator: "\n")
    }

    private mutating func breakLine(force: Bool) {
        pendingSpace = false
        if !current.isEmpty || force {
            lines.append(current)
            current = ""
        } else if lines.last?.isEmpty == false {
            lines.append("")
        }
    }
}
