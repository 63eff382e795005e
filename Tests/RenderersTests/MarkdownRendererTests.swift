import Renderers
import Testing
import TributaryCore

@Suite struct MarkdownRendererTests {
    @Test func markdownSampleMatchesGolden() throws {
        try GoldenFile.check(MarkdownRenderer().render(.sample), ext: "md")
    }
}
