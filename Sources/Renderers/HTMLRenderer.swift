public import TributaryCore

/// Draws a digest as one self-contained HTML5 page: inline CSS (readable on a phone, light and dark), no JavaScript
/// and nothing fetched from anywhere.
///
/// The page has a header with the title and the time it was generated, a `<main>` with a `<section>` per day and an
/// `<article>` per item (title link, publisher, source, time, summary, tags, related coverage, a "new" mark), and a
/// table of the sources with their state, item count and reason. Every string goes through ``HTMLEscaping``; feed
/// HTML is not inserted (summaries are plain text), and only `http`, `https` and `mailto` URLs become links.
public struct HTMLRenderer: Renderer {
    /// The format this renderer produces.
    public static let format = OutputFormat.html

    /// Creates an HTML renderer.
    public init() {}

    /// Renders the digest as an HTML document; the result ends with a newline.
    public func render(_ digest: Digest) throws -> String {
        var html = ""
        html.reserveCapacity(16_384 + digest.itemCount * 1024)
        let title = HTMLEscaping.text(digest.title)
        html += """
            <!doctype html>
            <html lang="\(HTMLEscaping.attribute(digest.language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="Tributary">
            <title>\(title)</title>
            <style>
            \(Self.styleSheet)</style>
            </head>
            <body>
            <header>
            <h1>\(title)</h1>
            <p class="generated">Generated <time datetime="\(HTMLEscaping.attribute(digest.generatedAtISO))">\
            \(HTMLEscaping.text(digest.generatedAtText))</time> · \(counts(of: digest))</p>
            </header>
            <main>

            """
        if digest.days.isEmpty {
            html += "<p class=\"empty\">No items.</p>\n"
        }
        for day in digest.days {
            let anchor = HTMLEscaping.attribute("day-" + day.id)
            html += "<section id=\"\(anchor)\" aria-labelledby=\"\(anchor)-heading\">\n"
            html += "<h2 id=\"\(anchor)-heading\">\(HTMLEscaping.text(day.heading))</h2>\n"
            for entry in day.entries {
                html += article(for: entry, digestLanguage: digest.language)
            }
            html += "</section>\n"
        }
        html += "</main>\n"
        html += sourcesTable(of: digest)
        html += "</body>\n</html>\n"
        return html
    }

    // MARK: - Private

    private func counts(of digest: Digest) -> String {
        let items = digest.itemCount == 1 ? "1 item" : "\(digest.itemCount) items"
        var text = digest.newItemCount > 0 ? "\(items) (\(digest.newItemCount) new)" : items
        text += " · " + (digest.sources.count == 1 ? "1 source" : "\(digest.sources.count) sources")
        if !digest.failedSources.isEmpty {
            text += ", <a href=\"#sources\" class=\"failed\">\(digest.failedSources.count) failed</a>"
        }
        return text
    }

    /// `text` linked to `url` when the URL may be linked, else the text followed by the URL as text.
    private func link(_ text: String, url: String?) -> String {
        guard let url else { return HTMLEscaping.text(text) }
        guard let href = HTMLEscaping.linkURL(url) else {
            return HTMLEscaping.text(text) + " <span class=\"url\">" + HTMLEscaping.text(url) + "</span>"
        }
        return "<a href=\"\(href)\" rel=\"noopener noreferrer\">\(HTMLEscaping.text(text))</a>"
    }

    private func isLanguageTag(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 35 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    private func article(for entry: Digest.Entry, digestLanguage: String) -> String {
        var html = "<article class=\"\(entry.isNew ? "entry new" : "entry")\""
        // The item's own language lets browsers pick the right glyphs (Japanese and Chinese share code points).
        if let language = entry.item.language, language != digestLanguage, isLanguageTag(language) {
            html += " lang=\"\(HTMLEscaping.attribute(language))\""
        }
        html += ">\n"
        html += "<h3>\(link(entry.title, url: entry.url))"
        if entry.isNew { html += " <strong class=\"new-mark\">new</strong>" }
        html += "</h3>\n"

        var meta: [String] = []
        if let publisher = entry.publisher {
            meta.append("<span class=\"publisher\">\(HTMLEscaping.text(publisher))</span>")
        }
        meta.append("<span class=\"source\">\(HTMLEscaping.text(entry.sourceTitle))</span>")
        if let timeText = entry.timeText, let dateISO = entry.dateISO {
            meta.append("<time datetime=\"\(HTMLEscaping.attribute(dateISO))\">\(HTMLEscaping.text(timeText))</time>")
        }
        if !entry.alsoIn.isEmpty {
            let sources = entry.alsoIn.map { HTMLEscaping.text($0.rawValue) }.joined(separator: ", ")
            meta.append("<span class=\"also-in\">also in \(sources)</span>")
        }
        html += "<p class=\"meta\">" + meta.joined(separator: " · ") + "</p>\n"

        if let summary = entry.summary {
            html += "<p class=\"summary\">\(HTMLEscaping.text(summary))</p>\n"
        }
        if !entry.tags.isEmpty {
            html += "<ul class=\"tags\" aria-label=\"Tags\">"
            html += entry.tags.map { "<li>\(HTMLEscaping.text($0))</li>" }.joined()
            html += "</ul>\n"
        }
        if !entry.related.isEmpty {
            html += "<ul class=\"related\" aria-label=\"Related coverage\">\n"
            for related in entry.related {
                html += "<li>" + link(related.title, url: related.url)
                if let publisher = related.publisher {
                    html += " <span class=\"publisher\">\(HTMLEscaping.text(publisher))</span>"
                }
                html += "</li>\n"
            }
            html += "</ul>\n"
        }
        html += "</article>\n"
        return html
    }

    private func sourcesTable(of digest: Digest) -> String {
        guard !digest.sources.isEmpty else { return "" }
        var html = """
            <footer id="sources">
            <h2>Sources</h2>
            <div class="table-wrap">
            <table>
            <thead>
            <tr><th scope="col">Source</th><th scope="col">State</th><th scope="col">Items</th>\
            <th scope="col">Reason</th></tr>
            </thead>
            <tbody>

            """
        for source in digest.sources {
            let stateClass = source.state.rawValue.split(separator: " ").joined(separator: "-")
            html += "<tr class=\"\(stateClass)\">"
            html += "<th scope=\"row\">\(HTMLEscaping.text(source.title))"
            if source.title != source.id.rawValue {
                html += " <span class=\"id\">\(HTMLEscaping.text(source.id.rawValue))</span>"
            }
            html += "</th>"
            html += "<td>\(HTMLEscaping.text(source.state.rawValue))</td>"
            html += "<td class=\"count\">\(source.itemCount)</td>"
            html += "<td>"
            if let reason = source.reason { html += HTMLEscaping.text(reason) }
            if !source.warnings.isEmpty {
                html += "<ul class=\"warnings\">"
                html += source.warnings.map { "<li>\(HTMLEscaping.text($0))</li>" }.joined()
                html += "</ul>"
            }
            html += "</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n</footer>\n"
        return html
    }

    /// The page's only style: system fonts, a readable measure, light and dark colours.
    private static let styleSheet = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --link: #0550ae; --rule: #d1d9e0;
          --new: #1a7f37; --failed: #cf222e; --chip: #eff2f5;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --link: #6cb6ff; --rule: #3d444d;
            --new: #3fb950; --failed: #ff7b72; --chip: #212830;
          }
        }
        * { box-sizing: border-box; }
        body {
          margin: 0 auto; max-width: 46rem; padding: 1rem;
          background: var(--bg); color: var(--fg);
          font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans CJK JP", sans-serif;
          overflow-wrap: anywhere;
        }
        a { color: var(--link); }
        h1 { font-size: 1.6rem; margin: 0.5rem 0 0.25rem; }
        h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--rule); }
        h3 { font-size: 1.05rem; margin: 0; }
        .generated, .meta, .related, .url, .id { color: var(--muted); }
        .generated { margin: 0; font-size: 0.95rem; }
        .failed { color: var(--failed); }
        article { padding: 0.75rem 0; border-bottom: 1px solid var(--rule); }
        article:last-child { border-bottom: none; }
        .meta { margin: 0.2rem 0; font-size: 0.9rem; }
        .summary { margin: 0.4rem 0; }
        .new-mark {
          font-size: 0.75rem; text-transform: uppercase; color: var(--new);
          border: 1px solid var(--new); border-radius: 0.3rem; padding: 0 0.3rem; vertical-align: middle;
        }
        .tags { list-style: none; margin: 0.4rem 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem; }
        .tags li { background: var(--chip); border-radius: 1rem; padding: 0 0.6rem; font-size: 0.8rem; }
        .related { margin: 0.3rem 0 0; padding-left: 1.2rem; font-size: 0.9rem; }
        .table-wrap { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
        th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--rule); }
        td.count { text-align: right; }
        tr.failed td, tr.failed th { color: var(--failed); }
        .warnings { margin: 0; padding-left: 1rem; }
        @media (max-width: 30rem) { body { padding: 0.75rem; } h1 { font-size: 1.35rem; } }

        """
}
