import Renderers
import Testing
import TributaryCore

@Suite struct TextRendererTests {
    @Test func textSampleAt80ColumnsMatchesGolden() throws {
        try GoldenFile.check(TextRenderer(width: 80).render(.sample), ext: "txt")
    }

    @Test func textSampleAt40ColumnsMatchesGolden() throws {
        try GoldenFile.check(TextRenderer(width: 40).render(.sample), ext: "txt")
    }

    @Test func colouredTextSampleAt80ColumnsMatchesGolden() throws {
        try GoldenFile.check(TextRenderer(width: 80, color: true).render(.sample), ext: "txt")
    }

    @Test func colouredTextSampleAt40ColumnsMatchesGolden() throws {
        try GoldenFile.check(TextRenderer(width: 40, color: true).render(.sample), ext: "txt")
    }
}
