import Renderers
import Testing
import TributaryCore

@Suite struct MarkdownRendererTests {
    @Test func markdownSampleMatchesGolden() throws {
        try GoldenFile.check(MarkdownRenderer().render(.sample), ext: "md")
    }

    @Test(arguments: TestDigest.hostileStrings)
    func hostileTitleStaysOneListItemOfPlainText(_ hostile: String) throws {
        let entries = (0..<3).map { TestDigest.entry(title: "\(hostile) \($0)", publisher: hostile) }
        let output = try MarkdownRenderer().render(TestDigest.digest(entries, title: hostile))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)

        #expect(lines.count(where: { $0.hasPrefix("- ") }) == 3)
        #expect(lines.count(where: { $0.hasPrefix("#") }) == 2)  // the title and the one day heading
        for line in lines where !line.isEmpty {
            #expect(
                line.hasPrefix("# ") || line.hasPrefix("## ") || line.hasPrefix("- ") || line.hasPrefix("Generated")
            )
        }
        // Undoing the backslash escapes gives back the title: it renders as exactly that text.
        let bullet = try #require(lines.first { $0.hasPrefix("- ") })
        let escapedTitle = try #require(bullet.dropFirst(3).split(separator: "](<", maxSplits: 1).first)
        #expect(Self.unescaped(escapedTitle) == Self.expectedText(hostile + " 0"))
    }

    @Test func escapesWhatWouldChangeTheStructure() {
        #expect(MarkdownEscaping.text(##"\`*_[]<a>#|!~&amp;"##) == ##"\\\`\*\_\[\]\<a>#|!\~\&amp;"##)
        #expect(MarkdownEscaping.text("a|b", inTableCell: true) == #"a\|b"#)
        #expect(MarkdownEscaping.text("- a") == #"\- a"#)
        #expect(MarkdownEscaping.text("2026. year") == #"2026\. year"#)
        #expect(MarkdownEscaping.text("3) third") == #"3\) third"#)
        #expect(MarkdownEscaping.text("a - b. c") == "a - b. c")
        #expect(MarkdownEscaping.text("a\n\n# b\u{1B}[2J") == ##"a # b"##)
        #expect(MarkdownEscaping.text("# b") == ##"\# b"##)
        #expect(MarkdownEscaping.text("Learn C ##") == ###"Learn C \##"###)
        #expect(MarkdownEscaping.text("ends with \\") == ##"ends with \\"##)
        #expect(MarkdownEscaping.text("_under_ and __init__") == ##"\_under\_ and \_\_init\_\_"##)
    }

    /// What CommonMark does not need escaped stays as written: a raw summary reads as the titles.
    @Test func leavesAloneWhatCannotChangeTheStructure() {
        for text in [
            "Wire (simulated)", "Example & Sons", "snake_case_name", "I <3 Swift", "C# 12 {draft}", "Wow!",
            "a > b", "1 + 1 = 2", "#1 in the charts", "AT&T", "path\\to", "50% off - today",
        ] {
            #expect(MarkdownEscaping.text(text) == text)
        }
    }

    @Test func putsURLsInAngleBracketsWithUnsafeCharactersEncoded() throws {
        let entry = TestDigest.entry(title: "T", url: "https://e.example/a b?<x>&copy;=\\")
        let output = try MarkdownRenderer().render(TestDigest.digest([entry]))
        #expect(output.contains(#"- [T](<https://e.example/a%20b?%3Cx%3E\&copy;=%5C>) — wire · 14:41"#))
    }

    @Test(arguments: [
        "javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd",
        "tag:example.com,2005:post-1", "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
    ])
    func linksOnlyWebAndMailURLs(_ url: String) throws {
        let entry = TestDigest.entry(title: "T", url: url, related: [.init(title: "R", url: url)])
        let output = try MarkdownRenderer().render(TestDigest.digest([entry]))
        #expect(!output.contains("]("))
        #expect(output.contains("- T — wire · 14:41 · "))
        #expect(output.contains("  - R — "))
    }

    @Test func marksNewItemsAndListsRelatedCoverageUnderTheirItem() throws {
        let entry = TestDigest.entry(
            title: "T",
            publisher: "NHK",
            related: [.init(title: "Other", url: "mailto:desk@example.org", publisher: "Pub")],
            isNew: true
        )
        let output = try MarkdownRenderer().render(TestDigest.digest([entry]))
        #expect(output.contains("- [T](<https://example.org/item>) — wire · NHK · 14:41 · **new**\n"))
        #expect(output.contains("\n  - [Other](<mailto:desk@example.org>) — Pub\n"))
    }

    @Test func listsFailedSourcesWithTheirReasons() throws {
        let output = try MarkdownRenderer().render(.sample)
        let sources = try #require(output.split(separator: "## Sources\n").last)
        #expect(sources.contains(#"| Hacker News \<script> | failed | 0 | timed out after 20s;"#))
        #expect(sources.contains("| newsroom | failed | 0 | ws://127.0.0.1:8765/feed: connection refused;"))
        #expect(sources.contains("| wire | ok | 2 | warning: frame 17: not valid JSON; frame skipped;"))
    }

    @Test func showsAFailingSourcesHealthBesideItsReason() throws {
        var digest = Digest.sample
        let index = try #require(digest.sources.firstIndex { $0.state == .failed })
        digest.sources[index].health = "failing for 3 runs; last success 2026-11-20 08:00; next try after 09:30"
        let output = try MarkdownRenderer().render(digest)
        let sources = try #require(output.split(separator: "## Sources\n").last)
        let row = try #require(sources.split(separator: "\n").first { $0.contains("| failed |") })
        #expect(row.contains("; failing for 3 runs; last success 2026-11-20 08:00; next try after 09:30"))
    }

    /// What a Markdown reader shows for backslash-escaped text: CommonMark drops a backslash only before ASCII
    /// punctuation; any other backslash is a character.
    static func unescaped(_ markdown: some StringProtocol) -> String {
        var result = ""
        let characters = Array(markdown)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count,
                characters[index + 1].isASCII, characters[index + 1].isPunctuation || characters[index + 1].isSymbol
            {
                result.append(characters[index + 1])
                index += 2
                continue
            }
            result.append(character)
            index += 1
        }
        return result
    }

    /// The text a feed string should show as: escape sequences and control characters gone, whitespace collapsed.
    static func expectedText(_ text: String) -> String {
        TerminalText.sanitize(text)
    }
}
