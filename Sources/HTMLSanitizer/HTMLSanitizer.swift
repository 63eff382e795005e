public import Foundation

/// Turns untrusted HTML from feeds into HTML that is safe to insert into a page: only an allowlist of elements and
/// attributes, only http, https and mailto URLs, and nothing that can run script or load anything but images.
///
/// The input is parsed with libxml2's HTML parser (no network, no error reporting) and the tree is written anew.
/// Simple, well-formed fragments (most feed items) are read directly instead, to the very same result, see
/// ``Options-swift.struct/readsSimpleFragmentsDirectly``:
///
/// - Allowed elements (paragraphs, lists, quotes, code, emphasis, headings, images, figures, tables, definition
///   lists, `span`, `div`, `abbr`, `cite`, `q`, `small`, `time`, …) keep their allowed attributes: `title`, `lang`,
///   `dir` everywhere, and per element `href`, `src`, `alt`, `width`, `height`, `cite`, `datetime`, `colspan`,
///   `rowspan`, `scope`, `start`, `reversed`, `value`, each checked for its form.
/// - `script`, `style`, `object`, `embed`, `applet`, a form's fields (`input`, `select`...), `template`,
///   `frame`/`frameset` and document metadata are dropped with their content.
/// - `noscript`, `textarea` and `iframe` (whose content is fallback for the reader), `form` and `fieldset` (a
///   sign-up form's text), `svg`, `math` and media elements are unwrapped: the elements go, their sanitized content
///   stays.
/// - Any other element is unwrapped: its tags are dropped, its content kept.
/// - Every other attribute is dropped: event handlers, `style` (so all CSS), `class`, `id`, `srcset`, `target`, `rel`.
/// - URLs (`href`, `src`, `cite`) are kept only with the scheme http, https or mailto, read after character
///   references are decoded and white space and control characters in it removed (see the obfuscations in the
///   OWASP XSS filter-evasion cheat sheet); relative URLs are resolved against `baseURL`. An `img` without a usable
///   `src` is dropped.
/// - Links are kept as links: no `target` or `rel` is added (so stored content reads as the feed wrote it); the
///   HTML digest sets its referrer policy for the whole page.
/// - Comments, processing instructions and doctypes are dropped; text is escaped.
///
/// The output is well-formed (every element closed, in order), and idempotent: sanitizing it again returns it
/// unchanged (as long as it is within the input limit: an input close to the limit can give a longer output, through
/// escaping, end tags and resolved URLs, and a second pass reads only the limit's worth of it). libxml2 repairs
/// broken markup much as browsers do, but not always the same way, so after a libxml2 parse the sanitizer writes the
/// tree, parses its own output again and repeats until nothing changes (normally after one check); if that does not
/// settle within a few rounds, the result is the escaped plain text. A fragment read directly was not repaired, and
/// its output is read directly again to the same bytes, so it needs no such check (tests and the fuzz target check
/// that it holds).
///
/// Bounds: at most ``Options-swift.struct/maximumInputBytes`` of input are read; the input is also cut where its
/// elements nest deeper than 512 or a tag has more than 128 attributes (which only hostile input does), and
/// allowed elements nested deeper than ``Options-swift.struct/maximumDepth`` are unwrapped. The tree is walked
/// without recursion. Time and memory are therefore linear in the bounded input.
///
/// `HTMLSanitizer` is a value with no shared state: use one from any number of tasks at once.
public struct HTMLSanitizer: Sendable {
    /// What is kept and how much is read.
    public let options: Options

    /// The rounds of re-parsing after the first, before falling back to plain text.
    private static let settleRounds = 3

    /// Creates a sanitizer.
    ///
    /// - Parameter options: the limits and choices; the defaults suit feed item content.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Returns the safe HTML for `html`.
    ///
    /// - Parameters:
    ///   - html: an HTML fragment (a whole document works too: only its body is kept).
    ///   - baseURL: the URL relative URLs are resolved against (the item's or the feed's page); ignored unless it
    ///     is an absolute http(s) URL. Without it relative URLs are kept as written.
    /// - Returns: the sanitized fragment; empty when nothing is left.
    public func sanitize(_ html: String, baseURL: URL?) -> String {
        String(decoding: sanitizedUTF8(html, baseURL: baseURL), as: UTF8.self)
    }

    /// ``sanitize(_:baseURL:)`` as UTF-8, for callers that write the bytes out (the JSON Feed of `tributary parse`)
    /// and need no `String` in between.
    ///
    /// The bytes are always valid UTF-8: the input is read at most up to a character boundary, and all that is
    /// written is whole characters of it, ASCII markup and escapes, or characters encoded anew.
    ///
    /// - Parameters:
    ///   - html: an HTML fragment.
    ///   - baseURL: as for ``sanitize(_:baseURL:)``.
    /// - Returns: the sanitized fragment as UTF-8; empty when nothing is left.
    public func sanitizedUTF8(_ html: String, baseURL: URL?) -> [UInt8] {
        var html = html
        return html.withUTF8 { sanitizedUTF8(validUTF8: $0, baseURL: baseURL) }
    }

    /// ``sanitizedUTF8(_:baseURL:)`` from bytes, for the feed parser, whose text is UTF-8 that libxml2 checked: it
    /// then needs no `String` (whose making would check it once more) on either side.
    ///
    /// - Parameters:
    ///   - html: an HTML fragment; it must be valid UTF-8.
    ///   - baseURL: as for ``sanitize(_:baseURL:)``.
    /// - Returns: the sanitized fragment as UTF-8; empty when nothing is left.
    package func sanitizedUTF8(validUTF8 html: UnsafeBufferPointer<UInt8>, baseURL: URL?) -> [UInt8] {
        let safe = safeHTML(html, baseURL: baseURL)
        assert(String(validating: safe, as: UTF8.self) != nil, "the sanitizer wrote invalid UTF-8")
        return safe
    }

    /// Returns the text a reader sees in `html`: the content the sanitizer keeps, without markup and with
    /// references decoded; white space collapsed except in `pre`, a line break for each `br`, each block on its own
    /// lines with one blank line between blocks, and an image's `alt` text in its place.
    ///
    /// - Parameter html: an HTML fragment.
    /// - Returns: the text, trimmed; empty when there is none.
    public func plainText(_ html: String) -> String {
        plainText(fromBytes: InputBounds.prepare(html, maximumBytes: options.maximumInputBytes))
    }

    // MARK: - Private

    /// The sanitized HTML of `utf8` (valid UTF-8) as UTF-8: see ``sanitizedUTF8(_:baseURL:)``.
    private func safeHTML(_ utf8: UnsafeBufferPointer<UInt8>, baseURL: URL?) -> [UInt8] {
        let base = URLPolicy.usableBase(baseURL)
        let maximumBytes = options.maximumInputBytes
        if options.readsSimpleFragmentsDirectly {
            let walker = TreeWalker(options: options, base: base)
            // Most fragments need no cleaning: they are read where they are, without a copy.
            let direct =
                InputBounds.isClean(utf8, maximumBytes: maximumBytes)
                ? SimpleFragmentReader.render(utf8, walker: walker)
                : SimpleFragmentReader.render(InputBounds.clean(utf8, maximumBytes: maximumBytes), walker: walker)
            if let direct {
                // Read directly, so not repaired: there is nothing to settle, and its output is read directly again
                // to the same bytes (the tests and the fuzz target check that it is idempotent like every other
                // output).
                return Self.trimmed(direct)
            }
        }
        let cleaned = InputBounds.clean(utf8, maximumBytes: maximumBytes)
        var output = render(InputBounds.cut(cleaned), base: base, readingDirectly: false)
        for _ in 0..<Self.settleRounds {
            // What sanitizing the output again does, except that the output is read whole even when it is longer
            // than the input limit.
            let input = InputBounds.prepare(
                String(decoding: output, as: UTF8.self),
                maximumBytes: max(options.maximumInputBytes, output.count)
            )
            let again = render(input, base: base)
            if again == output { return output }
            output = again
        }
        // Not settled: escaped plain text on one line, which does.
        var fallback: [UInt8] = []
        let text = plainText(fromBytes: output).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        HTMLWriter.escape(text, quotes: false, into: &fallback)
        let settled = render(
            InputBounds.prepare(
                String(decoding: fallback, as: UTF8.self),
                maximumBytes: max(options.maximumInputBytes, fallback.count)
            ),
            base: base
        )
        return settled == fallback ? fallback : []
    }

    /// The sanitized HTML of `bytes`, trimmed: read directly when `readingDirectly` and the options allow it and
    /// ``SimpleFragmentReader`` takes it, else through libxml2's tree.
    private func render(_ bytes: [UInt8], base: URL?, readingDirectly: Bool = true) -> [UInt8] {
        let walker = TreeWalker(options: options, base: base)
        if readingDirectly, options.readsSimpleFragmentsDirectly,
            let direct = SimpleFragmentReader.render(bytes, walker: walker)
        {
            return Self.trimmed(direct)
        }
        let parsed = ParsedHTML(fragment: bytes)
        guard let root = parsed.root else { return [] }
        var writer = HTMLWriter()
        withExtendedLifetime(parsed) { walker.walk(root, into: &writer) }
        return Self.trimmed(writer.bytes)
    }

    /// `written` without the white space around it: it means nothing there, and libxml2 keeps only some of it.
    private static func trimmed(_ written: [UInt8]) -> [UInt8] {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C }
        guard let first = written.firstIndex(where: { !isSpace($0) }),
            let last = written.lastIndex(where: { !isSpace($0) })
        else { return [] }
        if first == 0, last == written.count - 1 { return written }
        return Array(written[first...last])
    }

    private func plainText(fromBytes bytes: [UInt8]) -> String {
        let parsed = ParsedHTML(fragment: bytes)
        guard let root = parsed.root else { return "" }
        var extractor = TextExtractor()
        withExtendedLifetime(parsed) { TreeWalker(options: options, base: nil).walk(root, into: &extractor) }
        return extractor.result
    }
}
