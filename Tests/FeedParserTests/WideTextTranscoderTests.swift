import Testing

@testable import FeedParser

/// UTF-16 and UTF-32 turned into UTF-8 in pieces: the same text whatever the split, surrogate pairs joined across
/// chunks, broken units replaced.
@Suite struct WideTextTranscoderTests {
    private func transcode(_ bytes: [UInt8], _ form: WideTextTranscoder.Form, pieceSize: Int) -> String {
        var transcoder = WideTextTranscoder(form: form)
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            transcoder.process(bytes[start..<min(bytes.count, start + pieceSize)]) { output += $0 }
            start += pieceSize
        }
        transcoder.finish { output += $0 }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func everyFormGivesTheSameTextAtEverySplit() {
        let text = "<a>é – 二 😀</a>"
        let utf16 = Array(text.utf16)
        let utf32 = text.unicodeScalars.map(\.value)
        let forms: [(WideTextTranscoder.Form, [UInt8])] = [
            (.utf16LE, utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            (.utf16BE, utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            (.utf32LE, utf32.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 >> 16 & 0xFF), 0] }),
            (.utf32BE, utf32.flatMap { [0, UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }),
        ]
        for (form, bytes) in forms {
            for pieceSize in 1...5 {
                #expect(transcode(bytes, form, pieceSize: pieceSize) == text, "\(form) in pieces of \(pieceSize)")
            }
        }
    }

    @Test func brokenUnitsBecomeReplacementCharacters() {
        // A lone low surrogate, a high surrogate followed by a letter, a value beyond U+10FFFF, a cut unit.
        #expect(transcode([0x00, 0xDC, 0x41, 0x00], .utf16LE, pieceSize: 1) == "\u{FFFD}A")
        #expect(transcode([0x3D, 0xD8, 0x41, 0x00], .utf16LE, pieceSize: 3) == "\u{FFFD}A")
        #expect(transcode([0x00, 0x00, 0x11, 0x00, 0x41, 0, 0, 0], .utf32LE, pieceSize: 2) == "\u{FFFD}A")
        #expect(transcode([0x41, 0x00, 0x42], .utf16LE, pieceSize: 2) == "A\u{FFFD}")
    }

    @Test func theFormComesFromTheByteOrderMarkOrTheName() {
        #expect(WideTextTranscoder.Form(encoding: nil, prefix: [0xFF, 0xFE, 0x3C, 0]) == .utf16LE)
        #expect(WideTextTranscoder.Form(encoding: nil, prefix: [0xFF, 0xFE, 0, 0]) == .utf32LE)
        #expect(WideTextTranscoder.Form(encoding: "UTF-16", prefix: [0x3C, 0, 0x3F, 0]) == .utf16LE)
        #expect(WideTextTranscoder.Form(encoding: "utf_16be", prefix: [0, 0x3C]) == .utf16BE)
        #expect(WideTextTranscoder.Form(encoding: "UTF-32", prefix: [0, 0, 0, 0x3C]) == .utf32BE)
        #expect(WideTextTranscoder.Form(encoding: "UTF-8", prefix: [0x3C]) == nil)
    }
}
