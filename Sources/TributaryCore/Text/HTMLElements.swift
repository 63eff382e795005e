/// What HTML's elements are to text: the one list of the elements that stand on their own lines (blocks), which the
/// sanitizer's text extraction and the plain-text reading of titles (``FeedText``) both follow.
public enum HTMLElements {
    /// Elements a browser lays out as blocks: the text before and after one is never run together.
    public static let blocks: Set<String> = [
        "address", "article", "aside", "blockquote", "caption", "dd", "details", "div", "dl", "dt", "figcaption",
        "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    /// Whether this (lower-case) name is an element of HTML as feeds write it: a block, an inline element, a
    /// void one, or one of the old presentational ones.
    public static func isElement(_ name: String) -> Bool {
        blocks.contains(name) || others.contains(name)
    }

    /// The elements that are not blocks.
    static let others: Set<String> = [
        "a", "abbr", "acronym", "area", "audio", "b", "base", "bdi", "bdo", "big", "blink", "body", "br", "button",
        "canvas", "center", "cite", "code", "col", "colgroup", "data", "del", "dfn", "dialog", "em", "embed",
        "fieldset", "font", "form", "frame", "head", "html", "i", "iframe", "img", "input", "ins", "kbd", "label",
        "legend", "link", "main", "map", "mark", "marquee", "math", "menu", "meta", "meter", "nav", "nobr",
        "noscript", "object", "optgroup", "option", "output", "param", "picture", "progress", "q", "rp", "rt",
        "ruby", "s", "samp", "script", "select", "small", "source", "span", "strike", "strong", "style", "sub",
        "sup", "svg", "template", "textarea", "time", "title", "track", "tt", "u", "var", "video", "wbr",
    ]

    /// Whether a tag of this (lower-case) name separates the words around it when markup is read as plain text: a
    /// block or a line break does; an inline element (`b`, `a`, `sup` in `ft<sup>2</sup>`, `abbr`, any other)
    /// does not, as a browser shows them.
    public static func separatesWords(_ name: String) -> Bool {
        switch name.utf8.count {
        // `p` is the one block named by one letter (`a`, `b`, `i`, `q`, `s`, `u` are inline): the commonest tags
        // of an excerpt are then told apart without hashing their names.
        case 1: name == "p"
        case 2: name == "br" || blocks.contains(name)
        default: blocks.contains(name)
        }
    }
}
