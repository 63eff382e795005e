import CByteScan

/// Finds the next byte of interest in UTF-8, sixteen bytes at a time (`tributary_find_first` in CByteScan, SSE2):
/// the sanitizer's writers and scanners copy long runs of plain text and URLs, and looking for the next byte that
/// needs work was most of their time.
enum ByteScan {
    /// The index of the first byte at or after `index` that is below `below` (0: no threshold) or equal to one of
    /// `equal` (at most six), or `bytes.count` when there is none.
    @inline(__always)
    static func find(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from index: Int,
        below: UInt8 = 0,
        _ equal: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8),
        count: UInt8
    ) -> Int {
        guard let base = bytes.baseAddress, index < bytes.count else { return max(index, bytes.count) }
        let set = tributary_byte_set(below: below, count: count, equal: equal)
        return tributary_find_first(base, index, bytes.count, set)
    }

    /// The index of the first byte at or after `index` that is not a plain URL byte (an ASCII letter or digit, or one
    /// of `-._~!$&'()*+,;=:@/?`), or `bytes.count` when there is none.
    @inline(__always)
    static func findNonURLByte(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        guard let base = bytes.baseAddress, index < bytes.count else { return max(index, bytes.count) }
        return tributary_find_non_url_byte(base, index, bytes.count)
    }
}
