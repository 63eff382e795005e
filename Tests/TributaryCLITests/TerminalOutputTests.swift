import Foundation
import Renderers
import Testing

/// `tributary digest --format text` on a real pseudo-terminal (util-linux `script`): colour only on a terminal and
/// never with `NO_COLOR`, lines wrapped to the terminal's width with Japanese counted as two columns, and nothing a
/// feed sends can move the cursor, clear the screen or retitle the window.
///
/// `script` comes with Debian's essential package bsdutils.
@Suite(.serialized) struct TerminalOutputTests {
    static let script = URL(fileURLWithPath: "/usr/bin/script")

    /// A feed whose titles try to take over the terminal, and a long Japanese headline.
    static let hostileFeed = """
        {
          "version": "https://jsonfeed.org/version/1.1",
          "title": "Hostile",
          "items": [
            { "id": "clear", "url": "https://e.example/1", "title": "Clear \\u001b[2J\\u001b[H screen",
              "date_published": "2026-11-22T08:30:00Z" },
            { "id": "retitle", "url": "https://e.example/2", "title": "Retitle \\u001b]0;pwned\\u0007 window",
              "date_published": "2026-11-22T08:20:00Z" },
            { "id": "bell", "url": "https://e.example/3", "title": "Bell \\u0007 and backspace \\b and \\u009b31m C1",
              "date_published": "2026-11-22T08:10:00Z" },
            { "id": "ja", "url": "https://e.example/4",
              "title": "東京都心で初雪、平年より十日早く観測　交通機関に遅れの恐れ、気象庁が注意呼びかけ",
              "date_published": "2026-11-22T08:00:00Z" }
          ]
        }
        """

    static let config = """
        { "title": "Terminal", "timeZone": "UTC",
          "sources": [{ "id": "hostile", "kind": "json-file", "path": "hostile.json" }] }
        """

    /// Runs `tributary digest --format text` on a pseudo-terminal `columns` wide and returns what it printed.
    private static func runOnTerminal(columns: Int, environment: [String: String]) throws -> String {
        let workspace = try Workspace()
        try Data(hostileFeed.utf8).write(to: workspace.url.appendingPathComponent("hostile.json"))
        try Data(config.utf8).write(to: workspace.url.appendingPathComponent("feeds.json"))
        let executable = try TributaryProcess.executable.path
        let command = "stty cols \(columns) rows 50; '\(executable)' digest --format text --quiet -o -"
        let result = try TributaryProcess.run(
            [],
            in: workspace.url,
            environment: environment,
            executable: script,
            arguments: ["--quiet", "--return", "--command", command, "/dev/null"]
        )
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// Every escape sequence in `text`, as the bytes after ESC up to and including the final byte.
    private static func escapeSequences(in text: String) -> [String] {
        text.components(separatedBy: "\u{1B}").dropFirst().map { String($0.prefix(while: { $0 != "m" }).prefix(12)) }
    }

    @Test func colourIsUsedOnATerminalAndOnlyAsSGRSequences() throws {
        let output = try Self.runOnTerminal(columns: 80, environment: ["TERM": "xterm-256color"])
        let sequences = Self.escapeSequences(in: output)
        #expect(!sequences.isEmpty, "a terminal gets colour")
        // Only Select Graphic Rendition (`ESC [ … m`): no cursor movement, no clearing, no window title.
        let sgr = output.split(separator: "\u{1B}").dropFirst().allSatisfy { part in
            part.hasPrefix("[") && part.dropFirst().prefix(while: { $0.isNumber || $0 == ";" }).count + 1 < part.count
                && part.dropFirst().drop(while: { $0.isNumber || $0 == ";" }).first == "m"
        }
        #expect(sgr, "\(sequences)")
        #expect(!output.contains("\u{07}") && !output.contains("\u{08}") && !output.contains("\u{9B}"))
        #expect(!output.contains("pwned\u{07}") && output.contains("Retitle"))
    }

    @Test func noColorTurnsColourOff() throws {
        let output = try Self.runOnTerminal(columns: 80, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        #expect(!output.contains("\u{1B}"), "\(output)")
        #expect(output.contains("Clear"))
    }

    @Test func linesFitTheTerminalWidthCountingJapaneseAsTwoColumns() throws {
        let output = try Self.runOnTerminal(columns: 50, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("東京") })
        for line in lines where !line.contains("https://") {
            #expect(TerminalText.displayWidth(line) <= 50, "\(TerminalText.displayWidth(line)) columns: \(line)")
        }
        // The long headline wrapped: its end is on a later line than its start.
        let start = try #require(lines.firstIndex { $0.contains("東京都心") })
        let end = try #require(lines.firstIndex { $0.contains("呼びかけ") })
        #expect(end > start)
    }
}
