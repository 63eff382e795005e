import Renderers
import Testing

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("abc", 3), ("日本語", 6), ("ﾆｭｰｽ", 4), ("ＡＢ", 4), ("한국어", 6), ("e\u{301}", 1), ("🤖", 2),
        ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("#️⃣", 2), ("a\u{200B}b", 2), ("、。", 4), ("", 0),
    ])
    func measuresColumns(_ text: String, _ width: Int) {
        #expect(TerminalText.displayWidth(text) == width)
    }

    @Test(arguments: [
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("a\u{1B}]0;title\u{07}b", "ab"),
        ("a\u{1B}]8;;https://x.example\u{1B}\\link\u{1B}]8;;\u{1B}\\b", "alinkb"),
        ("a\u{9B}2Jb", "ab"),
        ("a\u{1B}Pq#0;2;0;0;0\u{1B}\\b", "ab"),
        ("a\u{1B}(Bb\u{1B}cc", "abc"),
        ("tab\there\nnew\r\nline", "tab here new line"),
        ("bell\u{07}\u{08}\u{7F}\u{85}x", "bell x"),
        ("\u{202E}evil\u{202C} \u{2066}iso\u{2069}", "evil iso"),
        ("unterminated \u{1B}]0;rest of text", "unterminated"),
        ("line\u{2028}sep\u{2029}para", "line sep para"), ("c1\u{9D}0;x\u{9C}end", "c10;xend"),
        // A doubly encoded `”` leaves U+009D: the control goes, the words after it stay.
        ("â€œsmallâ€\u{9D} amount\u{90} of storage", "â€œsmallâ€ amount of storage"),
        ("日本語\u{8A}é", "日本語é"),
    ])
    func removesEscapeSequencesAndControlCharacters(_ text: String, _ expected: String) {
        #expect(TerminalText.sanitize(text) == expected)
    }

    @Test(arguments: [10, 11, 16, 25])
    func wrapsMixedTextWithinTheWidth(_ width: Int) {
        let text = "東京都心で今季一番の冷え込み、各地で初霜や初氷を観測 Swift 6.3 arrives with faster builds 🤖 Unbreakablewordthatislong"
        let lines = TerminalText.wrap(text, width: width)
        for line in lines {
            #expect(TerminalText.displayWidth(line) <= width, "\(line)")
            #expect(!line.hasPrefix(" ") && !line.hasSuffix(" "))
        }
        #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " })
    }

    /// A URL wider than the line overflows a line of its own instead of being split, so it still opens; the words
    /// around it wrap as usual, and a long word that is not a URL is still split.
    @Test func neverBreaksAURL() {
        let url = "https://news.example/2026/11/25/a-very-long-article-slug?utm_source=rss"
        let lines = TerminalText.wrap("a: FAILED: \(url): 127.0.0.1:1 refused the connection", width: 24)
        #expect(lines.contains(url + ":"), "\(lines)")
        #expect(lines.filter { $0 != url + ":" }.allSatisfy { TerminalText.displayWidth($0) <= 24 }, "\(lines)")
        #expect(
            TerminalText.wrap("see (www.example.org/a/long/path/here)", width: 12) == [
                "see", "(www.example.org/a/long/path/here)",
            ]
        )
        #expect(TerminalText.wrap("Supercalifragilistic", width: 10) == ["Supercalif", "ragilistic"])
    }

    @Test func keepsClosingPunctuationWithTheCharacterBeforeIt() {
        #expect(TerminalText.wrap("あいうえ。かきくけ", width: 8) == ["あいう", "え。かき", "くけ"])
        #expect(TerminalText.wrap("「かぎ」です", width: 4) == ["「か", "ぎ」", "です"])
    }

    @Test func truncatesToAWidthWithAnEllipsis() {
        #expect(TerminalText.truncate("ニュース速報", toWidth: 7) == "ニュー…")
        #expect(TerminalText.truncate("abcdef", toWidth: 6) == "abcdef")
        #expect(TerminalText.truncate("abcdefg", toWidth: 6) == "abcde…")
    }
}
