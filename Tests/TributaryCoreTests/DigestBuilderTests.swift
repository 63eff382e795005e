import Foundation
import Testing

@testable import TributaryCore

@Suite struct DigestBuilderTests {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")
    static let utc = TimeZone(identifier: "UTC")

    static func date(_ text: String) throws -> Date {
        try #require(RFC3339.parse(text))
    }

    static func builder(
        timeZone: TimeZone? = tokyo,
        generatedAt: String = "2026-11-22T05:41:00Z",
        previousDigestAt: String? = nil,
        summaryLength: Int = 280
    ) throws -> DigestBuilder {
        DigestBuilder(
            title: "Digest",
            timeZone: try #require(timeZone),
            generatedAt: try date(generatedAt),
            previousDigestAt: try previousDigestAt.map(date),
            summaryLength: summaryLength
        )
    }

    static func item(
        _ id: String,
        title: String? = "Title",
        published: String? = nil,
        firstSeen: String? = nil,
        source: SourceID = "s"
    ) throws -> FeedItem {
        FeedItem(
            id: id,
            url: "https://example.org/\(id)",
            title: title,
            datePublished: try published.map(date),
            tributary: TributaryExtension(source: source, firstSeen: try firstSeen.map(date))
        )
    }

    // MARK: - Days and dates

    @Test func groupsAnItemByItsCalendarDayInTheDigestTimeZone() throws {
        let item = try Self.item("a", published: "2026-11-21T20:00:00Z")

        let tokyo = try Self.builder().build(items: [item], statuses: [])
        let day = try #require(tokyo.days.first)
        #expect(day.id == "2026-11-22")
        #expect(day.heading == "Sunday, 22 November 2026")
        #expect(day.entries.first?.timeText == "05:00")
        #expect(day.entries.first?.dateISO == "2026-11-22T05:00:00+09:00")

        let utc = try Self.builder(timeZone: Self.utc).build(items: [item], statuses: [])
        #expect(utc.days.map(\.id) == ["2026-11-21"])
        #expect(utc.days.first?.heading == "Saturday, 21 November 2026")
        #expect(utc.entries.first?.timeText == "20:00")
        #expect(utc.entries.first?.dateISO == "2026-11-21T20:00:00+00:00")
    }

    @Test(arguments: ["Asia/Tokyo", "UTC", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
    func aDateWithoutATimeShowsNoTimeAndStaysOnItsDayInEveryZone(_ zone: String) throws {
        // `2026-11-20` in a feed is read as midnight UTC; so is a blog engine's `00:00:00 +0000`.
        let dateOnly = try Self.item("day", published: "2026-11-20T00:00:00Z")
        // Thirty seconds later is a time of day like any other.
        let timed = try Self.item("timed", published: "2026-11-20T00:00:30Z")
        let digest = try Self.builder(timeZone: TimeZone(identifier: zone)).build(
            items: [dateOnly, timed],
            statuses: []
        )
        let entry = try #require(digest.entries.first { $0.item.id == "day" })
        #expect(entry.timeText == nil)
        #expect(entry.dateISO == "2026-11-20")
        let day = try #require(digest.days.first { $0.entries.contains { $0.item.id == "day" } })
        #expect(day.id == "2026-11-20")
        #expect(day.heading == "Friday, 20 November 2026")
        let timedEntry = try #require(digest.entries.first { $0.item.id == "timed" })
        #expect(timedEntry.timeText != nil)
    }

    @Test func ordersDaysNewestFirstAndKeepsThePipelineOrderInsideADay() throws {
        // The pipeline's order is kept even where it disagrees with the times.
        let items = [
            try Self.item("early", published: "2026-11-22T01:00:00Z"),
            try Self.item("older-day", published: "2026-11-20T01:00:00Z"),
            try Self.item("late", published: "2026-11-22T03:00:00Z"),
            try Self.item("newest-day", published: "2026-11-23T01:00:00Z"),
        ]
        let digest = try Self.builder().build(items: items, statuses: [])
        #expect(digest.days.map(\.id) == ["2026-11-23", "2026-11-22", "2026-11-20"])
        #expect(digest.days[1].entries.map(\.item.id) == ["early", "late"])
        #expect(digest.entries.map(\.item.id) == ["newest-day", "early", "late", "older-day"])
    }

    @Test func placesAnItemByModifiedDateThenFirstSeenThenGenerationTime() throws {
        var modified = try Self.item("modified", firstSeen: "2026-11-18T01:00:00Z")
        modified.dateModified = try Self.date("2026-11-19T01:00:00Z")
        let seen = try Self.item("seen", firstSeen: "2026-11-18T01:00:00Z")
        let unknown = FeedItem(id: "unknown", title: "No dates")
        let digest = try Self.builder().build(items: [modified, seen, unknown], statuses: [])

        #expect(digest.days.map(\.id) == ["2026-11-22", "2026-11-19", "2026-11-18"])
        #expect(digest.days[0].entries.map(\.item.id) == ["unknown"])
        #expect(digest.days[1].entries.first?.timeText == "10:00")
        // A first-seen time is not a publication time, so it is not shown.
        #expect(digest.days[2].entries.first?.timeText == nil)
        #expect(digest.days[2].entries.first?.dateISO == nil)
    }

    @Test func formatsTheGenerationTimeWithTheZoneAbbreviationAndOffset() throws {
        let tokyo = try Self.builder().build(items: [], statuses: [])
        #expect(tokyo.generatedAtText == "2026-11-22 14:41 JST")
        #expect(tokyo.generatedAtISO == "2026-11-22T14:41:00+09:00")
        #expect(tokyo.timeZoneIdentifier == "Asia/Tokyo")

        let newYork = try Self.builder(timeZone: TimeZone(identifier: "America/New_York")).build(
            items: [],
            statuses: []
        )
        #expect(newYork.generatedAtText == "2026-11-22 00:41 EST")
        #expect(newYork.generatedAtISO == "2026-11-22T00:41:00-05:00")
    }

    // MARK: - New items

    @Test func marksAsNewOnlyItemsFirstSeenAfterThePreviousDigest() throws {
        let items = [
            try Self.item("after", published: "2026-11-22T01:00:00Z", firstSeen: "2026-11-22T05:00:00Z"),
            try Self.item("before", published: "2026-11-22T01:00:00Z", firstSeen: "2026-11-21T23:00:00Z"),
            try Self.item("unseen", published: "2026-11-22T01:00:00Z"),
        ]
        let digest = try Self.builder(previousDigestAt: "2026-11-22T00:00:00Z").build(items: items, statuses: [])
        #expect(digest.entries.map(\.isNew) == [true, false, false])
        #expect(digest.newItemCount == 1)
    }

    @Test func marksNothingAsNewWithoutAPreviousDigest() throws {
        let item = try Self.item("a", published: "2026-11-22T01:00:00Z", firstSeen: "2026-11-22T05:00:00Z")
        let digest = try Self.builder(previousDigestAt: nil).build(items: [item], statuses: [])
        #expect(digest.entries.map(\.isNew) == [false])
    }

    // MARK: - Titles, publishers, summaries

    @Test func fallsBackFromTitleToTextToURLToUntitled() throws {
        let longText = String(repeating: "word ", count: 40)
        let items = [
            FeedItem(id: "1", url: "https://example.org/1", title: "  Real\n title  ", summary: "Text"),
            FeedItem(id: "2", url: "https://example.org/2", title: " \n ", contentText: longText),
            FeedItem(id: "3", externalURL: "https://elsewhere.example/3"),
            FeedItem(id: "4"),
        ]
        let entries = try Self.builder().build(items: items, statuses: []).entries
        #expect(entries.map(\.title)[0] == "Real title")
        #expect(entries[1].title.hasSuffix("…"))
        #expect(entries[1].title.count <= DigestBuilder.fallbackTitleLength)
        #expect(entries[1].title.hasPrefix("word word"))
        #expect(entries[2].title == "https://elsewhere.example/3")
        #expect(entries[2].url == "https://elsewhere.example/3")
        #expect(entries[3].title == "(untitled)")
        #expect(entries[3].url == nil)
    }

    @Test func takesThePublisherFromTheOriginThenTheFirstAuthor() throws {
        var both = FeedItem(id: "1", authors: [.init(name: "Author")])
        both.tributary = TributaryExtension(origin: .init(title: "NHKニュース"))
        let author = FeedItem(id: "2", authors: [.init(name: nil), .init(name: "Second")])
        let firstAuthor = FeedItem(id: "3", authors: [.init(name: "First"), .init(name: "Second")])
        let entries = try Self.builder().build(items: [both, author, firstAuthor], statuses: []).entries
        #expect(entries.map(\.publisher) == ["NHKニュース", nil, "First"])
    }

    @Test func shortensSummariesOnAWordBoundaryWithAnEllipsis() throws {
        let text = "The quick brown fox jumps over the lazy dog and keeps running far away"
        let item = FeedItem(id: "1", title: "T", summary: text)
        let entry = try #require(try Self.builder(summaryLength: 30).build(items: [item], statuses: []).entries.first)
        let summary = try #require(entry.summary)
        #expect(summary == "The quick brown fox jumps…")
        #expect(summary.count <= 30)
    }

    @Test func cutsTextWithoutSpacesAtTheLimit() {
        let text = "東京都心で今季一番の冷え込み、各地で初霜や初氷を観測"
        #expect(DigestBuilder.shortened(text, to: 10) == "東京都心で今季一番…")
        #expect(DigestBuilder.shortened(text, to: text.count) == text)
    }

    @Test func makesThePlainTextSummaryFromSummaryThenTextThenHTML() throws {
        let items = [
            FeedItem(id: "1", title: "T", contentHTML: "<p>html</p>", contentText: "text", summary: "summary"),
            FeedItem(id: "2", title: "T", contentHTML: "<p>html</p>", contentText: "text"),
            FeedItem(
                id: "3",
                title: "T",
                contentHTML:
                    "<p>Fish &amp; chips&nbsp;&mdash; <b>hot</b></p><script>alert(1)</script><!-- x --><p>&#x65E5;&#26412;</p>"
            ),
            FeedItem(id: "4", title: "Same words", summary: "Same \n words"),
        ]
        let entries = try Self.builder().build(items: items, statuses: []).entries
        #expect(entries.map(\.summary) == ["summary", "text", "Fish & chips\u{A0}— hot 日本", nil])
    }

    @Test func keepsTextThatOnlyLooksLikeMarkupAndDecodesReferencesOnce() throws {
        let items = [
            FeedItem(id: "1", title: "T", contentHTML: "1 < 2 and 3 > 2 <br/>done"),
            FeedItem(id: "2", title: "T", contentHTML: "Google&amp;nbsp;News &unknown; &#0; &#x110000;"),
            FeedItem(id: "3", title: "T", contentHTML: "<STYLE>p { color: red }</STYLE><Script src=x></SCRIPT>text"),
        ]
        let entries = try Self.builder().build(items: items, statuses: [])
        #expect(
            entries.entries.map(\.summary) == [
                // As in HTML5, a reference to NUL or past U+10FFFF decodes to U+FFFD; an unknown name stays as written.
                "1 < 2 and 3 > 2 done", "Google&nbsp;News &unknown; \u{FFFD} \u{FFFD}", "text",
            ]
        )
    }

    @Test func collapsesWhitespaceInStringsFromFeeds() throws {
        var item = FeedItem(id: "1", title: "A\tB\r\nC", tags: ["  swift\n", " "])
        item.tributary = TributaryExtension(related: [.init(title: "R\n1", url: "https://r.example", publisher: " P ")])
        let entry = try #require(try Self.builder().build(items: [item], statuses: []).entries.first)
        #expect(entry.title == "A B C")
        #expect(entry.tags == ["swift"])
        #expect(entry.related == [.init(title: "R 1", url: "https://r.example", publisher: "P")])
    }

    // MARK: - Sources

    @Test func summarisesEverySourceInOrderWithStateReasonWarningsAndItsItemCount() throws {
        let error = SourceError(sourceID: "b", reason: .httpStatus(url: "https://b.example/feed", status: 503))
        let statuses = [
            SourceStatus(sourceID: "a", kind: "rss", title: "Alpha", state: .succeeded, itemCount: 99),
            SourceStatus(sourceID: "b", kind: "rss", state: .failed(error)),
            SourceStatus(
                sourceID: "c",
                kind: "push",
                title: " ",
                state: .notModified,
                warnings: [SourceWarning("bad frame", location: "frame 3")]
            ),
            SourceStatus(sourceID: "d", kind: "exec", state: .running),
        ]
        let items = [
            try Self.item("1", source: "a"), try Self.item("2", source: "c"), try Self.item("3", source: "a"),
        ]
        let digest = try Self.builder().build(items: items, statuses: statuses)

        #expect(digest.sources.map(\.id) == ["a", "b", "c", "d"])
        #expect(digest.sources.map(\.title) == ["Alpha", "b", "c", "d"])
        #expect(digest.sources.map(\.state) == [.ok, .failed, .notModified, .incomplete])
        #expect(digest.sources.map(\.itemCount) == [2, 0, 1, 0])
        #expect(digest.sources[1].reason == error.reasonDescription)
        #expect(digest.sources[0].reason == nil)
        #expect(digest.sources[2].warnings == ["frame 3: bad frame"])
        #expect(digest.failedSources.map(\.id) == ["b"])
        #expect(digest.entries.map(\.sourceTitle) == ["Alpha", "c", "Alpha"])
    }

    @Test func buildsTheSameSampleEveryTime() {
        let sample = Digest.sample
        #expect(sample == Digest.sample)
        #expect(sample.days.map(\.id) == ["2026-11-22", "2026-11-21", "2026-11-20"])
        #expect(sample.failedSources.count == 2)
    }
}

/// The digest's per-item dates are computed from the zone's offset, not by ICU: they must equal what
/// `DateFormatter` writes, around DST changes, before 1970, at odd offsets and at the ends of the range.
@Suite struct DigestDateFormatTests {
    @Test(arguments: [
        "UTC", "Asia/Tokyo", "America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Lord_Howe",
        "Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu", "Pacific/Kiritimati", "America/Sao_Paulo",
    ])
    func dayTimeAndISODateAreWhatDateFormatterWrites(_ zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let formats = DateFormats(timeZone: timeZone)
        var instants: [TimeInterval] = [0, -1, -86_400.5, 951_782_400, 1_710_054_000, 1_730_613_600, 253_402_300_799]
        instants += [-62_135_596_800, -2_208_988_800, 1_795_326_060.999, 4_102_444_800]
        // Every 97 minutes for two years across DST changes, and a spread from 1900 to 2100.
        instants += stride(from: 1_700_000_000.0, to: 1_763_000_000, by: 5_820)
        instants += stride(from: -2_208_988_800.0, to: 4_102_444_800, by: 3_156_000.7)
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            #expect(formats.dayID(date) == formats.dayIDFormatter.string(from: date), "\(zone) \(instant)")
            #expect(formats.time(date) == formats.timeFormatter.string(from: date), "\(zone) \(instant)")
            #expect(formats.iso(date) == formats.isoFormatter.string(from: date), "\(zone) \(instant)")
        }
    }

    /// A whole digest's entries are made in two runs of days with about as many items each: the first run is
    /// `0..<halfway`.
    @Test func daysSplitInTwoRunsOfAboutAsManyItems() {
        #expect(Digest.halfway(through: [5, 1, 1, 5]) == 2)
        #expect(Digest.halfway(through: [10, 1, 1]) == 1)
        #expect(Digest.halfway(through: [1, 1, 10]) == 3)
        #expect(Digest.halfway(through: [3]) == 1)
        #expect(Digest.halfway(through: []) == 0)
    }
}
