/// The ASCII classes the sanitizer's byte scanners test (input bounds, the direct reader, the URL policy).
///
/// Written as wrapping subtractions rather than `ClosedRange.contains`, which the optimizer left as calls in the
/// scanners' loops.
extension UInt8 {
    /// `A`–`Z` or `a`–`z`.
    @inline(__always)
    var isASCIILetter: Bool { (self | 0x20) &- 0x61 < 26 }

    /// `0`–`9`.
    @inline(__always)
    var isASCIIDigit: Bool { self &- 0x30 < 10 }

    /// `0`–`9`, `A`–`F` or `a`–`f`.
    @inline(__always)
    var isASCIIHexDigit: Bool { isASCIIDigit || (self | 0x20) &- 0x61 < 6 }

    /// The byte with `A`–`Z` turned into `a`–`z`; every other byte as it is.
    @inline(__always)
    var asciiLowercased: UInt8 { self &- 0x41 < 26 ? self | 0x20 : self }
}
