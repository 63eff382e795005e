/// The allowlists: which elements are written, which are dropped with their content, and which attributes each
/// element keeps. Everything not listed is unwrapped (elements) or dropped (attributes).
enum HTMLPolicy {
    /// Elements written as they are (with their allowed attributes).
    static let allowedElements: Set<String> = [
        "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code",
        "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "footer",
        "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre",
        "q", "rp", "rt", "ruby", "s", "samp", "section", "small", "span", "strike", "strong", "sub", "summary", "sup",
        "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "tt", "u", "ul", "var", "wbr",
    ]

    /// Elements that have no content and no end tag.
    static let voidElements: Set<String> = ["br", "col", "hr", "img", "wbr"]

    /// Elements dropped together with everything inside them: scripting, embedding, a form's fields, raw-text
    /// elements other than `textarea`, and document metadata.
    ///
    /// A `button` or `label` is not here: it is only visible text, as in Real Python's "Show/Hide" toggles, so it is
    /// unwrapped and its text stays, as feedparser keeps it. Nor are `form` and `fieldset`: a newsletter's sign-up
    /// form (Mailchimp's, a Ghost blog's) is a post's closing words and sometimes its only ones; the form goes, its
    /// text stays, while its fields (`input`, `select`...) go with theirs.
    ///
    /// Nor are `noscript`, `textarea` and `iframe`: what is inside them is for the reader, and the digest runs no
    /// script. A lazy-loading plugin's `<noscript><img src=...></noscript>` holds a post's only real image, a
    /// torrent tracker puts its MediaInfo report in a `textarea`, and an `iframe`'s fallback is often the one link
    /// to what it embeds. They are unwrapped, their content sanitized as any other, as feedparser keeps it; the
    /// elements themselves are never written, so no browser reads their content differently from the sanitizer.
    /// The obsolete `xmp`, `listing` and `plaintext` are unwrapped for the same reason: what they hold is shown in
    /// a browser, and a post that opened with `<plaintext>` (a Ruby blog's, in feed-normalizer's tests) was lost
    /// whole.
    ///
    /// Nor is `canvas`: its content is the fallback for a reader whose browser draws nothing in it (a chart's
    /// caption, "(Chart of practice per musical instrument)"), and the digest runs no script that would draw it.
    ///
    /// SVG and MathML (`svg`, `math`) and `audio`/`video` are not here: like every element not allowed they are
    /// unwrapped, so their text (an SVG `<text>` or `<desc>`, a formula's `<mi>`, a player's fallback sentence) stays
    /// while the elements and every attribute go, as feedparser keeps that text. What inside them could run script
    /// (`script`, `style`, `foreignObject`'s `iframe`...) is dropped by the rules here as anywhere else.
    static let droppedWithContent: Set<String> = [
        "applet", "area", "base", "basefont", "bgsound", "datalist", "dialog", "embed", "frame",
        "frameset", "head", "input", "isindex", "keygen", "layer", "link", "map", "meta", "noembed", "noframes",
        "object", "optgroup", "option", "output", "param", "portal", "script", "select", "slot", "source", "style",
        "template", "title", "track", "xml",
    ]

    /// Dropped elements that HTML5 parsers treat as void: libxml2 (an HTML 4 parser) may put the markup after them
    /// inside them, which a browser would show after them, so their children are kept (and checked as usual).
    static let droppedVoidElements: Set<String> = [
        "area", "base", "basefont", "bgsound", "embed", "input", "keygen", "link", "meta", "param", "source", "track",
    ]

    /// How an attribute's value is checked.
    enum Rule {
        /// A URL: only http, https and mailto, relative ones resolved against the base.
        case url
        /// Free text (escaped on output).
        case text
        /// A non-negative integer of at most this many digits.
        case digits(Int)
        /// An integer, possibly negative, of at most nine digits.
        case integer
        /// One of these values, compared case-insensitively and written in lower case.
        case oneOf(Set<String>)
        /// One of these values, compared exactly.
        case exactly(Set<String>)
        /// A language tag: letters, digits and hyphens.
        case languageTag
        /// A date or time: digits, letters, `:`, `.`, `+`, `-`, `T`, `Z` and spaces.
        case dateTime
        /// A boolean attribute; written with an empty value.
        case boolean
    }

    /// Attributes every allowed element may keep.
    static let globalAttributes: [String: Rule] = [
        "title": .text,
        "lang": .languageTag,
        "dir": .oneOf(["ltr", "rtl", "auto"]),
    ]

    /// The attributes each element keeps beyond ``globalAttributes``.
    static let elementAttributes: [String: [String: Rule]] = [
        "a": ["href": .url, "hreflang": .languageTag],
        "img": ["src": .url, "alt": .text, "width": .digits(5), "height": .digits(5)],
        "blockquote": ["cite": .url],
        "q": ["cite": .url],
        "del": ["cite": .url, "datetime": .dateTime],
        "ins": ["cite": .url, "datetime": .dateTime],
        "time": ["datetime": .dateTime],
        "td": ["colspan": .digits(3), "rowspan": .digits(3)],
        "th": ["colspan": .digits(3), "rowspan": .digits(3), "scope": .oneOf(["row", "col", "rowgroup", "colgroup"])],
        "col": ["span": .digits(3)],
        "colgroup": ["span": .digits(3)],
        "ol": ["start": .integer, "reversed": .boolean, "type": .exactly(["1", "a", "A", "i", "I"])],
        "li": ["value": .integer],
        "details": ["open": .boolean],
    ]

    /// What the tables above say about one element, looked up once: the sanitizer reads many small fragments,
    /// and hashing the same names against five tables per element was a good part of its time. A class, so that
    /// passing one around costs one reference count, not one per table.
    final class Element: Sendable {
        /// The element's name, lower case.
        let name: String
        /// Dropped with everything inside it.
        let dropsContent: Bool
        /// Written (with its allowed attributes) rather than unwrapped.
        let isAllowed: Bool
        /// No content, no end tag.
        let isVoid: Bool
        /// The attributes it keeps, with their rules: the element's own, then the global ones.
        let attributes: [(name: String, rule: Rule)]
        /// ``name`` as UTF-8, for writers and readers that work on bytes.
        let nameBytes: [UInt8]
        /// The names of ``attributes`` as UTF-8, in the same order.
        let attributeNameBytes: [[UInt8]]
        /// The position in ``attributes`` of `src`, which an image must keep.
        let sourceIndex: Int?

        init(_ name: String) {
            self.name = name
            dropsContent =
                HTMLPolicy.droppedWithContent.contains(name) && !HTMLPolicy.droppedVoidElements.contains(name)
            isAllowed = HTMLPolicy.allowedElements.contains(name)
            isVoid = HTMLPolicy.voidElements.contains(name)
            let own = HTMLPolicy.elementAttributes[name] ?? [:]
            let global = HTMLPolicy.globalAttributes.filter { own[$0.key] == nil }
            attributes = (own.sorted { $0.key < $1.key } + global.sorted { $0.key < $1.key })
                .map { (name: $0.key, rule: $0.value) }
            nameBytes = Array(name.utf8)
            attributeNameBytes = attributes.map { Array($0.name.utf8) }
            sourceIndex = attributes.firstIndex { $0.name == "src" }
        }

        /// The position in ``attributes`` of the attribute named `name` (UTF-8, compared ASCII
        /// case-insensitively), or `nil` when it is dropped.
        func attributeIndex(named name: UnsafeBufferPointer<UInt8>) -> Int? {
            for (index, candidate) in attributeNameBytes.enumerated() where candidate.count == name.count {
                var equal = true
                for offset in 0..<name.count where name[offset].asciiLowercased != candidate[offset] {
                    equal = false
                    break
                }
                if equal { return index }
            }
            return nil
        }

        /// The element named `name` (lower case): from a table for every element the policy names.
        static func named(_ name: String) -> Element {
            known[name] ?? Element(name)
        }

        private static let known: [String: Element] = Dictionary(
            uniqueKeysWithValues: allowedElements.union(droppedWithContent).union(voidElements).map {
                ($0, Element($0))
            }
        )
    }
}
