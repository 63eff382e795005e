import Foundation
import TributaryCore

/// Small hand-made digests for the targeted renderer tests: entries are built directly, so strings reach the
/// renderers exactly as written (newlines and escape sequences included), without ``DigestBuilder`` cleaning them.
enum TestDigest {
    static func entry(
        title: String,
        url: String? = "https://example.org/item",
        sourceTitle: String = "wire",
        publisher: String? = nil,
        summary: String? = nil,
        tags: [String] = [],
        related: [TributaryExtension.RelatedLink] = [],
        isNew: Bool = false
    ) -> Digest.Entry {
        Digest.Entry(
            item: FeedItem(id: title, url: url, title: title),
            title: title,
            url: url,
            sourceID: "wire",
            sourceTitle: sourceTitle,
            publisher: publisher,
            timeText: "14:41",
            dateISO: "2026-11-22T14:41:00+09:00",
            summary: summary,
            tags: tags,
            related: related,
            isNew: isNew
        )
    }

    static func digest(
        _ entries: [Digest.Entry],
        sources: [Digest.SourceSummary] = [],
        title: String = "Digest"
    ) -> Digest {
        Digest(
            title: title,
            generatedAt: Date(timeIntervalSince1970: 1_795_326_060),
            generatedAtText: "2026-11-22 14:41 JST",
            generatedAtISO: "2026-11-22T14:41:00+09:00",
            timeZoneIdentifier: "Asia/Tokyo",
            sources: sources,
            days: [Digest.Day(id: "2026-11-22", heading: "Sunday, 22 November 2026", entries: entries)]
        )
    }

    /// Strings a feed could use to break out of Markdown, HTML or a terminal line.
    static let hostileStrings = [
        "*", "_", "[", "]", "|", "#", "`", "&", "\\", "<script>alert(1)</script>", "line\n- injected item",
        "line\r\n## injected heading", "\u{1B}[31mred\u{1B}[0m", "1. ordered", "- dash", "+ plus", "> quote",
        "![image](https://evil.example/x.png)", "[link](https://evil.example)", "<!-- comment -->", "a\u{2028}b",
        "&amp; &copy; &#60;", "= setext", "---", "~~strike~~", "<https://evil.example>", "x | y | z", "```",
        "\"quoted\" 'single'",
    ]
}
