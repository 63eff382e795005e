public import Foundation

/// Turns the pipeline's items and source statuses into a ``Digest``: the one place where every formatting decision
/// is made, so that renderers only add their own syntax and escaping.
///
/// The rules, in order of application:
/// - An item's *day* is the calendar day, in ``timeZone``, of `date_published`, else `date_modified`, else
///   `_tributary.first_seen`, else ``generatedAt``. Days are ordered newest first; inside a day the items keep the
///   order the pipeline gave them.
/// - ``Digest/Entry/timeText`` and ``Digest/Entry/dateISO`` come from the item's own date (`date_published`, else
///   `date_modified`) and are `nil` when the item has none: a first-seen time is not shown as a publication time.
/// - A date without a time of day (``isDateOnly(_:)``: `2026-11-20` in the feed, read as midnight UTC, or a time
///   written as exactly `00:00:00` UTC, as blog engines write a date) shows no time (`timeText` is `nil`, `dateISO`
///   is the day, `2026-11-20`) and puts the item on the day as written, in every time zone.
/// - The title is the item's title; else the first words (about 80 characters) of its text; else its URL; else
///   `(untitled)`. Whitespace runs, newlines included, are collapsed to one space in every string taken from a
///   feed; nothing is escaped here.
/// - The publisher is `_tributary.origin.title`, else the first author's name.
/// - The summary is plain text from `summary`, else `content_text`, else `content_html` with its tags stripped and
///   its character references decoded; it is shortened to ``summaryLength`` characters on a word boundary with
///   `…`, and left out when it only repeats the title.
/// - An entry is new when it was first seen after ``previousDigestAt``. Without a previous digest no entry is
///   marked new: on a first run every item would be, and a mark on everything tells the reader nothing.
/// - One ``Digest/SourceSummary`` per status, in the given order; its item count is the number of the source's
///   entries in this digest, so the table always agrees with what the reader sees.
/// - A source's ``Digest/SourceSummary/health`` line comes from ``health`` and is set only while the source is
///   failing (at least one failed run in a row): `failing for 3 runs; last success 2026-11-20 08:00; next try after
///   09:30` (the next try's date is left out when it is the digest's day).
///
/// All dates are formatted with the `en_US_POSIX` locale and the Gregorian calendar in ``timeZone``; the formatters
/// are created once per ``build(items:statuses:)`` call.
public struct DigestBuilder: Sendable {
    /// The digest's title (feeds.json `title`).
    public var title: String
    /// The time zone that decides an item's day and the times shown.
    public var timeZone: TimeZone
    /// When the digest is made; renderers show this instead of reading the clock.
    public var generatedAt: Date
    /// The language of the digest's own text, a BCP 47 tag.
    public var language: String
    /// When the previous digest was made, if there was one; decides ``Digest/Entry/isNew``.
    public var previousDigestAt: Date?
    /// The longest summary, in characters, the ellipsis included.
    public var summaryLength: Int
    /// Each source's health across runs, from a persistent store; empty without one (no health lines).
    public var health: [SourceID: Health]

    /// A source's record across runs, as the digest shows it.
    public struct Health: Sendable, Equatable {
        /// How many runs in a row have failed; 0 for a healthy source (no line is shown).
        public var consecutiveFailures: Int
        /// When the source last succeeded; `nil` if it never has.
        public var lastSuccess: Date?
        /// When the source is tried next, if runs before then skip it.
        public var nextRetry: Date?

        /// Creates a health record.
        public init(consecutiveFailures: Int, lastSuccess: Date? = nil, nextRetry: Date? = nil) {
            self.consecutiveFailures = consecutiveFailures
            self.lastSuccess = lastSuccess
            self.nextRetry = nextRetry
        }
    }

    /// Creates a builder.
    /// - Parameters:
    ///   - title: The digest's title.
    ///   - timeZone: The time zone the digest is written in.
    ///   - generatedAt: When the digest is made (from the caller's clock).
    ///   - language: The language of the digest's own text, a BCP 47 tag.
    ///   - previousDigestAt: When the previous digest was made; `nil` marks no entry as new.
    ///   - summaryLength: The longest summary in characters; values below 2 are treated as 2.
    ///   - health: Each source's health across runs; empty shows no health lines.
    public init(
        title: String,
        timeZone: TimeZone,
        generatedAt: Date,
        language: String = "en",
        previousDigestAt: Date? = nil,
        summaryLength: Int = 280,
        health: [SourceID: Health] = [:]
    ) {
        self.title = title
        self.timeZone = timeZone
        self.generatedAt = generatedAt
        self.language = language
        self.previousDigestAt = previousDigestAt
        self.summaryLength = summaryLength
        self.health = health
    }

    /// The longest title made from an item's text when the item has no title.
    public static let fallbackTitleLength = 80

    /// Builds the digest.
    /// - Parameters:
    ///   - items: The items, already in their final order (newest first) from the pipeline.
    ///   - statuses: One status per source, in feeds.json order.
    /// - Returns: The digest, with every string chosen and every date formatted.
    public func build(items: [FeedItem], statuses: [SourceStatus]) -> Digest {
        let formats = DateFormats(timeZone: timeZone)
        let grouped = group(items, formats: formats) { ($0.ownDate, $0.tributary?.firstSeen) }
        let outline = outline(
            of: grouped.map { (id: $0.id, heading: $0.heading, outlines: $0.elements.map(ItemOutline.init)) },
            statuses: statuses,
            formats: formats
        )
        let maker = EntryMaker(builder: self, outline: outline, formats: formats)
        return Digest(
            outline,
            days: zip(outline.days, grouped).map { day, group in
                Digest.Day(id: day.id, heading: day.heading, entries: maker.entries(for: group.elements))
            }
        )
    }

    /// The digest without its entries, from the outlines of its items: what a run that reads its items back from
    /// the store draws first. Days, headings, counts and "new" marks are the ones ``build(items:statuses:)`` makes
    /// for the same items; ``entryMaker(for:)`` then makes the entries.
    /// - Parameters:
    ///   - items: The items' outlines, in their final order (newest first) from the pipeline.
    ///   - statuses: One status per source, in feeds.json order.
    public func outline(of items: [ItemOutline], statuses: [SourceStatus]) -> DigestOutline {
        let formats = DateFormats(timeZone: timeZone)
        // The outlines are the grouped elements themselves: each day holds them once, not a second copy.
        let days = group(items, formats: formats) { ($0.ownDate, $0.firstSeen) }
        return outline(
            of: days.map { (id: $0.id, heading: $0.heading, outlines: $0.elements) },
            statuses: statuses,
            formats: formats
        )
    }

    /// What makes the entries of `outline`'s items, a batch at a time, as ``build(items:statuses:)`` makes them.
    public func entryMaker(for outline: DigestOutline) -> EntryMaker {
        EntryMaker(builder: self, outline: outline, formats: DateFormats(timeZone: timeZone))
    }

    /// Makes digest entries from whole items: the formatters and source titles of one digest, made once.
    public struct EntryMaker {
        let builder: DigestBuilder
        let sourceTitles: [SourceID: String]
        let formats: DateFormats

        init(builder: DigestBuilder, outline: DigestOutline, formats: DateFormats) {
            self.builder = builder
            self.formats = formats
            sourceTitles = outline.sourceTitles
        }

        /// The entries of these items, in their order.
        public func entries(for items: [FeedItem]) -> [Digest.Entry] {
            items.map { item in
                let ownDate = item.ownDate
                let dateOnlyDay = ownDate.flatMap { date in
                    DigestBuilder.isDateOnly(date) ? formats.dayID(formats.sameWallClockTime(asUTC: date)) : nil
                }
                return builder.makeEntry(
                    for: item,
                    ownDate: ownDate,
                    dateOnlyDay: dateOnlyDay,
                    sourceTitles: sourceTitles,
                    formats: formats
                )
            }
        }
    }

    // MARK: - Days

    /// Groups elements (items or their outlines) by day, newest day first, keeping their order inside a day.
    /// `dates` gives what places an element in a day: its own date (published, else modified) and when it was first
    /// seen.
    private func group<Element>(
        _ elements: [Element],
        formats: DateFormats,
        dates: (Element) -> (own: Date?, firstSeen: Date?)
    ) -> [(id: String, heading: String, elements: [Element])] {
        var days: [(id: String, heading: String, elements: [Element])] = []
        var dayIndexes: [String: Int] = [:]
        // Items come in digest order, so the next one is most often of the day before it: no lookup then.
        var last: (id: String, index: Int)?
        for element in elements {
            let (ownDate, firstSeen) = dates(element)
            let dayDate =
                if let ownDate, Self.isDateOnly(ownDate) { formats.sameWallClockTime(asUTC: ownDate) } else {
                    ownDate ?? firstSeen ?? generatedAt
                }
            let dayID = formats.dayID(dayDate)
            let index: Int
            if let last, last.id == dayID {
                index = last.index
            } else if let known = dayIndexes[dayID] {
                index = known
            } else {
                index = days.count
                dayIndexes[dayID] = index
                days.append((dayID, formats.heading(dayDate), []))
            }
            last = (dayID, index)
            days[index].elements.append(element)
        }
        // `YYYY-MM-DD` sorts like the days it names (for four-digit years).
        return days.sorted { $0.id > $1.id }
    }

    private func outline(
        of days: [(id: String, heading: String, outlines: [ItemOutline])],
        statuses: [SourceStatus],
        formats: DateFormats
    ) -> DigestOutline {
        var countsBySource: [SourceID: Int] = [:]
        var newItems = 0
        for day in days {
            for item in day.outlines {
                countsBySource[item.sourceID, default: 0] += 1
                if let previousDigestAt, let firstSeen = item.firstSeen, firstSeen > previousDigestAt { newItems += 1 }
            }
        }
        let sources = statuses.map { status in
            Digest.SourceSummary(
                id: status.sourceID,
                kind: status.kind,
                title: Self.sourceTitle(of: status),
                state: Self.state(of: status.state),
                reason: status.error.map { FeedText.collapseWhitespace($0.reasonDescription) },
                itemCount: countsBySource[status.sourceID] ?? 0,
                warnings: status.warnings.map { FeedText.collapseWhitespace($0.description) },
                health: health[status.sourceID].flatMap { healthLine($0, formats: formats) }
            )
        }
        return DigestOutline(
            title: FeedText.collapseWhitespace(title),
            generatedAt: generatedAt,
            generatedAtText: formats.generatedAtText(generatedAt),
            generatedAtISO: formats.iso(generatedAt),
            timeZoneIdentifier: timeZone.identifier,
            language: language,
            sources: sources,
            days: days.map { DigestOutline.Day(id: $0.id, heading: $0.heading, items: $0.outlines) },
            newItemCount: newItems
        )
    }

    // MARK: - Private

    /// Whether `date` stands for a day rather than a moment: exactly midnight UTC, to the second. A feed's
    /// `2026-11-20` is read so, and blog engines that know only the day write `Fri, 20 Nov 2026 00:00:00 +0000`.
    /// An item really published at midnight UTC to the second shows its day without its time: a small loss, next to
    /// every dated-only item showing `00:00` (or `19:00` the day before, west of Greenwich).
    public static func isDateOnly(_ date: Date) -> Bool {
        date.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 0
    }

    fileprivate func makeEntry(
        for item: FeedItem,
        ownDate: Date?,
        dateOnlyDay: String?,
        sourceTitles: [SourceID: String],
        formats: DateFormats
    ) -> Digest.Entry {
        let sourceID = item.sourceID ?? SourceID("unknown")
        let url = Self.nonEmpty(item.url) ?? Self.nonEmpty(item.externalURL)
        let text = Self.plainText(of: item)
        let title: String
        // The title is plain text as its reader made it: never stripped or decoded here, only kept on one line.
        if let itemTitle = Self.nonEmpty(item.title.map(FeedText.collapseWhitespace)) {
            title = itemTitle
        } else if let text {
            title = Self.shortened(text, to: Self.fallbackTitleLength)
        } else if let url {
            title = FeedText.collapseWhitespace(url)
        } else {
            title = "(untitled)"
        }
        var summary = text.map { Self.shortened($0, to: max(2, summaryLength)) }
        if summary == title { summary = nil }
        let publisher =
            Self.nonEmpty(item.tributary?.origin?.title.map(FeedText.collapseWhitespace))
            ?? Self.nonEmpty(item.authors.first?.name.map(FeedText.collapseWhitespace))
        let related = (item.tributary?.related ?? []).map { link in
            TributaryExtension.RelatedLink(
                title: Self.nonEmpty(FeedText.collapseWhitespace(link.title)) ?? link.url ?? "(untitled)",
                url: Self.nonEmpty(link.url),
                publisher: Self.nonEmpty(link.publisher.map(FeedText.collapseWhitespace))
            )
        }
        let times: (time: String?, iso: String)? =
            if let dateOnlyDay { (nil, dateOnlyDay) } else { ownDate.map(formats.entryTimes) }
        var isNew = false
        if let previousDigestAt, let firstSeen = item.tributary?.firstSeen {
            isNew = firstSeen > previousDigestAt
        }
        return Digest.Entry(
            item: item,
            title: title,
            url: url,
            sourceID: sourceID,
            sourceTitle: sourceTitles[sourceID] ?? sourceID.rawValue,
            publisher: publisher,
            timeText: times.flatMap(\.time),
            dateISO: times?.iso,
            summary: summary,
            tags: item.tags.compactMap { Self.nonEmpty(FeedText.collapseWhitespace($0)) },
            related: related,
            alsoIn: (item.tributary?.alsoIn ?? []).map(\.source),
            isNew: isNew
        )
    }

    /// The one-line health of a failing source, `nil` for a healthy one.
    private func healthLine(_ health: Health, formats: DateFormats) -> String? {
        guard health.consecutiveFailures > 0 else { return nil }
        let runs = health.consecutiveFailures
        var parts = ["failing for \(runs) run\(runs == 1 ? "" : "s")"]
        parts.append(health.lastSuccess.map { "last success \(formats.minute($0))" } ?? "never succeeded")
        if let next = health.nextRetry, next > generatedAt {
            let sameDay = formats.dayID(next) == formats.dayID(generatedAt)
            parts.append("next try after \(sameDay ? formats.time(next) : formats.minute(next))")
        }
        return parts.joined(separator: "; ")
    }

    private static func sourceTitle(of status: SourceStatus) -> String {
        nonEmpty(status.title.map(FeedText.collapseWhitespace)) ?? status.sourceID.rawValue
    }

    private static func state(of state: SourceStatus.State) -> Digest.SourceSummary.State {
        switch state {
        case .succeeded: .ok
        case .notModified: .notModified
        case .failed: .failed
        case .pending, .running: .incomplete
        }
    }

    /// The item's text as one line of plain text, or `nil` when it has none.
    private static func plainText(of item: FeedItem) -> String? {
        if let summary = nonBlank(item.summary) { return FeedText.collapseWhitespace(summary) }
        if let text = nonBlank(item.contentText) { return FeedText.collapseWhitespace(text) }
        if let html = item.contentHTML { return nonEmpty(FeedText.plainText(html)) }
        return nil
    }

    /// `string` unless it is missing or holds only white space.
    private static func nonBlank(_ string: String?) -> String? {
        guard let string, string.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return string
    }

    private static func nonEmpty(_ string: String?) -> String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }
}

extension DigestBuilder {
    /// Shortens one line of text to at most `limit` characters (grapheme clusters), the `…` included, cutting at
    /// the last space when there is one in the second half of the allowance, otherwise in the middle of a word
    /// (text in Japanese or Chinese has no spaces to cut at). Text that fits is returned unchanged.
    public static func shortened(_ text: String, to limit: Int) -> String {
        // No more bytes than the limit means no more characters: most excerpts fit without counting them.
        guard text.utf8.count > limit, text.count > limit else { return text }
        guard limit > 1 else { return "…" }
        var kept = text.prefix(limit - 1)
        if let space = kept.lastIndex(of: " "), kept.distance(from: kept.startIndex, to: space) >= (limit - 1) / 2 {
            kept = kept[..<space]
        }
        while let last = kept.last, last.isWhitespace || ",;:-–—".contains(last) {
            kept = kept.dropLast()
        }
        return kept + "…"
    }
}

/// The formatters of one build: made once, used for every item. An item's day, time and ISO date are computed
/// from the zone's offset (ICU's formatter was 6% of a digest's CPU); the rest, once per day or digest, through
/// `DateFormatter`.
struct DateFormats {
    let timeZone: TimeZone
    let dayIDFormatter: DateFormatter
    let headingFormatter: DateFormatter
    let timeFormatter: DateFormatter
    let isoFormatter: DateFormatter
    let generatedFormatter: DateFormatter

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        func formatter(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            formatter.calendar = calendar
            formatter.timeZone = timeZone
            formatter.dateFormat = format
            return formatter
        }
        dayIDFormatter = formatter("yyyy-MM-dd")
        headingFormatter = formatter("EEEE, d MMMM yyyy")
        timeFormatter = formatter("HH:mm")
        isoFormatter = formatter("yyyy-MM-dd'T'HH:mm:ssxxxxx")
        generatedFormatter = formatter("yyyy-MM-dd HH:mm")
    }

    /// The instant at which the zone's clock reads what a UTC clock reads at `date`: the day of a date written
    /// without a time, in this zone.
    func sameWallClockTime(asUTC date: Date) -> Date {
        let guess = date.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: date)))
        return date.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
    }

    func dayID(_ date: Date) -> String {
        LocalTime(date, timeZone)?.dayText ?? dayIDFormatter.string(from: date)
    }

    func heading(_ date: Date) -> String { headingFormatter.string(from: date) }

    func time(_ date: Date) -> String { entryTimes(date).time }

    /// `yyyy-MM-dd'T'HH:mm:ssxxxxx`: `2026-11-22T14:41:00+09:00`.
    func iso(_ date: Date) -> String { entryTimes(date).iso }

    /// An entry's local time (`HH:mm`) and ISO date, from one reading of the zone's offset.
    func entryTimes(_ date: Date) -> (time: String, iso: String) {
        guard let local = LocalTime(date, timeZone) else {
            return (timeFormatter.string(from: date), isoFormatter.string(from: date))
        }
        return (local.timeText, local.isoText)
    }
    func minute(_ date: Date) -> String { generatedFormatter.string(from: date) }

    func generatedAtText(_ date: Date) -> String {
        generatedFormatter.string(from: date) + " " + zoneAbbreviation(at: date)
    }

    /// The zone's short name at `date`, such as `JST`, `CET` or `EST`.
    ///
    /// CLDR gives English short names only in the regions that use them (`JST` in `en_JP`, `CET` in `en_GB`, `IST`
    /// in `en_IN`); `en_US_POSIX` alone would say `GMT+9` for Tokyo. So the English locales of the regions with such
    /// names are asked in turn, and the first name without digits wins; when none has one, the GMT offset stands.
    private func zoneAbbreviation(at date: Date) -> String {
        let regions = ["US_POSIX", "JP", "GB", "IN", "AU", "NZ", "CA", "IE", "ZA", "SG", "HK", "PH", "KR"]
        var fallback: String?
        for region in regions {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_" + region)
            formatter.timeZone = timeZone
            formatter.dateFormat = "zzz"
            let name = formatter.string(from: date)
            if fallback == nil { fallback = name }
            if !name.isEmpty, !name.contains(where: \.isNumber) { return name }
        }
        return fallback ?? "GMT"
    }
}

/// A date's Gregorian fields in a zone, from the zone's offset at that instant (``RFC3339/civilFromDays(_:)``);
/// `nil` outside the years 1583 to 9999 and for offsets with seconds, which the formatters handle.
struct LocalTime {
    let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Seconds east of UTC.
    let offset: Int

    init?(_ date: Date, _ timeZone: TimeZone) {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 253_402_300_800 else { return nil }
        offset = timeZone.secondsFromGMT(for: date)
        let seconds = Int(interval.rounded(.down)) + offset
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        (hour, minute, second) = (secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
        (year, month, day) = RFC3339.civilFromDays(days)
        // Before the Gregorian reform ICU's calendar is Julian, and an offset with seconds (a zone's local mean time
        // before 1900) is written with them: those few are left to the formatters.
        guard (1583...9999).contains(year), offset % 60 == 0 else { return nil }
    }

    // Written into the string's own storage by RFC3339's writers: built from small strings, an entry's ISO date
    // cost 12,500 instructions (4% of a cold digest).

    /// `yyyy-MM-dd`.
    var dayText: String {
        String(unsafeUninitializedCapacity: 10) { bytes in
            var index = 0
            RFC3339.writeDate(year: year, month: month, day: day, into: bytes, at: &index)
            return index
        }
    }

    /// `HH:mm`.
    var timeText: String {
        String(unsafeUninitializedCapacity: 5) { bytes in
            var index = 0
            RFC3339.writeTime(hour: hour, minute: minute, into: bytes, at: &index)
            return index
        }
    }

    /// `yyyy-MM-dd'T'HH:mm:ssxxxxx`: `2026-11-22T14:41:00+09:00`.
    var isoText: String {
        String(unsafeUninitializedCapacity: 25) { bytes in
            var index = 0
            RFC3339.writeDateTime(
                year: year,
                month: month,
                day: day,
                secondOfDay: hour * 3600 + minute * 60 + second,
                into: bytes,
                at: &index
            )
            bytes[index] = UInt8(ascii: offset < 0 ? "-" : "+")
            index += 1
            RFC3339.writeTime(hour: abs(offset) / 3600, minute: abs(offset) % 3600 / 60, into: bytes, at: &index)
            return index
        }
    }
}
