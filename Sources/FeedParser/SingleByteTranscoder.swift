import Foundation

/// Turns a single-byte encoding that is not ASCII-compatible (EBCDIC: IBM037, IBM500...) into UTF-8 as the bytes
/// stream in, so that such a document goes through the same byte-level guards as every other one before libxml2
/// sees it (they look for `<` as 0x3C, which EBCDIC spells 0x4C).
///
/// The table of what each byte means is asked of iconv once per encoding, byte by byte; a byte iconv cannot read
/// becomes U+FFFD. Nothing is carried between chunks: every byte is a character.
struct SingleByteTranscoder: Sendable {
    /// The UTF-8 of each byte value.
    private let table: [[UInt8]]

    /// The transcoder for `encoding`, or `nil` when iconv does not know it or it is not one byte per character.
    init?(encoding: String) {
        let descriptor = iconv_open("UTF-8", encoding)
        guard descriptor != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(descriptor) }
        var table: [[UInt8]] = []
        table.reserveCapacity(256)
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
                    return result == -1 || inLeft != 0 ? -1 : 8 - outLeft
                }
            }
            if converted > 0 {
                table.append(output.prefix(converted).map { UInt8(bitPattern: $0) })
            } else {
                table.append([0xEF, 0xBF, 0xBD])  // U+FFFD
            }
        }
        // An encoding of several bytes per character (or one that reads no byte alone) is not for this type.
        guard table.contains(where: { $0 != [0xEF, 0xBF, 0xBD] }) else { return nil }
        self.table = table
    }

    /// Transcodes the next bytes and hands their UTF-8 to `body`.
    func process<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        for byte in bytes { output.append(contentsOf: table[Int(byte)]) }
        try output.withUnsafeBytes(body)
    }

    /// The UTF-8 of `bytes` as one array.
    func utf8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var result: [UInt8] = []
        process(bytes) { result.append(contentsOf: $0) }
        return result
    }
}
