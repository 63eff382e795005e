import Foundation
import Testing
import TributaryCore

@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2026-11-22T05:41:40Z", 1_795_326_100.0),
        ("2026-11-22T14:41:40+09:00", 1_795_326_100.0),
        ("2026-11-21T23:41:40-06:00", 1_795_326_100.0),
        ("2026-11-22t05:41:40z", 1_795_326_100.0),
        ("2026-11-22 05:41:40Z", 1_795_326_100.0),
        ("2026-11-22T05:41:40.5Z", 1_795_326_100.5),
        ("  2026-11-22T05:41:40Z\n", 1_795_326_100.0),
        ("2026-11-22", 1_795_305_600.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2024-02-29T12:00:00Z", 1_709_208_000.0),
        ("2026-11-22T05:41Z", 1_795_326_060.0),
        ("2026-11-22T02:11:40-0330", 1_795_326_100.0),
        ("2026-11-22T05:41:40,25Z", 1_795_326_100.25),
        ("2026-11-22T05:41:60Z", 1_795_326_119.0),
    ])
    func parsesValidTimestamps(text: String, seconds: Double) {
        #expect(RFC3339.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        "", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
        "2026-11-22T25:00:00Z", "2026-11-22T05:41:40", "2026-11-22T05:41:40Zjunk", "2026-11-22T05:41:40.Z",
        "Sun, 22 Nov 2026 05:41:40 GMT", "2026-11-22T05:41:40+", "2026-11-22T05:41:40+24:00", "2026-11-22X05:41:40Z",
        "2026-11-22T05:41:61Z", "2026-11-2", "2026-11-22T", "2026-11-22T05:4Z",
    ])
    func rejectsInvalidTimestamps(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func formatsInUTCWithMinimalFraction() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_795_326_100)) == "2026-11-22T05:41:40Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_795_326_100.25)) == "2026-11-22T05:41:40.25Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0.000005)) == "1970-01-01T00:00:00.000005Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 59.9)) == "1970-01-01T00:00:59.9Z")
        // Years past 9999 (a feed's nonsense) keep every digit.
        #expect(RFC3339.format(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00Z")
    }

    @Test func formattingThenParsingGivesTheSameDate() {
        // One expectation over the whole sweep: an #expect per value costs seconds and starves the other tests.
        var mismatches: [String] = []
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000.0, by: 86_399.123457) {
            let date = Date(timeIntervalSince1970: seconds)
            let once = RFC3339.parse(RFC3339.format(date))
            if once.map(RFC3339.format) != RFC3339.format(date) { mismatches.append(RFC3339.format(date)) }
        }
        #expect(mismatches == [])
    }

    @Test func civilDateConversionAgreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var mismatches: [Int] = []
        // Foundation's Gregorian calendar switches to the Julian one before October 1582; ours is proleptic, so
        // compare from 1600 on.
        for day in stride(from: -135_140, through: 800_000, by: 997) {
            let (year, month, dayOfMonth) = RFC3339.civilFromDays(day)
            let components = calendar.dateComponents(
                [.year, .month, .day],
                from: Date(timeIntervalSince1970: Double(day) * 86_400)
            )
            if components.year != year || components.month != month || components.day != dayOfMonth
                || RFC3339.daysFromCivil(year: year, month: month, day: dayOfMonth) != day
            {
                mismatches.append(day)
            }
        }
        #expect(mismatches == [])
    }
}
