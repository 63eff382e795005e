import Foundation
import Testing
import TributaryCore

@testable import FeedParser

@Suite struct FeedDateTests {
    @Test(arguments: [
        // RFC 822 / 1123 / 2822 and real-world variants.
        ("Sun, 22 Nov 2026 05:41:40 GMT", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 05:41:40 +0000", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 14:41:40 +0900", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 14:41:40 +09:00", "2026-11-22T05:41:40Z"),
        ("Sat, 21 Nov 2026 23:41:40 -0600", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 14:41:40 JST", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 00:41:40 EST", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 01:41:40 EDT", "2026-11-22T05:41:40Z"),
        ("Sat, 21 Nov 2026 23:41:40 CST", "2026-11-22T05:41:40Z"),
        ("Sat, 21 Nov 2026 22:41:40 MST", "2026-11-22T05:41:40Z"),
        ("Sat, 21 Nov 2026 21:41:40 PST", "2026-11-22T05:41:40Z"),
        ("Sat, 21 Nov 2026 22:41:40 PDT", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 06:41:40 CET", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 05:41:40 UT", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 05:41:40 Z", "2026-11-22T05:41:40Z"),
        ("Sun, 22 Nov 2026 04:41:40 A", "2026-11-22T05:41:40Z"),  // RFC 822 military: A is -1 hour
        ("Sun, 22 Nov 2026 06:41:40 N", "2026-11-22T05:41:40Z"),  // N is +1 hour
        ("Sun, 22 Nov 2026 05:41 GMT", "2026-11-22T05:41:00Z"),  // no seconds
        ("Sun, 22 Nov 26 05:41:40 GMT", "2026-11-22T05:41:40Z"),  // two-digit year
        ("Mon, 22 Nov 99 05:41:40 GMT", "1999-11-22T05:41:40Z"),
        ("22 Nov 2026 05:41:40 GMT", "2026-11-22T05:41:40Z"),  // no day name
        ("Dim, 22 Nov 2026 05:41:40 GMT", "2026-11-22T05:41:40Z"),  // French day name
        ("日, 22 Nov 2026 05:41:40 GMT", "2026-11-22T05:41:40Z"),  // Japanese day name
        ("Thu, 22 Nov 2026 05:41:40 GMT", "2026-11-22T05:41:40Z"),  // wrong day name
        ("  Sun,  22   Nov  2026   05:41:40   GMT  ", "2026-11-22T05:41:40Z"),  // extra whitespace
        ("Sunday, 22-Nov-26 05:41:40 GMT", "2026-11-22T05:41:40Z"),  // RFC 850
        ("Sun Nov 22 05:41:40 2026", "2026-11-22T05:41:40Z"),  // asctime
        ("Sun, 22 NOV 2026 05:41:40 gmt", "2026-11-22T05:41:40Z"),
        ("22 November 2026", "2026-11-22T00:00:00Z"),
        ("Sun, 22 Nov 2026 05:41:40", "2026-11-22T05:41:40Z"),  // no zone: UTC
        // RFC 3339 / W3C-DTF.
        ("2026-11-22T05:41:40Z", "2026-11-22T05:41:40Z"),
        ("2026-11-22T14:41:40+09:00", "2026-11-22T05:41:40Z"),
        ("2026-11-22T14:41:40.5+09:00", "2026-11-22T05:41:40.5Z"),
        ("2026-11-22t05:41:40z", "2026-11-22T05:41:40Z"),
        ("2026-11-22T05:41Z", "2026-11-22T05:41:00Z"),
        ("2026-11-22T14:41:40+0900", "2026-11-22T05:41:40Z"),
        ("2026-11-22", "2026-11-22T00:00:00Z"),
        ("2026-11", "2026-11-01T00:00:00Z"),
        ("2026", "2026-01-01T00:00:00Z"),
        // Sloppy forms.
        ("2026-11-22 05:41:40", "2026-11-22T05:41:40Z"),
        ("2026/11/22", "2026-11-22T00:00:00Z"),
        ("2026/11/22 05:41", "2026-11-22T05:41:00Z"),
        ("2026-11-22 14:41:40 +0900", "2026-11-22T05:41:40Z"),
        ("2026-11-22T05:41:40 GMT", "2026-11-22T05:41:40Z"),
    ])
    func parses(_ input: String, _ expected: String) throws {
        let date = try #require(FeedDate.parse(input), "could not parse \(input)")
        #expect(RFC3339.format(date) == expected)
    }

    @Test(
        arguments: [
            // The zones feedparser's RFC 822 handler knows beyond ours, Disney's among them.
            ("Mon, 26 January 2004 16:31:00 AT", "2004-01-26T20:31:00Z"),
            ("Mon, 26 January 2004 16:31:00 ET", "2004-01-26T21:31:00Z"),
            ("Mon, 26 January 2004 16:31:00 CT", "2004-01-26T22:31:00Z"),
            ("Mon, 26 January 2004 16:31:00 MT", "2004-01-26T23:31:00Z"),
            ("Mon, 26 January 2004 16:31:00 PT", "2004-01-27T00:31:00Z"),
            ("2004-07-08 23:56:58 ET", "2004-07-09T04:56:58Z"),
            // Years 1-9999 only, once the zone is applied.
            ("Sun, 31 Dec 9999 23:59:59 -9999", nil), ("Sun, 31 Dec 9999 23:59:59 -0100", nil),
            ("Sun, 31 Dec 9999 23:59:59 +0100", "9999-12-31T22:59:59Z"), ("9999-12-31T23:59:59-01:00", nil),
            ("0000-01-01", nil), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"), ("0001-01-01T00:00:00+01:00", nil),
            ("Thu, 01 Jan 0100 00:00:01 +0100", "0099-12-31T23:00:01Z"),
            // A colon after the zone's hours must be followed by its minutes.
            ("Sun, 16 Dec 2012 11:47:32 +00:zz", nil), ("Sun, 22 Nov 2026 05:41:40 +00:", nil),
        ] as [(String, String?)]
    )
    func readsFeedparserFamilies(_ input: String, _ expected: String?) {
        #expect(FeedDate.parse(input).map(RFC3339.format) == expected)
    }

    @Test(arguments: [
        "", "   ", "sometime last week", "yesterday", "Sun, 32 Nov 2026 05:41:40 GMT", "2026-13-01", "2026-02-30",
        "Sun, 22 Foo 2026 05:41:40 GMT", "25:00", "2026-11-22T25:00:00Z", "Sun, 22 Nov 2026 99:41:40 GMT",
        "2026-11-22T05:41:40+99:00", String(repeating: "9", count: 500), "\u{0}\u{1}\u{2}", "2026-11-22Tfoo",
        "Sun, 29 Feb 2026 05:41:40 GMT",
    ])
    func unparseableDatesAreNil(_ input: String) {
        #expect(FeedDate.parse(input) == nil)
    }

    @Test func neverCrashesOnRandomInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789 :-+/TZ,.GMTESTNovJanSun".utf8) + [0xE6, 0x97, 0xA5]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0x20 }
            _ = bytes.withUnsafeBufferPointer { FeedDate.parse(bytes: $0) }
        }
    }
}
