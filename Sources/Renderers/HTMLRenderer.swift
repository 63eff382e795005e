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
public struct HTMLRenderer: Renderer {
    /// The format this renderer produces.
    public static let format = OutputFormat.html

    /// The template the digest is drawn through; `nil` for the built-in one.
    public var template: HTMLTemplate?

    /// Creates an HTML renderer that draws through `template`, or through the built-in template when it is `nil`.
    public init(template: HTMLTemplate? = nil) {
        self.template = template
    }

    /// Renders the digest as an HTML document.
    /// - Throws: ``RenderError`` when the built-in template is missing from the installation.
    public func render(_ digest: Digest) throws -> String {
        try (template ?? HTMLTemplate.builtIn()).render(digest)
    }
}
