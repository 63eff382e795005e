public import TributaryCore

/// Draws a digest as GitHub Flavored Markdown: a `#` title, a generated line, a `##` heading per day with exactly one
/// top-level bullet per item, related coverage as nested bullets, and a `## Sources` table with each source's state,
/// item count and, for failures, the reason.
///
/// An item's bullet reads `- [Title](<url>) — Source · Publisher · 14:41 · **new**`. Every string is passed through
/// ``MarkdownEscaping``, so a feed cannot change the document's structure; only `http`, `https` and `mailto` URLs
/// become links (others are shown as text).
public struct MarkdownRenderer: StreamingRenderer {
    /// The format this renderer produces.
    public static let format = OutputFormat.markdown

    /// Creates a Markdown renderer.
    public init() {}

    public func writeStart(of digest: DigestOutline, into output: inout [UInt8]) {
        var lines = ["# " + MarkdownEscaping.text(digest.title), "", generatedLine(of: digest)]
        if digest.days.isEmpty { lines += ["", "No items."] }
        Self.append(lines, to: &output)
    }

    public func writeStart(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) {
        Self.append(["", "## " + MarkdownEscaping.text(day.heading), ""], to: &output)
    }

    public func write(_ entries: [Digest.Entry], after written: Int, into output: inout [UInt8]) {
        for entry in entries { Self.append(bullet(for: entry), to: &output) }
    }

    public func writeEnd(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) {}

    /// The sources table; the document ends with a newline.
    public func writeEnd(of digest: DigestOutline, into output: inout [UInt8]) {
        guard !digest.sources.isEmpty else { return }
        Self.append([""] + sourcesTable(of: digest), to: &output)
    }

    // MARK: - Private

    /// Each line followed by a newline.
    private static func append(_ lines: [String], to output: inout [UInt8]) {
        for line in lines {
            output.append(contentsOf: line.utf8)
            output.append(0x0A)
        }
    }

    private func generatedLine(of digest: DigestOutline) -> String {
        let items = digest.itemCount == 1 ? "1 item" : "\(digest.itemCount) items"
        var parts = [
            "Generated " + MarkdownEscaping.text(digest.generatedAtText),
            digest.newItemCount > 0 ? "\(items) (\(digest.newItemCount) new)" : items,
        ]
        var sources = digest.sources.count == 1 ? "1 source" : "\(digest.sources.count) sources"
        if !digest.failedSources.isEmpty { sources += ", \(digest.failedSources.count) failed" }
        parts.append(sources)
        return parts.joined(separator: " · ")
    }

    /// `text` as a link to `url` when the URL may be linked; otherwise the text followed by the URL as text.
    private func link(_ text: String, url: String?) -> (link: String, unlinkedURL: String?) {
        guard let url else { return (MarkdownEscaping.text(text), nil) }
        guard let destination = MarkdownEscaping.linkDestination(url) else {
            return (MarkdownEscaping.text(text), MarkdownEscaping.text(url))
        }
        return ("[\(MarkdownEscaping.text(text))](\(destination))", nil)
    }

    private func bullet(for entry: Digest.Entry) -> [String] {
        let (title, unlinkedURL) = link(entry.title, url: entry.url)
        var details = [MarkdownEscaping.text(entry.sourceTitle)]
        if let publisher = entry.publisher { details.append(MarkdownEscaping.text(publisher)) }
        if let time = entry.timeText { details.append(MarkdownEscaping.text(time)) }
        if let unlinkedURL { details.append(unlinkedURL) }
        if entry.isNew { details.append("**new**") }
        var lines = ["- \(title) — " + details.joined(separator: " · ")]
        for related in entry.related {
            let (relatedTitle, relatedURL) = link(related.title, url: related.url)
            var line = "  - " + relatedTitle
            let extra = [related.publisher.map { MarkdownEscaping.text($0) }, relatedURL].compactMap { $0 }
            if !extra.isEmpty { line += " — " + extra.joined(separator: " · ") }
            lines.append(line)
        }
        return lines
    }

    private func sourcesTable(of digest: DigestOutline) -> [String] {
        var lines = ["## Sources", "", "| Source | State | Items | Reason |", "| --- | --- | ---: | --- |"]
        for source in digest.sources {
            var notes: [String] = []
            if let reason = source.reason { notes.append(MarkdownEscaping.text(reason, inTableCell: true)) }
            if let health = source.health { notes.append(MarkdownEscaping.text(health, inTableCell: true)) }
            notes += source.warnings.map { "warning: " + MarkdownEscaping.text($0, inTableCell: true) }
            let cells = [
                MarkdownEscaping.text(source.title, inTableCell: true),
                MarkdownEscaping.text(source.state.rawValue, inTableCell: true),
                "\(source.itemCount)",
                notes.joined(separator: "; "),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }
}
