import Testing

@testable import FeedParser

/// The byte-stream watch before libxml2 (``StartTagGuard``), fed chunk by chunk as the parser feeds it.
@Suite struct StartTagGuardTests {
    /// What the guard passes on for `input` cut into chunks at `splits`.
    private static func passed(_ input: String, splits: [Int]) -> (output: String, strayEnds: Int) {
        let bytes = Array(input.utf8)
        var guardState = StartTagGuard()
        var output: [UInt8] = []
        var start = 0
        for end in splits + [bytes.count] where end >= start {
            bytes[start..<end].withUnsafeBytes { chunk in
                guardState.process(chunk) { output += $0 }
            }
            start = end
        }
        return (String(decoding: output, as: UTF8.self), guardState.strayCDATAEnds)
    }

    /// `]]>` in text has its `>` passed on as `&gt;`, however the chunks cut it; in a CDATA section, a comment or an
    /// attribute value it is left alone.
    @Test func aCDATAEndInTextIsEscapedAcrossChunks() {
        let input = "<t>a]]>b</t><![CDATA[c]]><!-- ]]> --><u v=\"]]>\">d]]]]>e</u>"
        let expected = "<t>a]]&gt;b</t><![CDATA[c]]><!-- ]]> --><u v=\"]]>\">d]]]]&gt;e</u>"
        for split in 0...input.utf8.count {
            let result = Self.passed(input, splits: [split])
            #expect(result.output == expected, "split at \(split)")
            #expect(result.strayEnds == 2, "split at \(split)")
        }
        #expect(Self.passed(input, splits: [4, 5, 6, 7]).output == expected)
    }
}
