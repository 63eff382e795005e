import Foundation
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

    @Test(arguments: [30, 40, 57, 80, 120])
    func everyLineFitsTheWidthExceptLinksLongerThanALine(_ width: Int) throws {
        let output = try TextRenderer(width: width).render(.sample)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 30)
        for line in lines where TerminalText.displayWidth(line) > width {
            let word = line.drop { $0 == " " }
            #expect(word.hasPrefix("https://") && !word.contains(" "), "line too wide: \(line)")
        }
    }

    @Test func alignsTitlesAfterWideSourceNamesByDisplayWidth() throws {
        let entries = [
            TestDigest.entry(title: "First title that is long enough to wrap onto a second line", sourceTitle: "日本語"),
            TestDigest.entry(title: "Second", sourceTitle: "abc"),
            TestDigest.entry(title: "Third", sourceTitle: "ニュース速報の長い名前"),
        ]
        let output = try TextRenderer(width: 40).render(TestDigest.digest(entries))
        let lines = output.split(separator: "\n").map(String.init)
        var columns: [Int] = []
        for title in ["First", "Second", "Third"] {
            let line = try #require(lines.first { $0.contains(title) })
            let range = try #require(line.range(of: title))
            columns.append(TerminalText.displayWidth(line[..<range.lowerBound]))
        }
        #expect(Set(columns).count == 1)
        // The second line of the first title hangs at the same column.
        let first = try #require(lines.firstIndex { $0.contains("First") })
        let continuation = lines[first + 1]
        #expect(continuation.prefix { $0 == " " }.count == columns[0])
        #expect(!continuation.contains("wire"))
    }

    @Test func writesNoEscapeOrControlCharacterWithoutColour() throws {
        let hostile = TestDigest.entry(
            title: "\u{1B}[31mred\u{1B}[0m \u{1B}]0;retitled\u{07}\u{9B}2J\u{7}\u{8}\u{0}end\r\nnext",
            url: "https://e.example/\u{1B}[2J",
            sourceTitle: "src\u{1B}[K",
            publisher: "pub\u{1B}[5m"
        )
        for digest in [Digest.sample, TestDigest.digest([hostile])] {
            let output = try TextRenderer(width: 80).render(digest)
            let controls = output.unicodeScalars.filter {
                $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
            }
            #expect(controls.isEmpty, "\(controls.map(\.value))")
        }
        let output = try TextRenderer(width: 80).render(TestDigest.digest([hostile]))
        #expect(output.contains("red end next"))
        #expect(!output.contains("retitled"))
        #expect(!output.contains("[31m"))
    }

    @Test func colourCodesComeOnlyFromTheRenderer() throws {
        let hostile = TestDigest.entry(
            title:
                "\u{1B}[31mred\u{1B}[0m \u{1B}]8;;https://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\ \u{9B}1;32mgreen",
            publisher: "\u{1B}[41mpub",
            isNew: true
        )
        let output = try TextRenderer(width: 200, color: true).render(TestDigest.digest([hostile]))
        #expect(output.contains("\u{1B}[1mred link green\u{1B}[0m"))
        #expect(output.contains("pub · \u{1B}[1;32mnew\u{1B}[0m"))
        #expect(!output.contains("evil.example"))
        // Every escape sequence is one of the renderer's own SGR codes.
        let own: Set<String> = ["0", "1", "2", "33", "34", "36", "1;31", "1;32"]
        for sequence in output.split(separator: "\u{1B}").dropFirst() {
            let code = sequence.dropFirst().prefix { $0 != "m" }
            #expect(sequence.hasPrefix("[") && own.contains(String(code)), "foreign sequence: \(sequence.prefix(12))")
        }
    }

    @Test func showsAFailingSourcesHealthAfterItsReason() throws {
        var digest = Digest.sample
        let index = try #require(digest.sources.firstIndex { $0.state == .failed })
        digest.sources[index].health = "failing for 3 runs; next try after 09:30"
        let output = try TextRenderer(width: 200).render(digest)
        let tail = try #require(output.split(separator: "\nFailed sources\n").last)
        #expect(tail.contains("(failing for 3 runs; next try after 09:30)"))
    }

    @Test func listsFailedSourcesWithTheirReasonsAtTheEnd() throws {
        let output = try TextRenderer(width: 80).render(.sample)
        let tail = try #require(output.split(separator: "\nFailed sources\n").last)
        let text = FeedText.collapseWhitespace(String(tail))
        for source in Digest.sample.failedSources {
            #expect(text.contains(try #require(source.reason)))
        }
        #expect(text.contains("Warnings wire: frame 17: not valid JSON; frame skipped"))
    }

    @Test func saysSoWhenThereAreNoItems() throws {
        let digest = Digest(
            title: "Empty",
            generatedAt: .init(timeIntervalSince1970: 0),
            generatedAtText: "1970-01-01 00:00 GMT",
            generatedAtISO: "1970-01-01T00:00:00+00:00",
            timeZoneIdentifier: "UTC",
            sources: [],
            days: []
        )
        let output = try TextRenderer().render(digest)
        #expect(output == "Empty\n=====\nGenerated 1970-01-01 00:00 GMT · 0 items · 0 sources\n\nNo items.\n")
    }
}
