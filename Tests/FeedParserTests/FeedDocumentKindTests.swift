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

    /// A PHP warning printed before the XML declaration does not make the feed "not a feed": the parser skips it.
    @Test func textBeforeAnXMLDeclarationIsXML() {
        #expect(FeedDocumentKind(start: Array("Warning: oops\n<?xml version=\"1.0\"?><rss/>".utf8)) == .xml)
        #expect(
            FeedDocumentKind(start: Array("Warning: <?xml-stylesheet".utf8))
                == .other(start: "Warning: <?xml-stylesheet")
        )
    }

    @Test func onlyWhiteSpaceNeedsMoreBytes() {
        #expect(FeedDocumentKind(start: Array("  \t\n".utf8)) == nil)
        #expect(FeedDocumentKind(start: [UInt8]()) == nil)
    }
}
