public import Foundation

/// Fast, allocation-free parsing and formatting of RFC 3339 timestamps, the date format of JSON Feed.
///
/// Formatting always produces UTC with a `Z` suffix and only as many fractional digits as the value needs (at most
/// six), so parsing what was formatted gives back the same `Date`. `DateFormatter` is deliberately not used: it is
/// slow, locale-dependent and not thread-safe to reconfigure.
public enum RFC3339 {
    /// Parses `2026-11-22T05:41:40Z`, `2026-11-22T14:41:40.123+09:00`, a lower-case `t`/`z`, or a space
    /// instead of `T`. A date without a time (`2026-11-22`) is midnight UTC. Returns `nil` for anything else.
    public static func parse(_ string: some StringProtocol) -> Date? {
        var text = String(string)
        return text.withUTF8 { parse(bytes: $0, trimming: true) }
    }

    /// Parses RFC 3339 from raw bytes, `trimming` white space around it first; see ``parse(_:)``.
    static func parse(bytes: UnsafeBufferPointer<UInt8>, trimming: Bool) -> Date? {
        guard trimming else { return parse(bytes: bytes) }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var start = 0
        var end = bytes.count
        while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        while start < end, isSpace(bytes[start]) { start += 1 }
        return parse(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Parses RFC 3339 from raw bytes; see ``parse(_:)``.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // A scanner in a local value, not local functions over a captured cursor: the captured variable was boxed and
        // every read of it checked for exclusive access at run time (two thirds of the parse).
        var scan = Scanner(bytes: bytes)
        guard let year = scan.digits(4), scan.expect(0x2D), let month = scan.digits(2), scan.expect(0x2D),
            let day = scan.digits(2), (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month)
        else { return nil }
        if scan.atEnd {
            return Date(timeIntervalSince1970: TimeInterval(daysFromCivil(year: year, month: month, day: day) * 86_400))
        }
        guard scan.expect(0x54) || scan.expect(0x74) || scan.expect(0x20) else { return nil }
        guard let hour = scan.digits(2), scan.expect(0x3A), let minute = scan.digits(2), hour < 24, minute < 60 else {
            return nil
        }
        var second = 0
        var fraction = 0.0
        if scan.expect(0x3A) {
            guard let value = scan.digits(2), value <= 60 else { return nil }
            second = min(value, 59)  // a leap second is folded into the preceding one
            if scan.expect(0x2E) || scan.expect(0x2C) {
                var scale = 0.1
                var sawDigit = false
                while let digit = scan.digit() {
                    fraction += Double(digit) * scale
                    scale /= 10
                    sawDigit = true
                }
                guard sawDigit else { return nil }
            }
        }
        var offsetSeconds = 0
        if scan.expect(0x5A) || scan.expect(0x7A) {
            // UTC
        } else if scan.expect(0x2B) || scan.expect(0x2D) {
            let sign = bytes[scan.cursor - 1] == 0x2D ? -1 : 1
            guard let offsetHours = scan.digits(2) else { return nil }
            _ = scan.expect(0x3A)
            let offsetMinutes = scan.digits(2) ?? 0
            guard offsetHours < 24, offsetMinutes < 60 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil  // RFC 3339 requires a zone
        }
        guard scan.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// Reads digits and marks from the front of a date's bytes.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var cursor = 0

        var atEnd: Bool { cursor == bytes.count }

        /// The next `count` bytes as a decimal number, if they are all digits.
        mutating func digits(_ count: Int) -> Int? {
            guard cursor + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[cursor + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            cursor += count
            return value
        }

        /// The next byte's value if it is a digit.
        mutating func digit() -> Int? {
            guard cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 else { return nil }
            cursor += 1
            return Int(bytes[cursor - 1] - 0x30)
        }

        /// Whether the next byte is `byte` (then read).
        mutating func expect(_ byte: UInt8) -> Bool {
            guard cursor < bytes.count, bytes[cursor] == byte else { return false }
            cursor += 1
            return true
        }
    }

    /// Formats a date as RFC 3339 in UTC, e.g. `2026-11-22T05:41:40Z` or `2026-11-22T05:41:40.25Z`.
    public static func format(_ date: Date) -> String {
        var written = false
        let text = String(unsafeUninitializedCapacity: maximumLength) { bytes in
            var index = 0
            written = write(date, into: bytes, at: &index)
            return written ? index : 0
        }
        return written ? text : formatWithSigns(date)
    }

    /// The most bytes ``write(_:into:at:)`` writes.
    static let maximumLength = 27

    /// Writes the date as ``format(_:)`` does, up to ``maximumLength`` bytes at `index`, which moves past them: the
    /// JSON Feed writer's dates, without a string. `false`, writing nothing, for a year outside 0 to 9999, which only
    /// ``format(_:)`` writes (with every digit and a sign).
    static func write(_ date: Date, into bytes: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) -> Bool {
        let (days, secondOfDay, micros) = split(date)
        let (year, month, day) = civilFromDays(days)
        guard (0...9999).contains(year) else { return false }
        writeDateTime(year: year, month: month, day: day, secondOfDay: secondOfDay, into: bytes, at: &index)
        if micros > 0 {
            var fraction = micros
            var width = 6
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
            bytes[index] = UInt8(ascii: ".")
            index += 1
            for place in (0..<width).reversed() {
                bytes[index + place] = UInt8(0x30 + fraction % 10)
                fraction /= 10
            }
            index += width
        }
        bytes[index] = UInt8(ascii: "Z")
        index += 1
        return true
    }

    /// The date's day since 1970-01-01, second of that day and microseconds, in UTC; a date beyond any calendar (not
    /// a number, or millions of years away) is taken as the nearest one written.
    private static func split(_ date: Date) -> (days: Int, secondOfDay: Int, micros: Int) {
        let raw = date.timeIntervalSince1970
        let interval = raw.isNaN ? 0 : min(max(raw, -9e15), 9e15)
        var whole = interval.rounded(.down)
        var micros = Int(((interval - whole) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            whole += 1
            micros -= 1_000_000
        }
        let total = Int(whole)
        let days = Int((Double(total) / 86_400).rounded(.down))
        return (days, total - days * 86_400, micros)
    }

    /// Writes `yyyy-MM-ddTHH:mm:ss` (19 bytes) at `index`, which moves past it: the one writer of a date and time
    /// as text (RFC 3339 here, the digest's local times), for a year from 0 to 9999.
    @inline(__always)
    static func writeDateTime(
        year: Int,
        month: Int,
        day: Int,
        secondOfDay: Int,
        into bytes: UnsafeMutableBufferPointer<UInt8>,
        at index: inout Int
    ) {
        writeDate(year: year, month: month, day: day, into: bytes, at: &index)
        bytes[index] = UInt8(ascii: "T")
        index += 1
        writeTime(hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60, into: bytes, at: &index)
        bytes[index] = UInt8(ascii: ":")
        index += 1
        writeDigits(secondOfDay % 60, width: 2, into: bytes, at: &index)
    }

    /// Writes `yyyy-MM-dd` (10 bytes) at `index`, which moves past it.
    @inline(__always)
    static func writeDate(
        year: Int,
        month: Int,
        day: Int,
        into bytes: UnsafeMutableBufferPointer<UInt8>,
        at index: inout Int
    ) {
        writeDigits(year, width: 4, into: bytes, at: &index)
        bytes[index] = UInt8(ascii: "-")
        index += 1
        writeDigits(month, width: 2, into: bytes, at: &index)
        bytes[index] = UInt8(ascii: "-")
        index += 1
        writeDigits(day, width: 2, into: bytes, at: &index)
    }

    /// Writes `HH:mm` (5 bytes) at `index`, which moves past it.
    @inline(__always)
    static func writeTime(hour: Int, minute: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
        writeDigits(hour, width: 2, into: bytes, at: &index)
        bytes[index] = UInt8(ascii: ":")
        index += 1
        writeDigits(minute, width: 2, into: bytes, at: &index)
    }

    /// Writes `value` (0 up to 10^width - 1) with leading zeros, `width` 2 or 4, at `index`, which moves past it.
    @inline(__always)
    static func writeDigits(
        _ value: Int,
        width: Int,
        into bytes: UnsafeMutableBufferPointer<UInt8>,
        at index: inout Int
    ) {
        // Constant divisors compile to multiplications.
        if width == 4 {
            bytes[index] = UInt8(0x30 + value / 1000 % 10)
            bytes[index + 1] = UInt8(0x30 + value / 100 % 10)
            index += 2
        }
        bytes[index] = UInt8(0x30 + value / 10 % 10)
        bytes[index + 1] = UInt8(0x30 + value % 10)
        index += 2
    }

    /// ``format(_:)`` for a year outside 0 to 9999 (a feed's nonsense), written with as many digits as it has.
    private static func formatWithSigns(_ date: Date) -> String {
        let (days, secondOfDay, micros) = split(date)
        let (year, month, day) = civilFromDays(days)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var result = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
        result += "T" + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay % 3600 / 60, 2)
        result += ":" + padded(secondOfDay % 60, 2)
        if micros > 0 {
            var digits = padded(micros, 6)
            while digits.last == "0" { digits.removeLast() }
            result += "." + digits
        }
        return result + "Z"
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month of the proleptic Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

}
