/// Finds bytes of interest in UTF-8 eight at a time (SIMD within a register): the sanitizer's writers and scanners
/// copy long runs of plain text and URLs, and a byte-by-byte table lookup was most of their time.
///
/// Each mask flags, in the high bit of each byte, the bytes that may be of interest; the lowest flagged byte
/// always is one (a borrow can only flag bytes above a true one), so a scanner jumps to it and checks it exactly.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Flags the bytes equal to `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let value = word ^ (ones &* UInt64(byte))
        return (value &- ones) & ~value & highs
    }

    /// Flags the bytes below `limit` (at most 0x80).
    @inline(__always)
    static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// The index of the first byte at or after `index` whose eight-byte word `candidates` flags, or the index of
    /// the last eight bytes' start when none is flagged before them: the caller goes on byte by byte from there.
    @inline(__always)
    static func skip(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from index: Int,
        _ candidates: (UInt64) -> UInt64
    ) -> Int {
        guard let raw = UnsafeRawPointer(bytes.baseAddress) else { return index }
        var index = index
        while index + 8 <= bytes.count {
            let mask = candidates(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if mask != 0 { return index + mask.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }
}
