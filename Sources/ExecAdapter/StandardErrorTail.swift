/// Splits a program's stderr into lines and keeps the last few, for the failure message.
struct StandardErrorTail {
    /// How many lines are kept.
    static let lineLimit = 20
    /// How many characters of one line are kept.
    static let lineLength = 500

    private var partial: [UInt8] = []
    private(set) var lines: [String] = []

    /// Adds bytes; returns the lines they completed.
    mutating func append(_ bytes: [UInt8]) -> [String] {
        var completed: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                completed.append(takeLine())
            } else if partial.count < Self.lineLength * 4 {
                partial.append(byte)
            }
        }
        return completed
    }

    /// Ends the stream; returns the last line when it had no newline.
    mutating func finish() -> [String] {
        partial.isEmpty ? [] : [takeLine()]
    }

    /// The kept lines as one quoted text, for messages; empty when stderr said nothing.
    var summary: String {
        let shown = lines.filter { !$0.allSatisfy(\.isWhitespace) }
        guard !shown.isEmpty else { return "" }
        return "; last stderr lines: " + shown.map { "\"\($0)\"" }.joined(separator: " | ")
    }

    private mutating func takeLine() -> String {
        var text = String(decoding: partial, as: UTF8.self)
        partial.removeAll(keepingCapacity: true)
        if text.hasSuffix("\r") { text.removeLast() }
        if text.count > Self.lineLength { text = String(text.prefix(Self.lineLength)) + "…" }
        lines.append(text)
        if lines.count > Self.lineLimit { lines.removeFirst(lines.count - Self.lineLimit) }
        return text
    }
}
