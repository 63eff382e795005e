public import TributaryCore

/// Draws a digest as GitHub Flavored Markdown: a `#` title, a generated line, a `##` heading per day with exactly one
/// top-level bullet per item, related coverage as nested bullets, and a `## Sources` table with each source's state,
/// item count and, for failures, the reason.
///
/// An item's bullet reads `- [Title](<url>) — Source · Publisher · 14:41 · **new**`. Every string is passed through
/// ``MarkdownEscaping``, so a feed cannot change the document's structure; only `http`, `https` and `mailto` URLs
/// become links (others are shown as text).
public struct MarkdownRenderer: Renderer {
    /// The format this renderer produces.
    public static let format = OutputFormat.markdown

    /// Creates a Markdown renderer.
    public init() {}

    /// Renders the digest as Markdown; the result ends with a newline.
    public func render(_ digest: Digest) throws -> String {
        var lines: [String] = []
        lines.append("# " + MarkdownEscaping.text(digest.title))
        lines.append("")
        lines.append(generatedLine(of: digest))
        if digest.days.isEmpty {
            lines.append("")
            lines.append("No items.")
        }
        for day in digest.days {
            lines.append("")
            lines.append("## " + MarkdownEscaping.text(day.heading))
            lines.append("")
            for entry in day.entries {
                lines += bullet(for: entry)
            }
        }
        if !digest.sources.isEmpty {
            lines.append("")
            lines += sourcesTable(of: digest)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Private

    private func generatedLine(of digest: Digest) -> String {
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

    private func sourcesTable(of digest: Digest) -> [String] {
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
