import Foundation
import Testing

@testable import FeedParser

/// The transcoder that reads legacy encodings before libxml2 (``LegacyTranscoder``), in chunks of every size.
@Suite struct LegacyTranscoderTests {
    private func transcode(_ bytes: [UInt8], encoding: String, chunk: Int) throws -> (String, Int) {
        let transcoder = try #require(LegacyTranscoder(encoding: encoding))
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            transcoder.process(bytes[start..<end]) { output.append(contentsOf: $0) }
            start = end
        }
        transcoder.finish { output.append(contentsOf: $0) }
        return (String(decoding: output, as: UTF8.self), transcoder.replacedBytes)
    }

    /// A multi-byte sequence cut by the end of a chunk is read with the next; a byte the encoding never uses becomes
    /// U+FFFD and the text after it is read; a sequence cut off by the end of the document is U+FFFD too.
    @Test(arguments: [1, 2, 3, 7, 4096])
    func multiByteEncodingsAreReadAcrossChunksAndPastBadBytes(_ chunk: Int) throws {
        let text = "東京で初雪 <b>ソース</b>"
        // The text in EUC-JP and in Shift_JIS (Foundation on Linux writes neither).
        let eucJP: [UInt8] = [
            0xC5, 0xEC, 0xB5, 0xFE, 0xA4, 0xC7, 0xBD, 0xE9, 0xC0, 0xE3, 0x20, 0x3C, 0x62, 0x3E, 0xA5, 0xBD, 0xA1, 0xBC,
            0xA5, 0xB9, 0x3C, 0x2F, 0x62, 0x3E,
        ]
        let shiftJIS: [UInt8] = [
            0x93, 0x8C, 0x8B, 0x9E, 0x82, 0xC5, 0x8F, 0x89, 0x90, 0xE1, 0x20, 0x3C, 0x62, 0x3E, 0x83, 0x5C, 0x81, 0x5B,
            0x83, 0x58, 0x3C, 0x2F, 0x62, 0x3E,
        ]
        var bytes = eucJP + [0xFF, 0xFF] + eucJP
        #expect(try transcode(bytes, encoding: "EUC-JP", chunk: chunk) == (text + "\u{FFFD}\u{FFFD}" + text, 2))
        bytes.append(0xA4)  // the first byte of a kana, and then the end
        #expect(try transcode(bytes, encoding: "EUC-JP", chunk: chunk).1 == 3)
        #expect(try transcode(shiftJIS, encoding: "Shift_JIS", chunk: chunk) == (text, 0))
    }

    /// windows-1252's five empty positions are the C1 controls of the WHATWG standard, not losses; another
    /// single-byte encoding's empty position is U+FFFD; EBCDIC's ASCII range is not ASCII.
    @Test func singleByteEncodingsAreReadThroughATable() throws {
        #expect(
            try transcode(
                [0x43, 0x61, 0x66, 0xE9, 0x20, 0x93, 0x81, 0x9D, 0x94, 0x80],
                encoding: "windows-1252",
                chunk: 3
            )
                == ("Café “\u{81}\u{9D}”€", 0)
        )
        // ISO-8859-3 leaves 0xA5 empty.
        #expect(try transcode([0x61, 0xA5, 0x62], encoding: "ISO-8859-3", chunk: 1) == ("a\u{FFFD}b", 1))
        // Vietnamese CP1258 holds a letter until it knows whether a diacritic follows: a (0x61) with a combining
        // acute (0xEC) is á, and the last letter comes out at the end.
        #expect(try transcode([0x80, 0x61, 0xEC, 0x20, 0x62], encoding: "CP1258", chunk: 1) == ("€á b", 0))
        // "Hi" in IBM037.
        #expect(try transcode([0xC8, 0x89], encoding: "IBM037", chunk: 1) == ("Hi", 0))
    }

    @Test func wideAndStatefulEncodingsAreNotForIt() {
        for encoding in ["UTF-8", "UTF-16LE", "UTF-32", "ISO-2022-JP", "no-such-encoding"] {
            #expect(LegacyTranscoder(encoding: encoding) == nil, "\(encoding)")
        }
    }
}
