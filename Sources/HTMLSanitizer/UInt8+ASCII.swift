/// The ASCII classes the sanitizer's byte scanners test (input bounds, the direct reader, the URL policy).
extension UInt8 {
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }

    /// `0`–`9`.
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }

    /// `0`–`9`, `A`–`F` or `a`–`f`.
    var isASCIIHexDigit: Bool { isASCIIDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }

    /// The byte with `A`–`Z` turned into `a`–`z`; every other byte as it is.
    var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }
}
