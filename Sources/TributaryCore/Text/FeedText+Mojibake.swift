import Foundation

/// Two repairs feedparser makes to every text field, for feeds that mix up encodings on the way out.
extension FeedText {
    /// The characters windows-1252 puts in 0x80-0x9F, where ISO-8859-1 (and so Unicode) has C1 controls. A feed
    /// that writes `&#146;` or the byte 0x92 in UTF-8 clothing means `’`, never the control character. The five
    /// positions windows-1252 leaves empty map to themselves.
    public static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// The windows-1252 character for the C1 control `scalar` (U+0080-U+009F), or `nil` for the five it leaves
    /// empty and for any other scalar.
    public static func windows1252Character(forC1 scalar: UInt32) -> UInt32? {
        guard (0x80...0x9F).contains(scalar) else { return nil }
        let mapped = windows1252[Int(scalar - 0x80)]
        return mapped == scalar ? nil : mapped
    }

    /// `bytes` (valid UTF-8) repaired, or `nil` when there is nothing to repair:
    ///
    /// - **Double encoding**: text whose every character is in U+0080-U+00FF or ASCII and whose Latin-1 bytes are
    ///   UTF-8 with a multi-byte sequence was UTF-8 read as Latin-1 on its way into the feed (`BrÃ¸ndby`,
    ///   `&#226;&#128;&#166;`): it becomes what those bytes say (`Brøndby`, `…`). Real text in Latin-1 never forms
    ///   UTF-8 that way (a letter such as `é` is followed by ASCII, not by two continuation bytes).
    /// - **C1 controls** U+0080-U+009F become the windows-1252 characters they stand for (`don’t`, `€`), as HTML
    ///   does for character references; the five positions windows-1252 leaves empty stay as they are.
    ///
    /// Text without a character in U+0080-U+00FF is answered by two `memchr` calls.
    public static func repairedEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Both repairs need a character in U+0080-U+00FF, whose UTF-8 starts with 0xC2 or 0xC3: most text has
        // none, and memchr finds that out at memory speed.
        guard let base = bytes.baseAddress,
            memchr(base, 0xC3, bytes.count) != nil || memchr(base, 0xC2, bytes.count) != nil
        else { return nil }
        var onlyLatin1 = true
        var sawNonASCII = false
        var sawC1 = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            sawNonASCII = true
            if byte == 0xC2 {
                // A lone 0xC2 before an ASCII byte (text cut inside a sequence) is no C1 control.
                if index + 1 < bytes.count, windows1252Character(forC1: UInt32(bytes[index + 1])) != nil {
                    sawC1 = true
                }
            } else if byte != 0xC3 {
                onlyLatin1 = false
                if sawC1 { break }
            }
            index += byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        }
        guard sawNonASCII else { return nil }
        // As feedparser, the text is judged without the white space at its ends (Python's `strip`, which takes a
        // no-break space too): `airportÂ` followed by a no-break space is not a doubly encoded no-break space.
        let middle = withoutOuterSpace(bytes)
        if onlyLatin1, let undone = undoubled(UnsafeBufferPointer(rebasing: bytes[middle])), undone.count < middle.count
        {
            let whole = Array(bytes[..<middle.lowerBound]) + undone + Array(bytes[middle.upperBound...])
            return whole.withUnsafeBufferPointer { repairedEncoding($0) } ?? whole
        }
        guard sawC1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0xC2, index + 1 < bytes.count, (0x80..<0xA0).contains(bytes[index + 1]) {
                appendUTF8(windows1252[Int(bytes[index + 1] - 0x80)], to: &output)
                index += 2
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The range of `bytes` without the white space Python's `str.strip` removes at either end that is ASCII,
    /// U+0085 or U+00A0 (the rest of it is outside Latin-1, and text holding it is never undone).
    private static func withoutOuterSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { (0x09...0x0D).contains(byte) || (0x1C...0x20).contains(byte) }
        func isLatin1Space(_ second: UInt8) -> Bool { second == 0x85 || second == 0xA0 }
        var start = 0
        var end = bytes.count
        while start < end {
            if isSpace(bytes[start]) {
                start += 1
            } else if bytes[start] == 0xC2, start + 1 < end, isLatin1Space(bytes[start + 1]) {
                start += 2
            } else {
                break
            }
        }
        while end > start {
            if isSpace(bytes[end - 1]) {
                end -= 1
            } else if end - 2 >= start, bytes[end - 2] == 0xC2, isLatin1Space(bytes[end - 1]) {
                end -= 2
            } else {
                break
            }
        }
        return start..<end
    }

    /// The Latin-1 bytes of `bytes` (all its characters below U+0100) when they are valid UTF-8, else `nil`.
    private static func undoubled(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var latin1: [UInt8] = []
        latin1.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                latin1.append(byte)
                index += 1
            } else {
                guard index + 1 < bytes.count else { return nil }
                latin1.append((byte & 0x03) << 6 | bytes[index + 1] & 0x3F)
                index += 2
            }
        }
        guard String(validating: latin1, as: UTF8.self) != nil else { return nil }
        return latin1
    }
}

extension FeedText {
    /// Whether `scalar` is a control that must not reach a title in any output: a bidirectional embedding,
    /// override or isolate (U+202A-U+202E, U+2066-U+2069), which can make a title read backwards or spill its
    /// direction into the text around it (`‮gpj.exe`). The marks U+200E and U+200F stay.
    ///
    /// C1 controls (U+0080-U+009F) are not among them: the ones windows-1252 fills are read as its characters
    /// where text is read (``repairedEncoding(_:)``), and the five it leaves empty stay as the feed wrote them, as
    /// feedparser and HTML5 keep them (`â€\u{9D}` is what a doubly encoded `”` leaves). Every output removes or
    /// escapes them for itself: the terminal and Markdown renderers (`ControlCharacters`), the HTML renderer's
    /// escaping, and JSON as `\u009d`.
    public static func isFormatControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` without the controls ``isFormatControl(_:)`` names; the same string when it has none (one `memchr`
    /// call for their lead byte 0xE2 decides that for most text).
    public static func withoutFormatControls(_ text: String) -> String {
        var text = text
        let mayHold = text.withUTF8 { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0xE2, bytes.count) != nil
        }
        guard mayHold, text.unicodeScalars.contains(where: isFormatControl) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter { !isFormatControl($0) })
        return String(scalars)
    }
}
