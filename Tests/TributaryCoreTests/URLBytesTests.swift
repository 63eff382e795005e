import Testing
import TributaryCore

/// The byte checks the hot paths take URLs by (the normaliser, canonical URLs, the renderers' link policy).
@Suite struct URLBytesTests {
    @Test(
        arguments: [
            ("https://example.com/", 8), ("http://example.com/", 7), ("http://", 7), ("https://", 8),
            ("HTTP://example.com/", nil), ("https:/example.com/", nil), ("http:", nil), ("", nil), ("ftp://x/", nil),
            ("httpsx://x/", nil), (" http://x/", nil),
        ] as [(String, Int?)]
    )
    func webSchemes(text: String, length: Int?) {
        #expect(URLBytes.webSchemeLength(text) == length)
        #expect(URLBytes.hasWebScheme(text) == (length != nil))
    }

    @Test func prefixesAreComparedAsBytes() {
        #expect(URLBytes.hasPrefix("mailto:desk@example.org", "mailto:"))
        #expect(!URLBytes.hasPrefix("mailt", "mailto:"))
        #expect(URLBytes.hasPrefix("é-accent", "é"))
        #expect(!URLBytes.hasPrefix("e\u{301}", "é"))  // the same character, other bytes
        #expect(URLBytes.hasPrefix("anything", ""))
    }

    @Test func urlBytesArePrintableASCIIButTheFewURLsMayNotHold() {
        let refused = Set("\"<>\\^`{|}".utf8)
        for byte in UInt8.min...UInt8.max {
            let expected = (0x21...0x7E).contains(byte) && !refused.contains(byte)
            #expect(URLBytes.isURLByte(byte) == expected, "\(byte)")
        }
        #expect(URLBytes.isBracket(UInt8(ascii: "[")) && URLBytes.isBracket(UInt8(ascii: "]")))
        #expect(!URLBytes.isBracket(UInt8(ascii: "(")))
    }
}
