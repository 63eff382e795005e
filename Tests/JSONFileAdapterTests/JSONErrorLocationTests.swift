import Foundation
import Testing

@testable import JSONFileAdapter

/// The fallback that places a syntax error Foundation reported, for input the strict check accepted.
@Suite struct JSONErrorLocationTests {
    private let bytes = Array("{\n  \"a\": 1,\n  \"b\": ?\n}".utf8)

    @Test func usesTheByteOffsetOfTheUnderlyingError() {
        let underlying = NSError(
            domain: NSCocoaErrorDomain,
            code: 3840,
            userInfo: ["NSJSONSerializationErrorIndex": 19]
        )
        let context = DecodingError.Context(codingPath: [], debugDescription: "bad", underlyingError: underlying)
        #expect(JSONErrorLocation.position(of: context, in: bytes) == TextPosition(line: 3, column: 8))
    }

    @Test func parsesLineAndColumnFromTheMessage() {
        let underlying = NSError(
            domain: NSCocoaErrorDomain,
            code: 3840,
            userInfo: [NSDebugDescriptionErrorKey: "Invalid value around line 3, column 8."]
        )
        let context = DecodingError.Context(codingPath: [], debugDescription: "bad", underlyingError: underlying)
        #expect(JSONErrorLocation.position(of: context, in: bytes) == TextPosition(line: 3, column: 8))
    }

    @Test func convertsACharacterOffsetInTheMessage() {
        let context = DecodingError.Context(codingPath: [], debugDescription: "Invalid value around character 19.")
        #expect(JSONErrorLocation.position(of: context, in: bytes) == TextPosition(line: 3, column: 8))
    }

    @Test func fallsBackToTheStartOfTheDocument() {
        let context = DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON.")
        #expect(JSONErrorLocation.position(of: context, in: bytes) == TextPosition(line: 1, column: 1))
    }

    @Test func textPositionCountsScalarsAndAllLineBreakStyles() {
        let text = Array("ab\r\ncd\ref\nあい".utf8)
        #expect(TextPosition(byteOffset: 1, in: text) == TextPosition(line: 1, column: 2))
        #expect(TextPosition(byteOffset: 4, in: text) == TextPosition(line: 2, column: 1))
        #expect(TextPosition(byteOffset: 7, in: text) == TextPosition(line: 3, column: 1))
        #expect(TextPosition(byteOffset: 13, in: text) == TextPosition(line: 4, column: 2))
        #expect(TextPosition(byteOffset: text.count, in: text) == TextPosition(line: 4, column: 3))
    }
}
