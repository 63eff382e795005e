import Renderers
import Testing
import TributaryCore

@Suite struct HTMLRendererTests {
    @Test func htmlSampleMatchesGolden() throws {
        try GoldenFile.check(HTMLRenderer().render(.sample), ext: "html")
    }
}
