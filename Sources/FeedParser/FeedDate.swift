import Foundation
import TributaryCore

/// Parses the dates feeds really contain, from bytes, without `DateFormatter`.
///
/// Accepted: RFC 822/1123/2822 with its real-world variants (named zones such as `GMT`, `EST`, `JST`, `CET`, `ET`,
/// military letters as RFC 822 defines them, numeric offsets with or without a colon, missing seconds, two-digit
/// years (00-49 are 2000s, 50-99 are 1900s, as RFC 2822 says), day names missing, misspelt or in another language,
/// extra whitespace, asctime order `Sun Nov 22 05:41:40 2026`); RFC 3339 and W3C-DTF (`2026-11-22T05:41:40Z`,
/// `2026-11-22T05:41Z`, `2026-11-22`, `2026-11`, `2026`); and sloppy forms (`2026-11-22 05:41:40` and
/// `2026/11/22 05:41`, read as UTC). Years run from 1 to 9999 once the zone is applied. Anything else is `nil`: never
/// "now", never a crash.
enum FeedDate {
    /// Parses a date string.
    static func parse(_ string: String) -> Date? {
        var copy = string
        return copy.withUTF8 { parse(bytes: $0) }
    }

    /// Parses a date from UTF-8 bytes.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard end > start, end - start < 128 else { return nil }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if trimmed.count >= 4, isDigit(trimmed[0]), isDigit(trimmed[1]), isDigit(trimmed[2]), isDigit(trimmed[3]) {
            if let date = parseISO(trimmed) { return date }
        }
        return parseRFC822(trimmed)
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
        if cursor == bytes.count {
            return makeDate(year, month, day, hour * 3600 + minute * 60 + second - offset, fraction)
        }
        let separator = bytes[cursor]
        guard separator == 0x2D || separator == 0x2F else { return nil }  // - or /
        cursor += 1
        guard let parsedMonth = number(bytes, &cursor, 2) ?? number(bytes, &cursor, 1) else { return nil }
        month = parsedMonth
        if cursor == bytes.count {
            return makeDate(year, month, day, hour * 3600 + minute * 60 + second - offset, fraction)
        }
        guard bytes[cursor] == separator else { return nil }
        cursor += 1
        guard let parsedDay = number(bytes, &cursor, 2) ?? number(bytes, &cursor, 1) else { return nil }
        day = parsedDay
        if cursor == bytes.count {
            return makeDate(year, month, day, hour * 3600 + minute * 60 + second - offset, fraction)
        }
        guard bytes[cursor] == 0x54 || bytes[cursor] == 0x74 || bytes[cursor] == 0x20 else { return nil }
        while cursor < bytes.count, bytes[cursor] == 0x54 || bytes[cursor] == 0x74 || bytes[cursor] == 0x20 {
            cursor += 1
        }
        guard let parsedHour = number(bytes, &cursor, 2), cursor < bytes.count, bytes[cursor] == 0x3A else {
            return nil
        }
        cursor += 1
        guard let parsedMinute = number(bytes, &cursor, 2), parsedHour < 24, parsedMinute < 60 else { return nil }
        hour = parsedHour
        minute = parsedMinute
        if cursor < bytes.count, bytes[cursor] == 0x3A {
            cursor += 1
            guard let parsedSecond = number(bytes, &cursor, 2), parsedSecond <= 60 else { return nil }
            second = min(parsedSecond, 59)
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
            return makeDate(year, month, day, hour * 3600 + minute * 60 + second - offset, fraction)
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
        return makeDate(year, month, day, hour * 3600 + minute * 60 + second - offset, fraction)
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

    private static func makeDate(_ year: Int, _ month: Int, _ day: Int, _ secondsOfDay: Int, _ fraction: Double)
        -> Date?
    {
        guard (1...12).contains(month), day >= 1, day <= RFC3339.daysInMonth(year: year, month: month) else {
            return nil
        }
        let seconds = RFC3339.daysFromCivil(year: year, month: month, day: day) * 86_400 + secondsOfDay
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
                case 4:
                    hours = value / 100
                    minutes = value % 100
                default: return nil
                }
                guard hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            } else if isLetter(byte) {
                var word = UInt32(0)
                var letters = 0
                let wordStart = cursor
                while cursor < bytes.count, isLetter(bytes[cursor]) {
                    if letters < 4 { word = word << 8 | UInt32(bytes[cursor] | 0x20) }
                    letters += 1
                    cursor += 1
                }
                if month == nil, letters >= 3, let found = monthNumber(bytes, wordStart) {
                    month = found
                } else if sawTime, offset == nil, letters <= 4, let zone = namedZoneOffset(word, letters: letters) {
                    offset = zone
                }
                // Anything else (a day name in any language, "at" before the time, an unknown zone) is ignored.
            } else {
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

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
