import Foundation
import Testing
import TributaryCore

@testable import FeedParser

/// Undeclared Japanese encodings and bytes that are not valid in a document read as UTF-8.
@Suite struct EncodingRepairTests {
    /// A fixture with its XML declaration removed, so nothing names the encoding.
    private func undeclared(_ fixture: String) throws -> [UInt8] {
        let bytes = try FixtureSupport.bytes(fixture)
        let end = try #require(bytes.firstIndex(of: 0x3E))  // the declaration's '>'
        return Array(bytes[(end + 1)...])
    }

    @Test(arguments: [("encoding-shift-jis.xml", "Shift_JIS"), ("encoding-euc-jp.xml", "EUC-JP")])
    func undeclaredJapaneseIsDetected(_ fixture: String, _ encoding: String) throws {
        let bytes = try undeclared(fixture)
        let result = try FixtureSupport.parse(bytes)
        #expect(result.metadata?.title == EncodingTests.japanese.0)
        #expect(result.items.map(\.title) == [EncodingTests.japanese.1])
        #expect(result.warnings.contains { $0.message.contains("read as \(encoding)") })
        // Detection looks at the first KiB only, so where the chunks are cut does not matter.
        for position in stride(from: 1, to: bytes.count, by: 7) {
            #expect(try FixtureSupport.parse(bytes, splitAt: [position]).items == result.items)
        }
    }

    @Test func detectionTellsShiftJISFromEUCJPAndGivesUpOnOtherBytes() {
        // "にほんご" in each encoding.
        let shiftJIS: [UInt8] = [0x82, 0xC9, 0x82, 0xD9, 0x82, 0xF1, 0x82, 0xB2]
        let eucJP: [UInt8] = [0xA4, 0xCB, 0xA4, 0xDB, 0xA4, 0xF3, 0xA4, 0xB4]
        #expect(EncodingSniffer.detectJapanese(shiftJIS[...]) == "Shift_JIS")
        #expect(EncodingSniffer.detectJapanese(eucJP[...]) == "EUC-JP")
        #expect(EncodingSniffer.detectJapanese([0x41, 0xFF, 0xFE, 0x42][...]) == nil)
        // Valid UTF-8 is never sent to detection.
        #expect(EncodingSniffer.undeclaredJapanese(Array("<rss>日本語</rss>".utf8)) == nil)
    }

    @Test func anInvalidByteInCDATADoesNotEndTheParse() throws {
        // U+2019, then a lone 0xA9, inside CDATA; then a second item that must not be lost.
        var bytes = Array(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>T</title>".utf8
        )
        bytes += Array("<item><title>one</title><description><![CDATA[ \u{2019} ".utf8) + [0xA9]
        bytes += Array(" ]]></description></item><item><title>two</title></item></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes)
        #expect(result.items.map(\.title) == ["one", "two"])
        #expect(result.items.first?.contentHTML == " \u{2019} \u{FFFD} ")
        #expect(result.warnings.contains { $0.message.contains("replaced by U+FFFD") })
        for position in 1..<bytes.count {
            #expect(try FixtureSupport.parse(bytes, splitAt: [position]).items == result.items)
        }
    }

    @Test func aMislabelledWindows1252DocumentIsReadAsWindows1252() throws {
        var bytes = Array(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>T</title>".utf8
        )
        bytes += Array("<item><title>it".utf8) + [0x92] + Array("s \u{80}5</title></item></channel></rss>".utf8)
        // U+0080 is written as C2 80 above; as windows-1252 those are 'Â' and '€'.
        let result = try FixtureSupport.parse(bytes)
        #expect(result.items.map(\.title) == ["it\u{2019}s \u{C2}\u{20AC}5"])
        #expect(result.warnings.contains { $0.message.contains("windows-1252") })
        for position in 1..<bytes.count {
            #expect(try FixtureSupport.parse(bytes, splitAt: [position]).items == result.items)
        }
    }

    @Test func theSanitizerGivesTheSameBytesAtEveryChunkBoundary() {
        let valid = Array("a é 日 😀 z".utf8)
        // It starts with a real "é": after real UTF-8, bad bytes become U+FFFD (not a switch to windows-1252).
        let broken: [UInt8] = [
            0xC3, 0xA9, 0xE2, 0x82, 0x41, 0xF0, 0x9F, 0x98, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xF0, 0x9F,
        ]
        // Maximal subparts (WHATWG): E2 82 | F0 9F 98 | ED | A0 | 80 | F0 9F (cut off by the end).
        let brokenExpected = Array("é\u{FFFD}A\u{FFFD}é\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}".utf8)
        for (input, expected) in [(valid, valid), (broken, brokenExpected)] {
            for first in 0...input.count {
                for second in first...input.count {
                    var sanitizer = UTF8Sanitizer()
                    var output: [UInt8] = []
                    for range in [0..<first, first..<second, second..<input.count] {
                        Array(input[range]).withUnsafeBytes { sanitizer.process($0) { output += $0 } }
                    }
                    sanitizer.finish { output += $0 }
                    #expect(output == expected, "cut at \(first) and \(second)")
                }
            }
        }
    }
}
