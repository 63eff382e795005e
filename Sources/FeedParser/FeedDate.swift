import Foundation
import TributaryCore

/// Parses the dates feeds really contain, from bytes, without `DateFormatter`: every family of dates Python
/// feedparser's date handlers read.
///
/// Read first, by the two fast paths:
/// - RFC 822/1123/2822 with its real-world variants: named zones (`GMT`, `UT`, `EST`, `EDT`, `CST`, `MST`, `PST` and
///   their daylight forms, `AT`, `ET`, `CT`, `MT`, `PT`, `JST`, `CET`, `MET`, `MEST`, `Etc/GMT`, `GMT-01:01` and
///   more), military letters as RFC 822 defines them (`Z` is UT, `A`-`M` without `J` are -1..-12 hours, `N`-`Y` are
///   +1..+12), numeric offsets with or without a colon, missing seconds or time, two-digit years (00-49 are 2000s,
///   50-99 are 1900s, as RFC 2822 says), full month names, day and month swapped, day names missing, misspelt or in
///   another language, extra commas and whitespace, and asctime order with or without a zone
///   (`Sun Nov 22 05:41:40 2026`, `Sun Jul 15 01:16:00 +0000 2012`);
/// - RFC 3339 and W3C-DTF (`2026-11-22T05:41:40Z`, `2026-11-22T05:41Z`, `2026-11-22`, `2026-11`, `2026`) and sloppy
///   forms (`2026-11-22 05:41:40`, MSSQL's `2004-07-08 23:56:58 -00:20`, `2026/11/22 05:41`, read as UTC when no
///   zone is given).
///
/// Read only when both fast paths return `nil`:
/// - the rest of ISO 8601 that feedparser reads: basic and reduced forms (`20031231`, `031231`, `03-12-31`,
///   `-0312`, `-03-12`, `-03`), ordinal dates (`2003-335`, `2003335`, `03335`), Google's `2003-012-31`, one-digit
///   fields and an hour alone (`2003-1-5T9:05`, `2003-12-31T10`), basic times (`T101455`), a zone name after a space
///   (an unknown one is UTC, as the RFC 822 path takes it); and the truncated forms without a year (`--12-01`, `--12`,
///   `---01`, `-335`), read in the current year (and month) in UTC;
/// - Perforce: `Fri, 2006/09/15 08:19:53 EDT` (and `2003/12/01 00:00:00`, read by the fast path);
/// - Korean: OnBlog's `2004년 05월 28일 01:31:15` and Nate's `2004-05-25 오후 11:23:17`, both Korean time (+09:00);
/// - Hungarian month names: `2004-július-13T9:15-05:00`;
/// - Greek month names in RFC 822 order: `Κυρ, 11 Ιούλ 2004 12:00:00 EST`.
///
/// Years run from 1 to 9999 once the zone is applied. Week dates (`2003-W01-1`) and a bare century (`20`) are not
/// read. Anything else is `nil`: never "now", never a crash.
enum FeedDate {
    /// Parses a date string.
    static func parse(_ string: String) -> Date? {
        var copy = string
        return copy.withUTF8 { parse(bytes: $0, now: nil) }
    }

    /// Parses a date string; the truncated ISO 8601 forms without a year (`--12-01`) are read in the year (and month)
    /// of `now` in UTC, or of the current moment when `now` is `nil`.
    static func parse(_ string: String, now: Date?) -> Date? {
        var copy = string
        return copy.withUTF8 { parse(bytes: $0, now: now) }
    }

    /// Parses a date from UTF-8 bytes.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        parse(bytes: bytes, now: nil)
    }

    /// The `start` and `end` of a DCMI period (`start=2002-10-13T09:00+01:00; end=2002-10-17T17:00+01:00;
    /// scheme=W3C-DTF`, Dublin Core's `dcterms:valid`), read as dates; a part that is missing or unreadable is `nil`.
    static func period(_ text: String) -> (start: Date?, end: Date?) {
        var start: Date?
        var end: Date?
        for part in text.split(separator: ";") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if name == "start" { start = parse(value) } else if name == "end" { end = parse(value) }
        }
        return (start, end)
    }

    @inline(__always)
    private static func parse(bytes: UnsafeBufferPointer<UInt8>, now: Date?) -> Date? {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard end > start, end - start < 128 else { return nil }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if trimmed.count >= 4, isDigit(trimmed[0]), isDigit(trimmed[1]), isDigit(trimmed[2]), isDigit(trimmed[3]) {
            if let date = parseISO(trimmed) { return date }
        }
        return parseRFC822(trimmed) ?? parseFallback(trimmed, now: now)
    }

    // MARK: - ISO 8601 family

    private static func parseISO(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var cursor = 0
        guard let year = number(bytes, &cursor, 4) else { return nil }
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        var offset = 0
        var rollingOver = false
        func date(rollingOver: Bool) -> Date? {
            makeDate(year, month, day, hour * 3600 + minute * 60 + second - offset, fraction, rollingOver: rollingOver)
        }
        if cursor == bytes.count {
            return date(rollingOver: false)
        }
        let separator = bytes[cursor]
        guard separator == 0x2D || separator == 0x2F else { return nil }  // - or /
        cursor += 1
        guard let parsedMonth = oneOrTwoDigits(bytes, &cursor) else { return nil }
        month = parsedMonth
        if cursor == bytes.count {
            return date(rollingOver: separator == 0x2D)
        }
        guard bytes[cursor] == separator else { return nil }
        cursor += 1
        guard let parsedDay = oneOrTwoDigits(bytes, &cursor) else { return nil }
        day = parsedDay
        if cursor == bytes.count {
            return date(rollingOver: separator == 0x2D)
        }
        guard bytes[cursor] == 0x54 || bytes[cursor] == 0x74 || bytes[cursor] == 0x20 else { return nil }
        // W3C-DTF's `T`: fields out of range carry over, as feedparser reads them (its ISO 8601 handler); the other
        // forms are checked.
        rollingOver = separator == 0x2D && bytes[cursor] | 0x20 == 0x74
        while cursor < bytes.count, bytes[cursor] == 0x54 || bytes[cursor] == 0x74 || bytes[cursor] == 0x20 {
            cursor += 1
        }
        guard let parsedHour = number(bytes, &cursor, 2), cursor < bytes.count, bytes[cursor] == 0x3A else {
            return nil
        }
        cursor += 1
        guard let parsedMinute = number(bytes, &cursor, 2),
            rollingOver || (parsedHour < 24 && parsedMinute < 60)
        else { return nil }
        hour = parsedHour
        minute = parsedMinute
        if cursor < bytes.count, bytes[cursor] == 0x3A {
            cursor += 1
            guard let parsedSecond = number(bytes, &cursor, 2), rollingOver || parsedSecond <= 60 else { return nil }
            second = rollingOver ? parsedSecond : min(parsedSecond, 59)
            if cursor < bytes.count, bytes[cursor] == 0x2E || bytes[cursor] == 0x2C {
                cursor += 1
                var scale = 0.1
                var sawDigit = false
                while cursor < bytes.count, isDigit(bytes[cursor]) {
                    fraction += Double(bytes[cursor] - 0x30) * scale
                    scale /= 10
                    cursor += 1
                    sawDigit = true
                }
                guard sawDigit else { return nil }
            }
        }
        while cursor < bytes.count, bytes[cursor] == 0x20 { cursor += 1 }
        if cursor == bytes.count {
            return date(rollingOver: rollingOver)
        }
        switch bytes[cursor] {
        case 0x5A, 0x7A:
            cursor += 1
        case 0x2B, 0x2D:
            let sign = bytes[cursor] == 0x2D ? -1 : 1
            cursor += 1
            guard let offsetHours = number(bytes, &cursor, 2) else { return nil }
            if cursor < bytes.count, bytes[cursor] == 0x3A { cursor += 1 }
            let offsetMinutes = number(bytes, &cursor, 2) ?? 0
            guard offsetHours < 24, offsetMinutes < 60 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            var zone = UInt32(0)
            var letters = 0
            while cursor < bytes.count, isLetter(bytes[cursor]), letters < 4 {
                zone = zone << 8 | UInt32(bytes[cursor] | 0x20)
                letters += 1
                cursor += 1
            }
            guard let zoneOffset = namedZoneOffset(zone, letters: letters) else { return nil }
            offset = zoneOffset
        }
        guard cursor == bytes.count else { return nil }
        return date(rollingOver: rollingOver)
    }

    /// Reads exactly `count` digits at `cursor`, moving past them.
    @inline(__always)
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ count: Int) -> Int? {
        guard cursor + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[cursor + offset]
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        cursor += count
        return value
    }

    /// The date of the fields read; with `rollingOver`, a month, day or time out of its range carries into the
    /// next one (`2003-07-32` is August 1st, `T25:14` one in the morning the next day), as feedparser's ISO 8601
    /// reading does.
    private static func makeDate(
        _ year: Int,
        _ month: Int,
        _ day: Int,
        _ secondsOfDay: Int,
        _ fraction: Double,
        rollingOver: Bool = false
    ) -> Date? {
        let days: Int
        if rollingOver {
            let months = year * 12 + month - 1
            guard months >= 0 else { return nil }
            let (carriedYear, carriedMonth) = months.quotientAndRemainder(dividingBy: 12)
            days = RFC3339.daysFromCivil(year: carriedYear, month: carriedMonth + 1, day: 1) + day - 1
        } else {
            guard (1...12).contains(month), day >= 1, day <= RFC3339.daysInMonth(year: year, month: month) else {
                return nil
            }
            days = RFC3339.daysFromCivil(year: year, month: month, day: day)
        }
        let seconds = days * 86_400 + secondsOfDay
        guard isSaneYear(seconds) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// Whether seconds since 1970 fall in the years 1-9999, from 0001-01-01T00:00:00Z to 10000-01-01T00:00:00Z (one
    /// comparison).
    @inline(__always)
    private static func isSaneYear(_ seconds: Int) -> Bool {
        UInt(bitPattern: seconds &+ 62_135_596_800) < 315_537_897_600
    }

    // MARK: - RFC 822 family

    /// Reads tokens in any order: a month name, a day, a year, a `hh:mm[:ss]` time and a zone. Words that are not
    /// month or zone names (day names in any language) are skipped.
    private static func parseRFC822(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var cursor = 0
        var month: Int?
        /// Whether `month` was read from the first word, before any number.
        var monthBeforeNumbers = false
        var day: Int?
        var year: Int?
        var yearDigits = 0
        var hour = 0
        var minute = 0
        var second = 0
        var sawTime = false
        var offset: Int?
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if isDigit(byte) {
                var value = 0
                var count = 0
                while cursor < bytes.count, isDigit(bytes[cursor]), count < 9 {
                    value = value * 10 + Int(bytes[cursor] - 0x30)
                    count += 1
                    cursor += 1
                }
                if cursor < bytes.count, bytes[cursor] == 0x3A, !sawTime {
                    // hh:mm[:ss], in locals rather than an array: this runs once per item.
                    cursor += 1
                    var parts = (value, 0, 0)
                    var partsRead = 1
                    while partsRead < 3 {
                        var part = 0
                        var digits = 0
                        while cursor < bytes.count, isDigit(bytes[cursor]), digits < 2 {
                            part = part * 10 + Int(bytes[cursor] - 0x30)
                            digits += 1
                            cursor += 1
                        }
                        guard digits > 0 else { return nil }
                        if partsRead == 1 { parts.1 = part } else { parts.2 = part }
                        partsRead += 1
                        guard cursor < bytes.count, bytes[cursor] == 0x3A else { break }
                        cursor += 1
                    }
                    guard parts.0 < 24, parts.1 < 60, partsRead < 3 || parts.2 <= 60 else { return nil }
                    hour = parts.0
                    minute = parts.1
                    second = partsRead > 2 ? min(parts.2, 59) : 0
                    sawTime = true
                    // Skip fractional seconds.
                    if cursor < bytes.count, bytes[cursor] == 0x2E {
                        cursor += 1
                        while cursor < bytes.count, isDigit(bytes[cursor]) { cursor += 1 }
                    }
                } else if day == nil, count <= 2, year == nil || month != nil {
                    day = value
                } else if year == nil, count == 4 || count == 2 {
                    year = value
                    yearDigits = count
                } else if day == nil, count <= 2 {
                    day = value
                } else {
                    return nil
                }
            } else if byte == 0x2B || (byte == 0x2D && sawTime) {
                // A numeric zone: +0900, -05:00, +9.
                let sign = byte == 0x2D ? -1 : 1
                cursor += 1
                var digits = 0
                var value = 0
                while cursor < bytes.count, digits < 4 {
                    if isDigit(bytes[cursor]) {
                        value = value * 10 + Int(bytes[cursor] - 0x30)
                        digits += 1
                    } else if bytes[cursor] != 0x3A || digits != 2 {
                        break
                    }
                    cursor += 1
                }
                // A colon must be followed by the minutes: `+00:zz` is no zone.
                guard bytes[cursor - 1] != 0x3A else { return nil }
                let hours: Int
                let minutes: Int
                switch digits {
                case 1, 2:
                    hours = value
                    minutes = 0
                case 3, 4:
                    // Four digits are read as hours and minutes whatever their size, as feedparser reads them
                    // (`+3000` is thirty hours ahead); three are an hour's digit and the minutes with the leading
                    // zero left out (`-800`, iTunes feeds').
                    hours = value / 100
                    minutes = value % 100
                default: return nil
                }
                guard digits >= 3 || hours < 24 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            } else if isLetter(byte) {
                var word = UInt32(0)
                var letters = 0
                let wordStart = cursor
                while cursor < bytes.count, isLetter(bytes[cursor]) || isLatin1Letter(bytes, at: cursor) {
                    if letters < 4 { word = word << 8 | UInt32(bytes[cursor] | 0x20) }
                    letters += 1
                    cursor += 1
                }
                if letters >= 3, month == nil || monthBeforeNumbers,
                    let found = monthNumber(bytes, wordStart) ?? localMonthNumber(bytes[wordStart..<cursor])
                {
                    // A month word before any number may be a day's name: French, Spanish and Italian Tuesdays
                    // (`mar., 13 sept. 2022`, CommitStrip's feed) start as March does. A month word after it is the
                    // month.
                    monthBeforeNumbers = month == nil && day == nil && year == nil && !sawTime
                    month = found
                } else if sawTime, letters == 2, word == 0x616D || word == 0x706D, (1...12).contains(hour) {
                    // A 12-hour clock (`8:19 pm CEST`, Yahoo's weather feeds): 12 am is midnight, 12 pm noon.
                    hour = hour % 12 + (word == 0x706D ? 12 : 0)
                } else if sawTime, offset == nil, letters <= 4, let zone = namedZoneOffset(word, letters: letters) {
                    offset = zone
                }
                // Anything else (a day name in any language, "at" before the time, an unknown zone) is ignored.
            } else {
                // A negative year (`30 Nov -0001`: PHP's rendering of WordPress's zero date) is no date.
                if byte == 0x2D, !sawTime, cursor + 1 < bytes.count, isDigit(bytes[cursor + 1]),
                    cursor == 0 || isSpace(bytes[cursor - 1])
                {
                    return nil
                }
                cursor += 1  // separators: space, comma, '-', '/', '.', non-ASCII bytes
            }
        }
        guard let month, let day, var year else { return nil }
        if yearDigits == 2 { year += year < 50 ? 2000 : 1900 }
        guard day >= 1, day <= RFC3339.daysInMonth(year: year, month: month) else { return nil }
        let days = RFC3339.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - (offset ?? 0)
        guard isSaneYear(seconds) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func monthNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        let key =
            UInt32(bytes[start] | 0x20) << 16 | UInt32(bytes[start + 1] | 0x20) << 8 | UInt32(bytes[start + 2] | 0x20)
        switch key {
        case 0x6A_616E: return 1  // jan
        case 0x66_6562: return 2  // feb
        case 0x6D_6172: return 3  // mar
        case 0x61_7072: return 4  // apr
        case 0x6D_6179: return 5  // may
        case 0x6A_756E: return 6  // jun
        case 0x6A_756C: return 7  // jul
        case 0x61_7567: return 8  // aug
        case 0x73_6570: return 9  // sep
        case 0x6F_6374: return 10  // oct
        case 0x6E_6F76: return 11  // nov
        case 0x64_6563: return 12  // dec
        default: return nil
        }
    }

    /// The month of a French, German, Spanish or Italian month name or abbreviation that the English three letters
    /// do not already give (`févr.`, `déc`, `août`, `mai`, `avr`, `Mär`, `Okt`, `dic`, `ago`, `mag`...): news sites
    /// write them in RFC 822 dates (`mar., 22 févr. 2022 20:04:25 +0000`, CommitStrip's feed).
    private static func localMonthNumber(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        // Compared lower-cased, in place (this runs for every day name): ASCII letters, and the second byte of a
        // Latin-1 capital (`É` is C3 89, `é` C3 A9).
        func lowered(_ index: Int) -> UInt8 {
            let byte = word[index]
            if byte < 0x80 { return byte | 0x20 }
            return index > word.startIndex && word[index - 1] == 0xC3 && byte < 0x9F ? byte + 0x20 : byte
        }
        return localMonths.first { month in
            month.prefix.count <= word.count
                && month.prefix.indices.allSatisfy { lowered(word.startIndex + $0) == month.prefix[$0] }
        }?.month
    }

    /// Month names' first letters in French, German, Spanish and Italian where they are not English's.
    private static let localMonths: [(prefix: [UInt8], month: Int)] = [
        ("févr", 2), ("fevr", 2), ("avr", 4), ("mai", 5), ("août", 8), ("aout", 8), ("déc", 12),
        ("mär", 3), ("mrz", 3), ("okt", 10), ("dez", 12),
        ("ene", 1), ("abr", 4), ("ago", 8), ("dic", 12),
        ("gen", 1), ("mag", 5), ("giu", 6), ("lug", 7), ("set", 9), ("ott", 10),
    ].map { (Array($0.0.utf8), $0.1) }

    /// Whether a Latin-1 letter (`é`, `û`, `ä`: two bytes, C3 and 80-BF, but not `×` or `÷`) starts at `index`, or
    /// its second byte is there.
    private static func isLatin1Letter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = bytes[index]
        if byte == 0xC3 {
            return index + 1 < bytes.count && (0x80...0xBF).contains(bytes[index + 1])
                && bytes[index + 1] != 0x97 && bytes[index + 1] != 0xB7
        }
        return (0x80...0xBF).contains(byte) && index > 0 && bytes[index - 1] == 0xC3 && byte != 0x97 && byte != 0xB7
    }

    /// The offset in seconds of a zone name packed as lower-case ASCII bytes, or `nil` for an unknown word.
    private static func namedZoneOffset(_ word: UInt32, letters: Int) -> Int? {
        if letters == 1 {
            // Military zones as RFC 822 defines them: Z is UT, A-M (no J) are -1..-12, N-Y are +1..+12.
            let letter = Int(word) - 0x61
            switch letter {
            case 25: return 0
            case 0...8: return -(letter + 1) * 3600
            case 10...12: return -letter * 3600
            case 13...24: return (letter - 12) * 3600
            default: return nil
            }
        }
        return zoneHours[word].map { Int($0 * 3600) }
    }

    /// Named zones, packed as lower-case ASCII bytes, and their offsets in hours.
    private static let zoneHours: [UInt32: Double] = {
        var table: [UInt32: Double] = [:]
        let zones: [(names: [StaticString], hours: Double)] = [
            (["ut", "utc", "gmt", "wet"], 0), (["bst", "cet", "met", "wat", "west"], 1),
            (["cest", "eet", "mest", "sast"], 2), (["eest", "msk"], 3), (["est"], -5), (["edt"], -4), (["cst"], -6),
            (["cdt"], -5), (["mst"], -7), (["mdt"], -6), (["pst"], -8), (["pdt"], -7), (["akst"], -9), (["akdt"], -8),
            (["hst"], -10), (["ast", "at"], -4), (["adt"], -3), (["nst"], -3.5), (["jst", "kst"], 9),
            // The zones without a season that feedparser reads, as their standard time.
            (["et"], -5), (["ct"], -6), (["mt"], -7), (["pt"], -8),
            (["hkt", "sgt", "awst"], 8), (["aest"], 10), (["aedt"], 11), (["nzst"], 12), (["nzdt"], 13),
        ]
        for zone in zones {
            for name in zone.names { table[pack(name)] = zone.hours }
        }
        return table
    }()

    private static func pack(_ string: StaticString) -> UInt32 {
        var value = UInt32(0)
        string.withUTF8Buffer { for byte in $0 { value = value << 8 | UInt32(byte) } }
        return value
    }

    // MARK: - Fallbacks

    /// The families the fast paths do not read, tried only after both have returned `nil`.
    private static func parseFallback(_ bytes: UnsafeBufferPointer<UInt8>, now: Date?) -> Date? {
        if let date = parseLooseISO(bytes, now: now) ?? parsePerforce(bytes, now: now) { return date }
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        return parseOnBlog(bytes) ?? parseNate(bytes) ?? parseHungarian(bytes) ?? parseGreek(bytes)
    }

    /// The ISO 8601 date forms of feedparser's w3dtf handler and then of its iso8601 handler, in that handler's order,
    /// each followed by an optional time and zone that must end the string (feedparser's iso8601 ignores whatever
    /// follows a date it can read). A form whose fields are out of range, or after which the rest is no time, gives
    /// way to the next.
    private static func parseLooseISO(_ bytes: UnsafeBufferPointer<UInt8>, now: Date?) -> Date? {
        for form in 0..<12 {
            var cursor = 0
            if let days = isoDate(bytes, form: form, &cursor, now: now), let date = isoTail(bytes, cursor, days: days) {
                return date
            }
        }
        return nil
    }

    /// Reads the date of one form at the start of `bytes` as days since 1970, moving `cursor` past it. A bare
    /// century (`20`), which feedparser reads as year 1901 in the current month, is deliberately no form here.
    private static func isoDate(_ bytes: UnsafeBufferPointer<UInt8>, form: Int, _ cursor: inout Int, now: Date?)
        -> Int?
    {
        switch form {
        case 0:  // W3C-DTF with one- or two-digit fields: YYYY-M[M][-D[D]], or with '/'
            guard let year = number(bytes, &cursor, 4), cursor < bytes.count else { return nil }
            let separator = bytes[cursor]
            guard separator == 0x2D || separator == 0x2F else { return nil }
            cursor += 1
            guard let month = oneOrTwoDigits(bytes, &cursor) else { return nil }
            guard cursor < bytes.count, bytes[cursor] == separator else { return calendarDays(year, month, 1) }
            cursor += 1
            guard let day = oneOrTwoDigits(bytes, &cursor) else { return nil }
            return calendarDays(year, month, day)
        case 1:  // YYYY-MM-DD or YYYYMMDD
            guard let year = number(bytes, &cursor, 4) else { return nil }
            let extended = isHyphen(bytes, cursor)
            guard let month = number(bytes, &cursor, 2, hyphen: extended),
                let day = number(bytes, &cursor, 2, hyphen: extended)
            else { return nil }
            return calendarDays(year, month, day)
        case 2:  // YYYY-0MM-?DD, Google's extra zero
            guard let year = number(bytes, &cursor, 4), literal(bytes, &cursor, "-0"),
                let month = number(bytes, &cursor, 2), let day = number(bytes, &cursor, 2, hyphen: true)
            else { return nil }
            return calendarDays(year, month, day)
        case 3:  // YYYY-OOO or YYYYOOO
            guard let year = number(bytes, &cursor, 4),
                let ordinal = number(bytes, &cursor, 3, hyphen: isHyphen(bytes, cursor))
            else { return nil }
            return ordinalDays(year, ordinal)
        case 4:  // YY-MM-DD or YYMMDD
            guard let year = number(bytes, &cursor, 2) else { return nil }
            let extended = isHyphen(bytes, cursor)
            guard let month = number(bytes, &cursor, 2, hyphen: extended),
                let day = number(bytes, &cursor, 2, hyphen: extended)
            else { return nil }
            return calendarDays(fullYear(year), month, day)
        case 5:  // YY-OOO or YYOOO
            guard let year = number(bytes, &cursor, 2),
                let ordinal = number(bytes, &cursor, 3, hyphen: isHyphen(bytes, cursor))
            else { return nil }
            return ordinalDays(fullYear(year), ordinal)
        case 6:  // YYYY
            return number(bytes, &cursor, 4).flatMap { calendarDays($0, 1, 1) }
        case 7:  // -YY-MM or -YYMM
            guard literal(bytes, &cursor, "-"), let year = number(bytes, &cursor, 2),
                let month = number(bytes, &cursor, 2, hyphen: isHyphen(bytes, cursor))
            else { return nil }
            return calendarDays(fullYear(year), month, 1)
        case 8:  // -OOO, in the current year
            guard literal(bytes, &cursor, "-"), let ordinal = number(bytes, &cursor, 3),
                let today = currentYearMonth(now)
            else { return nil }
            return ordinalDays(today.year, ordinal)
        case 9:  // -YY: feedparser takes the current month; January, as for a year alone
            guard literal(bytes, &cursor, "-"), let year = number(bytes, &cursor, 2) else { return nil }
            return calendarDays(fullYear(year), 1, 1)
        case 10:  // --MM-DD, --MMDD or --MM, in the current year
            guard literal(bytes, &cursor, "--"), let month = number(bytes, &cursor, 2),
                let today = currentYearMonth(now)
            else { return nil }
            let day = number(bytes, &cursor, 2, hyphen: isHyphen(bytes, cursor)) ?? 1
            return calendarDays(today.year, month, day)
        case 11:  // ---DD, in the current year and month
            guard literal(bytes, &cursor, "---"), let day = number(bytes, &cursor, 2), let today = currentYearMonth(now)
            else { return nil }
            return calendarDays(today.year, today.month, day)
        default:
            return nil
        }
    }

    /// After a date: nothing (midnight UTC), or `T` or spaces, a time, and an optional zone, to the end.
    private static func isoTail(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, days: Int) -> Date? {
        var cursor = start
        guard cursor < bytes.count else { return date(days: days, seconds: 0, fraction: 0) }
        let afterT = bytes[cursor] | 0x20 == 0x74
        if afterT {
            cursor += 1
        } else {
            guard isSpace(bytes[cursor]) else { return nil }
            skipSpaces(bytes, &cursor)
        }
        guard let time = isoTime(bytes, &cursor, basic: afterT) else { return nil }
        let zoneStart = cursor
        skipSpaces(bytes, &cursor)
        guard let offset = zoneOffset(bytes, &cursor, unknownIsUTC: cursor > zoneStart), cursor == bytes.count else {
            return nil
        }
        return date(days: days, seconds: time.seconds - offset, fraction: time.fraction)
    }

    /// `h[h]:m[m][:s[s][.f]]`; with `basic`, after a `T`, also `hh`, `hhmm` and `hhmmss[.f]`. A leap second is
    /// folded into the one before it.
    private static func isoTime(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, basic: Bool)
        -> (seconds: Int, fraction: Double)?
    {
        let start = cursor
        var value = 0
        while cursor < bytes.count, isDigit(bytes[cursor]), cursor - start < 7 {
            value = value * 10 + Int(bytes[cursor] - 0x30)
            cursor += 1
        }
        var hour = 0
        var minute = 0
        var second = 0
        var hasSeconds = false
        if cursor < bytes.count, bytes[cursor] == 0x3A {
            guard cursor - start == 1 || cursor - start == 2 else { return nil }
            hour = value
            cursor += 1
            guard let parsedMinute = oneOrTwoDigits(bytes, &cursor) else { return nil }
            minute = parsedMinute
            if cursor < bytes.count, bytes[cursor] == 0x3A {
                cursor += 1
                guard let parsedSecond = oneOrTwoDigits(bytes, &cursor) else { return nil }
                second = parsedSecond
                hasSeconds = true
            }
        } else {
            guard basic else { return nil }
            switch cursor - start {
            case 2: hour = value
            case 4: (hour, minute) = (value / 100, value % 100)
            case 6: (hour, minute, second, hasSeconds) = (value / 10_000, value / 100 % 100, value % 100, true)
            default: return nil
            }
        }
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        var fraction = 0.0
        if hasSeconds, cursor < bytes.count, bytes[cursor] == 0x2E || bytes[cursor] == 0x2C {
            cursor += 1
            var scale = 0.1
            let digitsStart = cursor
            while cursor < bytes.count, isDigit(bytes[cursor]) {
                fraction += Double(bytes[cursor] - 0x30) * scale
                scale /= 10
                cursor += 1
            }
            guard cursor > digitsStart else { return nil }
        }
        return (hour * 3600 + minute * 60 + min(second, 59), fraction)
    }

    /// A zone at `cursor`, or none at the end (UTC): `Z`, `+hh`, `+hh:mm`, `+hhmm`, a known name (`EST`, `Etc/GMT`,
    /// `GMT+01:00`) or, when `unknownIsUTC`, any other word of up to five letters, read as UTC as in RFC 822.
    private static func zoneOffset(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, unknownIsUTC: Bool)
        -> Int?
    {
        guard cursor < bytes.count else { return 0 }
        if bytes[cursor] == 0x2B || bytes[cursor] == 0x2D { return numericOffset(bytes, &cursor) }
        var word = UInt32(0)
        var letters = 0
        while cursor < bytes.count, isLetter(bytes[cursor]) {
            if letters < 4 { word = word << 8 | UInt32(bytes[cursor] | 0x20) }
            letters += 1
            cursor += 1
            if letters == 3, word == 0x65_7463, cursor < bytes.count, bytes[cursor] == 0x2F {  // "etc/"
                (word, letters) = (0, 0)
                cursor += 1
            }
        }
        guard letters > 0 else { return nil }
        let isUTC = word == 0x67_6D74 || word == 0x75_7463 || word == 0x7574  // gmt, utc, ut
        if letters <= 3, isUTC, cursor < bytes.count, bytes[cursor] == 0x2B || bytes[cursor] == 0x2D {
            return numericOffset(bytes, &cursor)
        }
        if letters <= 4, let offset = namedZoneOffset(word, letters: letters) { return offset }
        return unknownIsUTC && letters <= 5 ? 0 : nil
    }

    /// `+hh`, `+hhmm` or `+hh:mm` (or `-`); also, as feedparser reads them, the clipped `+h`, `+hh:m` and `+hh:`
    /// that real feeds write (`2017-06-13T03:18:00+00:0`).
    private static func numericOffset(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int) -> Int? {
        let sign = bytes[cursor] == 0x2D ? -1 : 1
        cursor += 1
        guard let hours = oneOrTwoDigits(bytes, &cursor) else { return nil }
        var minutes = 0
        if cursor < bytes.count, bytes[cursor] == 0x3A {
            cursor += 1
            minutes = oneOrTwoDigits(bytes, &cursor) ?? 0
        } else if let parsed = number(bytes, &cursor, 2) {
            minutes = parsed
        }
        guard hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// Perforce's `Fri, 2006/09/15 08:19:53 EDT`: a day name (in any language, or none before the comma) before an
    /// ISO-ordered date.
    private static func parsePerforce(_ bytes: UnsafeBufferPointer<UInt8>, now: Date?) -> Date? {
        var cursor = 0
        while cursor < bytes.count, isLetter(bytes[cursor]) || bytes[cursor] >= 0x80 { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == 0x2C || (cursor > 0 && bytes[cursor] == 0x20) else { return nil }
        cursor += 1
        skipSpaces(bytes, &cursor)
        guard bytes.count - cursor >= 4, isDigit(bytes[cursor]), isDigit(bytes[cursor + 3]) else { return nil }
        let rest = UnsafeBufferPointer(rebasing: bytes[cursor...])
        return parseISO(rest) ?? parseLooseISO(rest, now: now)
    }

    /// OnBlog's `2004년 05월 28일 01:31:15`, Korean time.
    private static func parseOnBlog(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var cursor = 0
        guard let year = number(bytes, &cursor, 4), literal(bytes, &cursor, "년", afterSpaces: true),
            let month = oneOrTwoDigits(bytes, &cursor, afterSpaces: true),
            literal(bytes, &cursor, "월", afterSpaces: true),
            let day = oneOrTwoDigits(bytes, &cursor, afterSpaces: true),
            literal(bytes, &cursor, "일", afterSpaces: true), let days = calendarDays(year, month, day)
        else { return nil }
        guard cursor < bytes.count else { return date(days: days, seconds: -9 * 3600, fraction: 0) }
        skipSpaces(bytes, &cursor)
        guard let time = isoTime(bytes, &cursor, basic: false), cursor == bytes.count else { return nil }
        return date(days: days, seconds: time.seconds - 9 * 3600, fraction: time.fraction)
    }

    /// Nate's `2004-05-25 오후 11:23:17` (오전 is a.m., 오후 p.m.), Korean time. Unlike feedparser, which makes
    /// 12 p.m. hour 24 and so no date, the hours run as on a 12-hour clock: 12 a.m. is midnight, 12 p.m. noon.
    private static func parseNate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var cursor = 0
        guard let year = number(bytes, &cursor, 4), literal(bytes, &cursor, "-"),
            let month = oneOrTwoDigits(bytes, &cursor), literal(bytes, &cursor, "-"),
            let day = oneOrTwoDigits(bytes, &cursor), let days = calendarDays(year, month, day)
        else { return nil }
        let afternoon: Bool
        if literal(bytes, &cursor, "오전", afterSpaces: true) {
            afternoon = false
        } else if literal(bytes, &cursor, "오후", afterSpaces: true) {
            afternoon = true
        } else {
            return nil
        }
        skipSpaces(bytes, &cursor)
        guard let time = isoTime(bytes, &cursor, basic: false), cursor == bytes.count,
            time.seconds < 13 * 3600
        else { return nil }
        let hour = time.seconds / 3600
        let seconds = time.seconds - hour * 3600 + (hour % 12 + (afternoon ? 12 : 0)) * 3600
        return date(days: days, seconds: seconds - 9 * 3600, fraction: time.fraction)
    }

    /// `2004-július-13T9:15-05:00`: a Hungarian month name in W3C-DTF.
    private static func parseHungarian(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var cursor = 0
        guard let year = number(bytes, &cursor, 4), literal(bytes, &cursor, "-") else { return nil }
        let nameStart = cursor
        while cursor < bytes.count, bytes[cursor] != 0x2D { cursor += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<cursor])
        guard let month = hungarianMonths.first(where: { equalFoldingASCII(name, $0.name) })?.month,
            literal(bytes, &cursor, "-"), let day = oneOrTwoDigits(bytes, &cursor),
            let days = calendarDays(year, month, day)
        else { return nil }
        return isoTail(bytes, cursor, days: days)
    }

    /// Hungarian month names: feedparser's, whose February and May are misspelt, and the right spellings.
    private static let hungarianMonths: [(name: StaticString, month: Int)] = [
        ("január", 1), ("február", 2), ("februári", 2), ("március", 3), ("április", 4), ("május", 5), ("máujus", 5),
        ("június", 6), ("július", 7), ("augusztus", 8), ("szeptember", 9), ("október", 10), ("november", 11),
        ("december", 12),
    ]

    /// `Κυρ, 11 Ιούλ 2004 12:00:00 EST`: RFC 822 with a Greek month name, read as RFC 822 once the name is replaced
    /// by its English one (in a copy on the stack).
    private static func parseGreek(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count <= 128 else { return nil }
        var start = 0
        while start < bytes.count {
            guard bytes[start] >= 0x80 else {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count, bytes[end] >= 0x80 { end += 1 }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if let month = greekMonths.first(where: { equalFoldingASCII(word, $0.name) })?.month {
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
                    for index in 0..<bytes.count { buffer[index] = bytes[index] }
                    for index in start..<end { buffer[index] = 0x20 }
                    let names: StaticString = "JanFebMarAprMayJunJulAugSepOctNovDec"
                    names.withUTF8Buffer { names in
                        for index in 0..<3 { buffer[start + index] = names[(month - 1) * 3 + index] }
                    }
                    return parseRFC822(UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
                }
            }
            start = end
        }
        return nil
    }

    /// Greek month names, as feedparser knows them.
    private static let greekMonths: [(name: StaticString, month: Int)] = [
        ("Ιαν", 1), ("Φεβ", 2), ("Μάώ", 3), ("Μαώ", 3), ("Απρ", 4), ("Μάι", 5), ("Μαϊ", 5), ("Μαι", 5), ("Ιούν", 6),
        ("Ιον", 6), ("Ιούλ", 7), ("Ιολ", 7), ("Αύγ", 8), ("Αυγ", 8), ("Σεπ", 9), ("Οκτ", 10), ("Νοέ", 11), ("Νοε", 11),
        ("Δεκ", 12),
    ]

    // MARK: - Fallback helpers

    private static func calendarDays(_ year: Int, _ month: Int, _ day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= RFC3339.daysInMonth(year: year, month: month) else {
            return nil
        }
        return RFC3339.daysFromCivil(year: year, month: month, day: day)
    }

    private static func ordinalDays(_ year: Int, _ ordinal: Int) -> Int? {
        guard ordinal >= 1, ordinal <= 337 + RFC3339.daysInMonth(year: year, month: 2) else { return nil }
        return RFC3339.daysFromCivil(year: year, month: 1, day: 1) + ordinal - 1
    }

    private static func date(days: Int, seconds: Int, fraction: Double) -> Date? {
        let total = days * 86_400 + seconds
        guard isSaneYear(total) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(total) + fraction)
    }

    /// A two-digit year as RFC 2822 reads it: 00-49 are 2000s, 50-99 are 1900s. (feedparser's iso8601 handler puts
    /// every two-digit year in the current century, which makes `99` 2099.)
    private static func fullYear(_ year: Int) -> Int { year < 50 ? 2000 + year : 1900 + year }

    /// The year and month of `now` (or of the current moment) in UTC.
    private static func currentYearMonth(_ now: Date?) -> (year: Int, month: Int)? {
        let seconds = (now ?? Date()).timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        let civil = RFC3339.civilFromDays(Int((seconds / 86_400).rounded(.down)))
        return (civil.year, civil.month)
    }

    /// One or two digits at `cursor` (after spaces, if `afterSpaces`), moving past them.
    private static func oneOrTwoDigits(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ cursor: inout Int,
        afterSpaces: Bool = false
    ) -> Int? {
        if afterSpaces { skipSpaces(bytes, &cursor) }
        guard cursor < bytes.count, isDigit(bytes[cursor]) else { return nil }
        var value = Int(bytes[cursor] - 0x30)
        cursor += 1
        if cursor < bytes.count, isDigit(bytes[cursor]) {
            value = value * 10 + Int(bytes[cursor] - 0x30)
            cursor += 1
        }
        return value
    }

    /// Reads exactly `count` digits at `cursor`, after a hyphen if `hyphen`, moving past them.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ count: Int, hyphen: Bool)
        -> Int?
    {
        var next = cursor
        if hyphen {
            guard isHyphen(bytes, next) else { return nil }
            next += 1
        }
        guard let value = number(bytes, &next, count) else { return nil }
        cursor = next
        return value
    }

    private static func isHyphen(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        index < bytes.count && bytes[index] == 0x2D
    }

    /// Whether `text` is at `cursor` (after spaces, if `afterSpaces`), moving past it if so.
    private static func literal(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ cursor: inout Int,
        _ text: StaticString,
        afterSpaces: Bool = false
    ) -> Bool {
        var next = cursor
        if afterSpaces { skipSpaces(bytes, &next) }
        let count = text.utf8CodeUnitCount
        guard bytes.count - next >= count else { return false }
        let matches = text.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[next + $0] == expected[$0] }
        }
        if matches { cursor = next + count }
        return matches
    }

    /// Whether `bytes` are `text`, ignoring the case of ASCII letters.
    private static func equalFoldingASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { actual, wanted in
                actual == wanted || (isLetter(actual) && actual | 0x20 == wanted | 0x20)
            }
        }
    }

    private static func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int) {
        while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
