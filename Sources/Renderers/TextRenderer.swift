public import TributaryCore

/// Draws a digest as plain text for a terminal or a log: a header, then per day a heading and one block per item
/// (time, source, the title wrapped with a hanging indent, a line of details, the link), then the sources that
/// failed, with their reasons, and any warnings.
///
/// Every string from a feed is passed through ``TerminalText/sanitize(_:)``, so no feed can move the cursor, change
/// colours or retitle the window. Widths are measured in terminal columns (``TerminalText/displayWidth(_:)``), so
/// Japanese titles align. Every line fits in ``width`` columns, except a link longer than the line, which is kept
/// whole so that it can still be followed.
public struct TextRenderer: StreamingRenderer {
    /// The format this renderer produces.
    public static let format = OutputFormat.text

    /// The narrowest layout drawn; a smaller ``width`` is treated as this.
    public static let minimumWidth = 30

    /// The number of columns to fit the text into.
    public var width: Int
    /// Whether to colour the output with ANSI SGR sequences (for a terminal that supports them).
    public var color: Bool
    /// The column layout of the digest being drawn, made by ``prepared(for:)``.
    private var layout: Layout?

    /// Creates a text renderer.
    /// - Parameters:
    ///   - width: The number of columns to fit the text into; at least ``minimumWidth`` is used.
    ///   - color: Whether to add ANSI colours.
    public init(width: Int = 80, color: Bool = false) {
        self.width = width
        self.color = color
    }

    public func writeStart(of digest: DigestOutline, into output: inout [UInt8]) {
        let width = max(width, Self.minimumWidth)
        var lines: [String] = []
        let title = TerminalText.sanitize(digest.title)
        for line in TerminalText.wrap(title, width: width) {
            lines.append(style(line, .bold))
        }
        lines.append(String(repeating: "=", count: min(width, max(1, TerminalText.displayWidth(title)))))
        for line in TerminalText.wrap(summaryLine(of: digest), width: width) {
            lines.append(line)
        }
        if digest.days.isEmpty {
            lines.append("")
            lines.append("No items.")
        }
        Self.append(lines, to: &output)
    }

    public func writeStart(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) {
        let width = max(width, Self.minimumWidth)
        let heading = TerminalText.sanitize(day.heading)
        Self.append(
            ["", style(heading, .bold), String(repeating: "-", count: min(width, TerminalText.displayWidth(heading)))],
            to: &output
        )
    }

    public func write(_ entries: [Digest.Entry], after written: Int, into output: inout [UInt8]) {
        // Laid out by `prepared(for:)`; entries written without it get the narrowest source column.
        let layout = layout ?? Layout(sourceWidth: 4, width: max(width, Self.minimumWidth))
        for entry in entries { Self.append(block(for: entry, layout: layout), to: &output) }
    }

    public func writeEnd(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) {}

    /// The failed and incomplete sources and the warnings; the text ends with a newline.
    public func writeEnd(of digest: DigestOutline, into output: inout [UInt8]) {
        Self.append(problems(of: digest, width: max(width, Self.minimumWidth)), to: &output)
    }

    /// The renderer with its column layout made for `digest`'s entries, from the titles of their sources.
    public func prepared(for digest: DigestOutline) -> TextRenderer {
        let titles = digest.sourceTitles
        var shown: Set<SourceID> = []
        for day in digest.days { for item in day.items { shown.insert(item.sourceID) } }
        return laidOut(for: shown.map { titles[$0] ?? $0.rawValue })
    }

    /// Renders the digest as text; the result ends with a newline. The source column fits the entries' own source
    /// titles.
    public func render(_ digest: Digest) throws -> String {
        try laidOut(for: digest.entries.map(\.sourceTitle)).renderParts(of: digest)
    }

    /// The renderer with a source column as wide as the widest of these titles (at most a quarter of the width).
    private func laidOut(for sourceTitles: [String]) -> TextRenderer {
        var renderer = self
        let width = max(width, Self.minimumWidth)
        let widest = sourceTitles.map { TerminalText.displayWidth(TerminalText.sanitize($0)) }.max()
        renderer.layout = Layout(sourceWidth: min(widest ?? 0, max(4, width / 4)), width: width)
        return renderer
    }

    // MARK: - Private

    /// The column layout shared by every item block.
    private struct Layout {
        static let timeWidth = 5
        static let gap = 2
        var sourceWidth: Int
        var indent: Int
        var bodyWidth: Int

        init(sourceWidth: Int, width: Int) {
            self.sourceWidth = sourceWidth
            indent = Self.timeWidth + Self.gap + sourceWidth + Self.gap
            bodyWidth = width - indent
        }
    }

    private enum Style: String {
        case bold = "1"
        case dim = "2"
        case yellow = "33"
        case blue = "34"
        case cyan = "36"
        case boldRed = "1;31"
        case boldGreen = "1;32"
    }

    private func style(_ text: String, _ style: Style) -> String {
        guard color, !text.isEmpty else { return text }
        return "\u{1B}[\(style.rawValue)m" + text + "\u{1B}[0m"
    }

    /// Each line followed by a newline.
    private static func append(_ lines: [String], to output: inout [UInt8]) {
        for line in lines {
            output.append(contentsOf: line.utf8)
            output.append(0x0A)
        }
    }

    private func summaryLine(of digest: DigestOutline) -> String {
        var parts = ["Generated \(TerminalText.sanitize(digest.generatedAtText))"]
        let items = digest.itemCount == 1 ? "1 item" : "\(digest.itemCount) items"
        parts.append(digest.newItemCount > 0 ? "\(items) (\(digest.newItemCount) new)" : items)
        var sources = digest.sources.count == 1 ? "1 source" : "\(digest.sources.count) sources"
        if !digest.failedSources.isEmpty { sources += ", \(digest.failedSources.count) failed" }
        parts.append(sources)
        return parts.joined(separator: " · ")
    }

    private func block(for entry: Digest.Entry, layout: Layout) -> [String] {
        var lines: [String] = []
        let indent = String(repeating: " ", count: layout.indent)
        let time = TerminalText.pad(entry.timeText.map(TerminalText.sanitize) ?? "", toWidth: Layout.timeWidth)
        let source = TerminalText.truncate(TerminalText.sanitize(entry.sourceTitle), toWidth: layout.sourceWidth)
        let gap = String(repeating: " ", count: Layout.gap)
        let lead =
            style(time, .dim) + gap + style(source, .cyan)
            + String(repeating: " ", count: layout.sourceWidth - TerminalText.displayWidth(source)) + gap

        let titleLines = TerminalText.wrap(TerminalText.sanitize(entry.title), width: layout.bodyWidth)
        for (index, line) in titleLines.enumerated() {
            lines.append((index == 0 ? lead : indent) + style(line, .bold))
        }

        var details: [String] = []
        if let publisher = entry.publisher { details.append(TerminalText.sanitize(publisher)) }
        if !entry.alsoIn.isEmpty {
            details.append("also in " + entry.alsoIn.map { TerminalText.sanitize($0.rawValue) }.joined(separator: ", "))
        }
        if !entry.related.isEmpty { details.append("\(entry.related.count) related") }
        if entry.isNew { details.append("new") }
        if !details.isEmpty {
            // Wrap the plain text, then colour the words that need it, so that colour codes never count as width.
            let plain = details.joined(separator: " · ")
            let detailLines = TerminalText.wrap(plain, width: layout.bodyWidth)
            for (index, line) in detailLines.enumerated() {
                var styled = line
                // "new" is always the last detail, so it ends the last line.
                if color, entry.isNew, index == detailLines.count - 1, line.hasSuffix("new") {
                    styled = String(line.dropLast(3)) + style("new", .boldGreen)
                }
                lines.append(indent + styled)
            }
        }
        // A linkable URL is shown percent-encoded, as the other formats link it, so that a terminal finds its end.
        if let url = entry.url.map({ LinkPolicy.linkable($0) ?? TerminalText.sanitize($0) }), !url.isEmpty {
            lines.append(indent + style(url, .blue))
        }
        return lines
    }

    private func problems(of digest: DigestOutline, width: Int) -> [String] {
        var lines: [String] = []
        func list(_ heading: String, _ headingStyle: Style, _ rows: [String]) {
            guard !rows.isEmpty else { return }
            lines.append("")
            lines.append(style(heading, headingStyle))
            for row in rows {
                let wrapped = TerminalText.wrap(row, width: width - 4)
                for (index, line) in wrapped.enumerated() {
                    lines.append((index == 0 ? "  " : "    ") + line)
                }
            }
        }
        func name(_ source: Digest.SourceSummary) -> String {
            let title = TerminalText.sanitize(source.title)
            return title == source.id.rawValue ? title : "\(title) (\(TerminalText.sanitize(source.id.rawValue)))"
        }
        list(
            "Failed sources",
            .boldRed,
            digest.failedSources.map { source in
                let reason = "\(name(source)): \(TerminalText.sanitize(source.reason ?? "failed"))"
                return source.health.map { "\(reason) (\(TerminalText.sanitize($0)))" } ?? reason
            }
        )
        list(
            "Incomplete sources",
            .yellow,
            digest.sources.filter { $0.state == .incomplete }.map { "\(name($0)): did not finish" }
        )
        list(
            "Warnings",
            .yellow,
            digest.sources.flatMap { source in source.warnings.map { "\(name(source)): \(TerminalText.sanitize($0))" } }
        )
        return lines
    }
}
