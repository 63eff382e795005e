public import Foundation

/// The immutable view model every renderer draws: items grouped by day, dates already formatted, per-source
/// status. ``DigestBuilder`` makes every formatting decision once, here, so that the text, Markdown, HTML and JSON
/// renderers can only differ in syntax and escaping.
public struct Digest: Sendable, Equatable {
    /// The digest's title (feeds.json `title`).
    public var title: String
    /// When the digest was made.
    public var generatedAt: Date
    /// ``generatedAt`` formatted in the digest's time zone, e.g. `2026-11-22 14:41 JST`.
    public var generatedAtText: String
    /// ``generatedAt`` as RFC 3339 with the time zone's offset, for `<time datetime>`.
    public var generatedAtISO: String
    /// The IANA identifier of the time zone the digest is written in.
    public var timeZoneIdentifier: String
    /// The language of the digest's own text (`lang` of the HTML), a BCP 47 tag.
    public var language: String
    /// One entry per configured source, in feeds.json order.
    public var sources: [SourceSummary]
    /// Days, newest first; items inside a day in the pipeline's order (newest first).
    public var days: [Day]

    public init(
        title: String,
        generatedAt: Date,
        generatedAtText: String,
        generatedAtISO: String,
        timeZoneIdentifier: String,
        language: String = "en",
        sources: [SourceSummary],
        days: [Day]
    ) {
        self.title = title
        self.generatedAt = generatedAt
        self.generatedAtText = generatedAtText
        self.generatedAtISO = generatedAtISO
        self.timeZoneIdentifier = timeZoneIdentifier
        self.language = language
        self.sources = sources
        self.days = days
    }

    /// The digest of `outline` with these days, in the outline's order.
    public init(_ outline: DigestOutline, days: [Day]) {
        self.init(
            title: outline.title,
            generatedAt: outline.generatedAt,
            generatedAtText: outline.generatedAtText,
            generatedAtISO: outline.generatedAtISO,
            timeZoneIdentifier: outline.timeZoneIdentifier,
            language: outline.language,
            sources: outline.sources,
            days: days
        )
    }

    /// Every entry, in digest order.
    public var entries: [Entry] { days.flatMap(\.entries) }

    /// Where days with these entry counts split in two runs with about as many entries each: the first run is
    /// `0..<halfway`, the second the rest. What the digest's drawing splits when it works on both cores.
    public static func halfway(through counts: [Int]) -> Int {
        let total = counts.reduce(0, +)
        var split = 0
        var sum = 0
        while split < counts.count, sum * 2 < total {
            sum += counts[split]
            split += 1
        }
        return split
    }

    /// The number of items in the digest.
    public var itemCount: Int { days.reduce(0) { $0 + $1.entries.count } }

    /// The number of items first seen since the previous digest.
    public var newItemCount: Int { days.reduce(0) { $0 + $1.entries.count(where: \.isNew) } }

    /// The sources that failed.
    public var failedSources: [SourceSummary] { sources.filter { $0.state == .failed } }

    /// The digest without its entries: what a renderer draws around them.
    public var outline: DigestOutline {
        DigestOutline(
            title: title,
            generatedAt: generatedAt,
            generatedAtText: generatedAtText,
            generatedAtISO: generatedAtISO,
            timeZoneIdentifier: timeZoneIdentifier,
            language: language,
            sources: sources,
            days: days.map { day in
                DigestOutline.Day(id: day.id, heading: day.heading, items: day.entries.map { ItemOutline($0.item) })
            },
            newItemCount: newItemCount
        )
    }
}

/// A ``Digest`` before its entries are drawn: everything but the entries, and each day's items as outlines.
///
/// A run that keeps its items in a store builds this first (``DigestBuilder/outline(of:statuses:)``), then reads
/// each day's items back a batch at a time and has a ``StreamingRenderer`` draw them, so that the whole digest is
/// never in memory at once.
public struct DigestOutline: Sendable, Equatable {
    public var title: String
    public var generatedAt: Date
    public var generatedAtText: String
    public var generatedAtISO: String
    public var timeZoneIdentifier: String
    public var language: String
    public var sources: [Digest.SourceSummary]
    /// Days, newest first; the items inside a day in the pipeline's order.
    public var days: [Day]
    /// The number of items first seen since the previous digest.
    public var newItemCount: Int

    public init(
        title: String,
        generatedAt: Date,
        generatedAtText: String,
        generatedAtISO: String,
        timeZoneIdentifier: String,
        language: String,
        sources: [Digest.SourceSummary],
        days: [Day],
        newItemCount: Int
    ) {
        self.title = title
        self.generatedAt = generatedAt
        self.generatedAtText = generatedAtText
        self.generatedAtISO = generatedAtISO
        self.timeZoneIdentifier = timeZoneIdentifier
        self.language = language
        self.sources = sources
        self.days = days
        self.newItemCount = newItemCount
    }

    /// One calendar day: its id (`YYYY-MM-DD`), heading and items.
    public struct Day: Sendable, Equatable {
        public var id: String
        public var heading: String
        public var items: [ItemOutline]

        public init(id: String, heading: String, items: [ItemOutline]) {
            self.id = id
            self.heading = heading
            self.items = items
        }
    }

    /// The number of items in the digest.
    public var itemCount: Int { days.reduce(0) { $0 + $1.items.count } }

    /// The title each source's entries are shown under, by id: its first summary's (an id without one is shown as
    /// itself).
    public var sourceTitles: [SourceID: String] {
        var titles: [SourceID: String] = [:]
        for source in sources where titles[source.id] == nil { titles[source.id] = source.title }
        return titles
    }

    /// The sources that failed.
    public var failedSources: [Digest.SourceSummary] { sources.filter { $0.state == .failed } }
}

extension Digest {
    /// One source's line in the status table.
    public struct SourceSummary: Sendable, Equatable {
        /// The outcome, reduced to what a reader needs.
        public enum State: String, Sendable, Equatable {
            case ok
            case notModified = "not modified"
            case failed
            /// The run ended before the source did (for example a one-shot run that was interrupted).
            case incomplete
        }

        public var id: SourceID
        public var kind: String
        /// The title from feeds.json, or the id.
        public var title: String
        public var state: State
        /// Why the source failed: one line naming the place and the fix.
        public var reason: String?
        /// Items this source contributes to the digest.
        public var itemCount: Int
        /// Recoverable problems, one line each.
        public var warnings: [String]
        /// The source's health across runs when it is not good, one line: how long it has been failing, when it
        /// last succeeded, when it is tried next (for example `failing for 3 runs; last success 2026-11-20 08:00;
        /// next try after 09:30`). `nil` for a healthy source or without a persistent store.
        public var health: String?

        public init(
            id: SourceID,
            kind: String,
            title: String,
            state: State,
            reason: String? = nil,
            itemCount: Int,
            warnings: [String] = [],
            health: String? = nil
        ) {
            self.id = id
            self.kind = kind
            self.title = title
            self.state = state
            self.reason = reason
            self.itemCount = itemCount
            self.warnings = warnings
            self.health = health
        }
    }

    /// The items of one calendar day in the digest's time zone.
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, usable as an anchor.
        public var id: String
        /// The day as a heading, e.g. `Sunday, 22 November 2026`.
        public var heading: String
        public var entries: [Entry]

        public init(id: String, heading: String, entries: [Entry]) {
            self.id = id
            self.heading = heading
            self.entries = entries
        }
    }

    /// One item as the renderers show it: every string already chosen and formatted, but not yet escaped.
    public struct Entry: Sendable, Equatable {
        /// The item as the pipeline stored it (the JSON renderer writes this).
        public var item: FeedItem
        /// The title to show: the item's title, or a fallback such as the start of its text.
        public var title: String
        /// The link to follow: the item's `url`, else its `external_url`.
        public var url: String?
        public var sourceID: SourceID
        /// The source's title from feeds.json, or its id.
        public var sourceTitle: String
        /// The publisher (`_tributary.origin.title`, or the first author), when known.
        public var publisher: String?
        /// Local time of day, e.g. `14:41`; `nil` when the item has no date.
        public var timeText: String?
        /// The date as RFC 3339 with the local offset, for `<time datetime>`; `nil` when the item has no date.
        public var dateISO: String?
        /// Plain-text summary, shortened to a readable length.
        public var summary: String?
        public var tags: [String]
        /// Other coverage of the same story.
        public var related: [TributaryExtension.RelatedLink]
        /// Other sources that delivered the same item.
        public var alsoIn: [SourceID]
        /// First seen since the previous digest.
        public var isNew: Bool

        public init(
            item: FeedItem,
            title: String,
            url: String?,
            sourceID: SourceID,
            sourceTitle: String,
            publisher: String? = nil,
            timeText: String? = nil,
            dateISO: String? = nil,
            summary: String? = nil,
            tags: [String] = [],
            related: [TributaryExtension.RelatedLink] = [],
            alsoIn: [SourceID] = [],
            isNew: Bool = false
        ) {
            self.item = item
            self.title = title
            self.url = url
            self.sourceID = sourceID
            self.sourceTitle = sourceTitle
            self.publisher = publisher
            self.timeText = timeText
            self.dateISO = dateISO
            self.summary = summary
            self.tags = tags
            self.related = related
            self.alsoIn = alsoIn
            self.isNew = isNew
        }
    }
}
