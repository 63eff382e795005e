import Foundation

/// Turns a document in a legacy encoding (windows-1252, ISO-8859-2, KOI8-R, Shift_JIS, EUC-JP, GB18030, Big5,
/// EUC-KR, EBCDIC...) into UTF-8 as its bytes stream in, before the byte-level guards and libxml2 see it.
///
/// libxml2 stops at the first byte its decoder refuses and keeps nothing after it: a feed stated as ISO-8859-1 with
/// one 0x9D (the end of a doubly encoded `”`) lost every item, silently. Here a byte that is not the encoding becomes
/// U+FFFD and the rest is read; ``replacedBytes`` counts them for the warning. EBCDIC needs this too: the guards look
/// for `<` as 0x3C, which EBCDIC spells 0x4C.
///
/// A single-byte encoding is read through a table asked of iconv once, byte by byte; windows-1252 leaves five
/// positions empty, which are read as the C1 controls they are in the WHATWG Encoding standard (browsers' reading),
/// so that nothing is lost. A multi-byte encoding is read through iconv itself, a sequence cut by the end of a chunk
/// carried to the next. Stateful encodings (ISO-2022) are not for this type: a byte lost there would change the
/// meaning of everything after it.
final class LegacyTranscoder {
    private enum Form {
        /// The UTF-8 of each byte value; `asciiKept` when bytes below 0x80 are ASCII (all but EBCDIC).
        case table([[UInt8]], asciiKept: Bool)
        /// iconv, for encodings of several bytes per character.
        case stream(iconv_t)
    }

    private let form: Form
    /// Whether the encoding is Microsoft's Japanese one (Windows-31J, EUC-JP-MS), read for Shift_JIS and EUC-JP for
    /// the NEC and IBM characters they add (``EncodingSniffer/browserSuperset(of:)``): the six characters it maps
    /// elsewhere than JIS are given back their JIS mapping (``jisCharacters``).
    private let restoresJISMapping: Bool
    /// The start of a multi-byte sequence cut off by the end of the last chunk.
    private var carry: [UInt8] = []
    /// How many bytes were not text in the encoding and became U+FFFD.
    private(set) var replacedBytes = 0

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The transcoder for `encoding`, or `nil` when iconv does not know it, it is UTF-8, UTF-16 or UTF-32, or it is
    /// stateful.
    init?(encoding: String) {
        let compact = encoding.lowercased().filter { $0.isLetter || $0.isNumber }
        guard !compact.hasPrefix("utf"), !compact.hasPrefix("ucs"), !compact.contains("2022") else { return nil }
        restoresJISMapping = compact == "windows31j" || compact == "eucjpms" || compact == "cp932"
        let descriptor = iconv_open("UTF-8", encoding)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
        var table: [[UInt8]] = []
        table.reserveCapacity(256)
        var multiByte = false
        for value in 0...255 {
            var input: [CChar] = [CChar(bitPattern: UInt8(value))]
            var output = [CChar](repeating: 0, count: 8)
            let converted: Int = input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    var inPointer = inputBuffer.baseAddress
                    var inLeft = 1
                    var outPointer = outputBuffer.baseAddress
                    var outLeft = 8
                    iconv(descriptor, nil, nil, nil, nil)  // back to the initial state
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    // A lead byte alone is a cut sequence; a byte read but not yet written is held to be combined
                    // with what follows (Vietnamese CP1258 and TCVN hold a letter for its diacritic).
                    if result == -1 ? errno == EINVAL : inLeft == 0 && outLeft == 8 { multiByte = true }
                    return result == -1 || inLeft != 0 ? -1 : 8 - outLeft
                }
            }
            if converted > 0 {
                table.append(output.prefix(converted).map { UInt8(bitPattern: $0) })
            } else if EncodingSniffer.isWindows1252Label(encoding), (0x80...0x9F).contains(value) {
                table.append([0xC2, UInt8(value)])  // WHATWG: the empty positions are the C1 controls
            } else {
                table.append(Self.replacement)
            }
        }
        if multiByte {
            iconv(descriptor, nil, nil, nil, nil)
            form = .stream(descriptor)
        } else {
            iconv_close(descriptor)
            // An encoding that reads no byte alone is not one this type knows how to read.
            guard table.contains(where: { $0 != Self.replacement }) else { return nil }
            form = .table(table, asciiKept: (0..<0x80).allSatisfy { table[$0] == [UInt8($0)] })
        }
    }

    deinit {
        if case .stream(let descriptor) = form { iconv_close(descriptor) }
    }

    /// Transcodes the next bytes and hands their UTF-8 to `body`.
    func process<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var output: [UInt8] = []
        switch form {
        case .table(let table, let asciiKept):
            output.reserveCapacity(bytes.count + bytes.count / 2)
            for byte in bytes {
                if byte < 0x80, asciiKept {
                    output.append(byte)
                } else {
                    let utf8 = table[Int(byte)]
                    if utf8 == Self.replacement { replacedBytes += 1 }
                    output.append(contentsOf: utf8)
                }
            }
        case .stream(let descriptor):
            var input = carry
            carry.removeAll()
            input.append(contentsOf: bytes)
            convert(input, with: descriptor, into: &output)
            if restoresJISMapping { Self.restoreJISMapping(&output) }
        }
        try output.withUnsafeBytes(body)
    }

    /// Microsoft's mapping of six JIS X 0208 characters, as UTF-8, and JIS's, which Shift_JIS and EUC-JP decoders
    /// give (Python's, iconv's strict ones, browsers' for the wave dash): `18:15〜18:30` keeps its wave dash U+301C
    /// rather than becoming a fullwidth tilde U+FF5E.
    private static let jisCharacters: [(microsoft: [UInt8], jis: [UInt8])] = [
        ([0xEF, 0xBD, 0x9E], [0xE3, 0x80, 0x9C]),  // U+FF5E fullwidth tilde: U+301C wave dash
        ([0xE2, 0x88, 0xA5], [0xE2, 0x80, 0x96]),  // U+2225 parallel to: U+2016 double vertical line
        ([0xEF, 0xBC, 0x8D], [0xE2, 0x88, 0x92]),  // U+FF0D fullwidth hyphen-minus: U+2212 minus sign
        ([0xEF, 0xBF, 0xA0], [0xC2, 0xA2]),  // U+FFE0: U+00A2 cent sign
        ([0xEF, 0xBF, 0xA1], [0xC2, 0xA3]),  // U+FFE1: U+00A3 pound sign
        ([0xEF, 0xBF, 0xA2], [0xC2, 0xAC]),  // U+FFE2: U+00AC not sign
    ]

    /// Gives the characters of ``jisCharacters`` in `utf8` their JIS mapping.
    private static func restoreJISMapping(_ utf8: inout [UInt8]) {
        guard utf8.contains(where: { $0 == 0xEF || $0 == 0xE2 }) else { return }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == 0xEF || utf8[index] == 0xE2, index + 2 < utf8.count,
                let pair = jisCharacters.first(where: { utf8[index..<(index + 3)].elementsEqual($0.microsoft) })
            {
                result.append(contentsOf: pair.jis)
                index += 3
            } else {
                result.append(utf8[index])
                index += 1
            }
        }
        utf8 = result
    }

    /// Hands over what the end of the document leaves: a character iconv holds, and U+FFFD for a multi-byte
    /// sequence cut off.
    func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard case .stream(let descriptor) = form else { return }
        var output: [UInt8] = []
        if !carry.isEmpty {
            replacedBytes += carry.count
            carry.removeAll()
            output = Self.replacement
        }
        var held = [CChar](repeating: 0, count: 32)
        let written = held.withUnsafeMutableBufferPointer { buffer in
            var outPointer = buffer.baseAddress
            var outLeft = buffer.count
            _ = iconv(descriptor, nil, nil, &outPointer, &outLeft)
            return buffer.count - outLeft
        }
        output.append(contentsOf: held.prefix(written).map { UInt8(bitPattern: $0) })
        guard !output.isEmpty else { return }
        try output.withUnsafeBytes(body)
    }

    /// Whether `bytes` are text in `encoding`: every byte is read, a sequence cut off at their end aside; `false`
    /// when this type does not read the encoding (ISO-2022 is 7-bit, so bytes with the high bit are never it).
    static func reads(_ bytes: [UInt8], as encoding: String) -> Bool {
        guard let transcoder = LegacyTranscoder(encoding: encoding) else { return false }
        transcoder.process(bytes) { _ in }
        return transcoder.replacedBytes == 0
    }

    /// The UTF-8 of `bytes` as one array (a whole text: a sequence cut off at its end becomes U+FFFD).
    func utf8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var result: [UInt8] = []
        process(bytes) { result.append(contentsOf: $0) }
        finish { result.append(contentsOf: $0) }
        return result
    }

    private func convert(_ bytes: [UInt8], with descriptor: iconv_t, into output: inout [UInt8]) {
        var input = bytes.map { CChar(bitPattern: $0) }
        var chunk = [CChar](repeating: 0, count: 3 * input.count + 16)
        input.withUnsafeMutableBufferPointer { inBuffer in
            var inPointer = inBuffer.baseAddress
            var inLeft = inBuffer.count
            while inLeft > 0 {
                let (result, error, written) = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    var outPointer = outBuffer.baseAddress
                    var outLeft = outBuffer.count
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (result, errno, outBuffer.count - outLeft)
                }
                output.append(contentsOf: chunk.prefix(written).lazy.map { UInt8(bitPattern: $0) })
                guard result == -1 else { break }
                switch error {
                case E2BIG:
                    continue
                case EINVAL:
                    // A sequence cut off by the end of the chunk: read with the next.
                    carry = UnsafeBufferPointer(start: inPointer, count: inLeft).map { UInt8(bitPattern: $0) }
                    return
                default:
                    // A sequence that is not the encoding: one U+FFFD, and on after it. As WHATWG's decoders read
                    // Shift_JIS, EUC-JP, EUC-KR, Big5 and GBK, a lead byte and a non-ASCII byte after it go together
                    // (skipping the lead alone read its trail as the next lead: `前�‘�本語` for `前�日本語`); an
                    // ASCII byte after a lead is read again as itself.
                    let lead = inPointer.map { UInt8(bitPattern: $0.pointee) } ?? 0
                    let next = inLeft > 1 ? inPointer.map { UInt8(bitPattern: $0[1]) } ?? 0 : 0
                    let length = lead >= 0x81 && lead != 0xFF && next >= 0x80 ? 2 : 1
                    output.append(contentsOf: Self.replacement)
                    replacedBytes += length
                    inPointer = inPointer.map { $0 + length }
                    inLeft -= length
                }
            }
        }
    }
}
