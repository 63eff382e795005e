public import TributaryCore

/// Draws a digest as one self-contained HTML5 page through a Mustache template (``HTMLTemplate``): the built-in
/// one by default, or a user's (`tributary digest --template`, `"template"` in feeds.json).
///
/// The built-in page has inline CSS (readable on a phone, light and dark through `prefers-color-scheme`), no
/// JavaScript, and nothing fetched from anywhere: feed images are not shown. Its header holds the title, the time
/// it was generated, a navigation list of the days and the sources' status table (state, item count, reason,
/// health, warnings); `<main>` has a `<section>` per day and an `<article>` per item (title link, publisher,
/// source, local time, summary, tags, related coverage, a "new" mark). Every string is HTML-escaped by the
/// template engine, feed HTML is never inserted (summaries are plain text), and only `http`, `https` and `mailto`
/// URLs become links.
///
/// A template that ``HTMLTemplate/drawsInParts`` (the built-in one does) is drawn a part at a time, the entries a
/// batch at a time as a run reads them back from its store, so that the page is never whole in memory; the bytes
/// are those of the template drawn whole (``render(_:)``).
public struct HTMLRenderer: StreamingRenderer {
    /// The format this renderer produces.
    public static let format = OutputFormat.html

    /// The template the digest is drawn through; `nil` for the built-in one.
    public var template: HTMLTemplate?
    /// The template's parts with the values of the digest being drawn, made by ``prepared(for:)``.
    private var drawing: HTMLTemplate.PartDrawing?

    /// Creates an HTML renderer that draws through `template`, or through the built-in template when it is `nil`.
    public init(template: HTMLTemplate? = nil) {
        self.template = template
    }

    /// Renders the digest as an HTML document, the template drawn whole.
    /// - Throws: ``RenderError`` when the built-in template is missing from the installation.
    public func render(_ digest: Digest) throws -> String {
        try resolvedTemplate().render(digest)
    }

    /// Whether the template can be drawn a part at a time; `true` when the built-in template is missing, so that
    /// drawing starts and reports it.
    public var drawsInParts: Bool {
        (try? resolvedTemplate())?.drawsInParts ?? true
    }

    public func prepared(for digest: DigestOutline) -> HTMLRenderer {
        var renderer = self
        renderer.drawing = (try? resolvedTemplate())?.drawing(for: digest)
        return renderer
    }

    public func writeStart(of digest: DigestOutline, into output: inout [UInt8]) throws {
        try prepared().writeStart(into: &output)
    }

    public func writeStart(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) throws {
        try prepared().writeStart(ofDay: index, into: &output)
    }

    public func write(_ entries: [Digest.Entry], after written: Int, into output: inout [UInt8]) throws {
        try prepared().write(entries, after: written, into: &output)
    }

    public func writeEnd(of day: DigestOutline.Day, at index: Int, into output: inout [UInt8]) throws {
        try prepared().writeEnd(ofDay: index, into: &output)
    }

    public func writeEnd(of digest: DigestOutline, into output: inout [UInt8]) throws {
        try prepared().writeEnd(into: &output)
    }

    // MARK: - Private

    private func resolvedTemplate() throws(RenderError) -> HTMLTemplate {
        if let template { return template }
        return try HTMLTemplate.builtIn()
    }

    /// The drawing ``prepared(for:)`` made.
    /// - Throws: the built-in template's ``RenderError`` when it is missing; a ``RenderError`` when the renderer
    ///   was not prepared for a digest or its template cannot be drawn in parts (a caller's mistake: see
    ///   ``drawsInParts``).
    private func prepared() throws(RenderError) -> HTMLTemplate.PartDrawing {
        if let drawing { return drawing }
        let template = try resolvedTemplate()
        throw RenderError(
            format: .html,
            reason: .template(
                file: template.file,
                line: nil,
                detail: template.drawsInParts
                    ? "the HTML renderer was not prepared for the digest before drawing its parts"
                    : "this template is drawn whole, not in parts"
            )
        )
    }
}
