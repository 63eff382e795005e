/// The `xml:lang` and `xml:base` in force where a text field (a title, content, a summary, a feed's rights) was
/// written, as feedparser gives each field's `language` and `base`. Kept only in documents that set either, and
/// written only where a field's differs from its item's or feed's (`_tributary.languages`, `_tributary.bases`).
struct FieldContext: Equatable, Sendable {
    /// The `xml:lang` in force: `""` when one unset it (`xml:lang=""`), `nil` when the document sets none above the
    /// field (then the field has the item's or feed's language, whatever named it).
    var language: String?
    /// The `xml:base` in force, resolved; `nil` when none is (the feed's URL is the base).
    var base: String?

    /// The languages and bases of `fields` that differ from what they inherit: `language` (the item's, else the
    /// feed's; `nil` for none) and `base` (the feed's `xml:base`, else its URL).
    static func differences(
        _ fields: [(name: String, context: FieldContext?)],
        language: String?,
        base: String?
    ) -> (languages: [String: String], bases: [String: String]) {
        var languages: [String: String] = [:]
        var bases: [String: String] = [:]
        for (name, context) in fields {
            guard let context else { continue }
            if let own = context.language, own != (language ?? "") { languages[name] = own }
            if let own = context.base, own != base { bases[name] = own }
        }
        return (languages, bases)
    }
}
