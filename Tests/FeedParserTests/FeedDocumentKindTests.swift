import FeedParser
import Testing

/// The one format sniffer: `parse` and the exec adapter tell XML from JSON Feed with it.
@Suite struct FeedDocumentKindTests {
    @Test func xmlJSONAndOtherAreToldFromTheFirstSignificantByte() {
        #expect(FeedDocumentKind(start: Array("  \n<rss>".utf8)) == .xml)
        #expect(FeedDocumentKind(start: [0xEF, 0xBB, 0xBF] + Array("{\"version\":1}".utf8)) == .json)
        #expect(FeedDocumentKind(start: [0xFF, 0xFE, 0x3C, 0x00]) == .xml)  // UTF-16LE with a BOM
        #expect(FeedDocumentKind(start: [0x3C, 0x00, 0x3F, 0x00]) == .xml)  // UTF-16LE without one
        #expect(FeedDocumentKind(start: Array("hello, world".utf8)) == .other(start: "hello, world"))
    }

    @Test func onlyWhiteSpaceNeedsMoreBytes() {
        #expect(FeedDocumentKind(start: Array("  \t\n".utf8)) == nil)
        #expect(FeedDocumentKind(start: [UInt8]()) == nil)
    }
}
