import Dispatch
import Synchronization
import TributaryCore

/// The values an HTML digest template sees, built from a ``Digest``; docs/templates.md documents every key.
///
/// Every string is the digest's text with control characters removed and nothing else: Mustache's `{{key}}`
/// HTML-escapes it (`&`, `<`, `>`, `"`, `'`), which makes it safe in element content and in quoted attributes.
/// URLs are the one thing escaping cannot make safe, so `href` keys only hold URLs that ``LinkPolicy`` allows (http,
/// https, mailto; unsafe characters percent-encoded); any other URL is in `unlinkedURL`, to be shown as text.
/// An optional value that is missing is `false` rather than absent, so that Mustache does not look it up in an
/// enclosing object instead (a related link without a publisher must not show the item's publisher).
enum HTMLTemplateContext {
    /// The keys of a related link (`related`).
    static let relatedKeys: [String: TemplateValue] = [
        "title": .text, "href": .text, "unlinkedURL": .text, "publisher": .text,
    ]

    /// The keys of an item (`entries` of a day).
    static let entryKeys: [String: TemplateValue] = [
        "id": .text, "title": .text, "href": .text, "unlinkedURL": .text, "isNew": .flag, "publisher": .text,
        "source": .text, "sourceID": .text, "time": .text, "dateISO": .text, "summary": .text, "language": .text,
        "tags": .texts, "hasTags": .flag, "related": .list(relatedKeys), "hasRelated": .flag, "alsoIn": .text,
    ]

    /// The keys of a day (`days`).
    static let dayKeys: [String: TemplateValue] = [
        "id": .text, "anchor": .text, "heading": .text, "label": .text, "itemCount": .number,
        "entries": .list(entryKeys),
    ]

    /// The keys of a source's line in the status table (`sources`).
    static let sourceKeys: [String: TemplateValue] = [
        "id": .text, "title": .text, "showsID": .flag, "kind": .text, "state": .text, "stateClass": .text,
        "isFailed": .flag, "itemCount": .number, "reason": .text, "health": .text, "warnings": .texts,
        "hasWarnings": .flag,
    ]

    /// The keys of the digest, the template's outermost object.
    static let digestKeys: [String: TemplateValue] = [
        "title": .text, "language": .text, "generatedAt": .text, "generatedAtISO": .text, "timeZone": .text,
        "itemCount": .number, "itemCountText": .text, "hasItems": .flag, "newItemCount": .number,
        "hasNewItems": .flag, "sourceCount": .number, "sourceCountText": .text, "hasSources": .flag,
        "failedSourceCount": .number, "hasFailedSources": .flag, "failedSourceNames": .text, "days": .list(dayKeys),
        "sources": .list(sourceKeys),
    ]

    /// The context for `digest`: objects, lists, strings, integers and booleans only.
    static func make(for digest: Digest) -> TemplateData {
        object(for: Heading(digest), days: days(of: digest))
    }

    /// The context for `outline`, a digest drawn a part at a time: each day's `entries` is empty (they are drawn
    /// as they come, each with ``entry(for:digestLanguage:)``), everything else is as ``make(for:)`` makes it.
    static func make(for outline: DigestOutline) -> TemplateData {
        object(
            for: Heading(outline),
            days: outline.days.map { day(id: $0.id, heading: $0.heading, itemCount: $0.items.count, entries: []) }
        )
    }

    /// The value of an item (an element of a day's `entries`).
    static func entry(for entry: Digest.Entry, digestLanguage: String) -> TemplateData {
        var values: TemplateObject = [
            "id": text(entry.item.id),
            "title": text(entry.title),
            "isNew": .flag(entry.isNew),
            "publisher": optional(entry.publisher),
            "source": text(entry.sourceTitle),
            "sourceID": text(entry.sourceID.rawValue),
            "summary": optional(entry.summary),
            "tags": .list(entry.tags.map(text)),
            "hasTags": .flag(!entry.tags.isEmpty),
            "related": .list(entry.related.map(related(for:))),
            "hasRelated": .flag(!entry.related.isEmpty),
            "alsoIn": optional(entry.alsoIn.isEmpty ? nil : entry.alsoIn.map(\.rawValue).joined(separator: ", ")),
            "time": .flag(false),
            "dateISO": .flag(false),
            "language": .flag(false),
            // Set by `link`; named here so that the literal holds every value and setting them adds none.
            "href": .flag(false),
            "unlinkedURL": .flag(false),
        ]
        link(entry.url, into: &values)
        if let timeText = entry.timeText, let dateISO = entry.dateISO {
            values["time"] = text(timeText)
            values["dateISO"] = text(dateISO)
        }
        // The item's own language lets browsers pick the right glyphs (Japanese and Chinese share code points).
        if let language = entry.item.language, language != digestLanguage, isLanguageTag(language) {
            values["language"] = .text(language)
        }
        return .object(values)
    }

    // MARK: - Private

    /// What the digest's own values are made of, from a whole digest or its outline alike.
    private struct Heading {
        var title: String
        var language: String
        var generatedAtText: String
        var generatedAtISO: String
        var timeZoneIdentifier: String
        var itemCount: Int
        var newItemCount: Int
        var sources: [Digest.SourceSummary]

        init(_ digest: Digest) {
            title = digest.title
            language = digest.language
            generatedAtText = digest.generatedAtText
            generatedAtISO = digest.generatedAtISO
            timeZoneIdentifier = digest.timeZoneIdentifier
            itemCount = digest.itemCount
            newItemCount = digest.newItemCount
            sources = digest.sources
        }

        init(_ outline: DigestOutline) {
            title = outline.title
            language = outline.language
            generatedAtText = outline.generatedAtText
            generatedAtISO = outline.generatedAtISO
            timeZoneIdentifier = outline.timeZoneIdentifier
            itemCount = outline.itemCount
            newItemCount = outline.newItemCount
            sources = outline.sources
        }
    }

    private static func object(for digest: Heading, days: [TemplateData]) -> TemplateData {
        let failed = digest.sources.filter { $0.state == .failed }
        return .object([
            "title": text(digest.title),
            "language": .text(isLanguageTag(digest.language) ? digest.language : "en"),
            "generatedAt": text(digest.generatedAtText),
            "generatedAtISO": text(digest.generatedAtISO),
            "timeZone": text(digest.timeZoneIdentifier),
            "itemCount": .number(digest.itemCount),
            "itemCountText": .text(counted(digest.itemCount, "item")),
            "hasItems": .flag(digest.itemCount > 0),
            "newItemCount": .number(digest.newItemCount),
            "hasNewItems": .flag(digest.newItemCount > 0),
            "sourceCount": .number(digest.sources.count),
            "sourceCountText": .text(counted(digest.sources.count, "source")),
            "hasSources": .flag(!digest.sources.isEmpty),
            "failedSourceCount": .number(failed.count),
            "hasFailedSources": .flag(!failed.isEmpty),
            "failedSourceNames": text(failed.map(\.title).joined(separator: ", ")),
            "days": .list(days),
            "sources": .list(digest.sources.map(source(for:))),
        ])
    }

    /// The days' values, made in two halves side by side (a digest of 1,000 feeds has 50,000 entries).
    private static func days(of digest: Digest) -> [TemplateData] {
        let days = digest.days
        let entries = days.reduce(0) { $0 + $1.entries.count }
        @Sendable func value(of day: Digest.Day) -> TemplateData {
            Self.day(
                id: day.id,
                heading: day.heading,
                itemCount: day.entries.count,
                entries: day.entries.map { entry(for: $0, digestLanguage: digest.language) }
            )
        }
        guard days.count > 1, entries > 1_000 else { return days.map(value(of:)) }
        let split = Digest.halfway(through: days.map(\.entries.count))
        let halves = [0..<split, split..<days.count]
        let made = Mutex<[[TemplateData]]>([[], []])
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let values = days[halves[half]].map(value(of:))
            made.withLock { $0[half] = values }
        }
        return made.withLock { $0[0] + $0[1] }
    }

    private static func day(id: String, heading: String, itemCount: Int, entries: [TemplateData]) -> TemplateData {
        .object([
            "id": text(id),
            "anchor": text("day-" + id),
            "heading": text(heading),
            "label": text(shortLabel(ofDay: id) ?? heading),
            "itemCount": .number(itemCount),
            "entries": .list(entries),
        ])
    }

    /// `Sun 22 Nov` for the day `2026-11-22`: short enough for every day of a digest to fit one line of the
    /// navigation on a phone.
    static func shortLabel(ofDay id: String) -> String? {
        let parts = id.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        // Zeller's congruence (Gregorian): 0 is Saturday.
        let (year, month) = parts[1] < 3 ? (parts[0] - 1, parts[1] + 12) : (parts[0], parts[1])
        let weekday = (parts[2] + 13 * (month + 1) / 5 + year + year / 4 - year / 100 + year / 400) % 7
        let weekdays = ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[weekday]) \(parts[2]) \(months[parts[1] - 1])"
    }

    private static func related(for related: TributaryExtension.RelatedLink) -> TemplateData {
        var values: TemplateObject = ["title": text(related.title), "publisher": optional(related.publisher)]
        link(related.url, into: &values)
        return .object(values)
    }

    private static func source(for source: Digest.SourceSummary) -> TemplateData {
        .object([
            "id": text(source.id.rawValue),
            "title": text(source.title),
            "showsID": .flag(source.title != source.id.rawValue),
            "kind": text(source.kind),
            "state": .text(source.state.rawValue),
            "stateClass": .text(source.state.rawValue.split(separator: " ").joined(separator: "-")),
            "isFailed": .flag(source.state == .failed),
            "itemCount": .number(source.itemCount),
            "reason": optional(source.reason),
            "health": optional(source.health),
            "warnings": .list(source.warnings.map(text)),
            "hasWarnings": .flag(!source.warnings.isEmpty),
        ])
    }

    /// Sets `href` when the URL may be linked, else `unlinkedURL` (shown as text), each `false` when unset.
    private static func link(_ url: String?, into values: inout TemplateObject) {
        values["href"] = .flag(false)
        values["unlinkedURL"] = .flag(false)
        guard let url else { return }
        if let href = LinkPolicy.linkable(url) {
            values["href"] = .text(href)
        } else {
            values["unlinkedURL"] = text(url)
        }
    }

    private static func text(_ value: String) -> TemplateData {
        .text(ControlCharacters.removing(from: value))
    }

    private static func optional(_ value: String?) -> TemplateData {
        value.map(text) ?? .flag(false)
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    private static func isLanguageTag(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 35 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
