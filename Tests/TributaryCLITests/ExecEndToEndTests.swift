import Foundation
import Testing

/// The `exec` kind through the built binary: a script's feed reaches the digest, a failing script is reported.
@Suite struct ExecEndToEndTests {
    /// Runs `tributary` like ``TributaryProcess/run(_:in:environment:standardInput:)``, but waits for it without
    /// blocking a thread of the test's cooperative pool, which other tests need meanwhile.
    private func run(_ arguments: [String], in directory: URL) async throws -> TributaryProcess.Result {
        let process = Process()
        process.executableURL = try TributaryProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "SOURCE_DATE_EPOCH": "1795330800"]
        let output = directory.appendingPathComponent(".stdout")
        let error = directory.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: error.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        while process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
        }
        return TributaryProcess.Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: output, encoding: .utf8),
            standardError: try String(contentsOf: error, encoding: .utf8)
        )
    }

    private static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Script</title><link>https://example.org/</link>
        <item><title>Printed by a script</title><link>https://example.org/script/1</link>
        <guid>https://example.org/script/1</guid><pubDate>Fri, 20 Nov 2026 08:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    @Test func aScriptPrintingRSSAppearsInTheDigestAndAFailingOneIsReported() async throws {
        let workspace = try Workspace()
        try workspace.write("feed.xml", Self.rss)
        try workspace.write("print.sh", "cat feed.xml\n")
        try workspace.write("fail.sh", "echo 'fatal: no token' >&2\nexit 3\n")
        try workspace.write(
            "feeds.json",
            """
            {
              "title": "Exec digest",
              "sources": [
                { "id": "printer", "kind": "exec", "command": ["sh", "print.sh"], "timeout": "20s" },
                { "id": "failer", "kind": "exec", "command": ["sh", "fail.sh"] }
              ]
            }
            """
        )
        let result = try await run(["summary"], in: workspace.url)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput.contains("Printed by a script"))
        #expect(result.standardError.contains("failer"))
        #expect(result.standardError.contains("exited with status 3"))
        #expect(result.standardError.contains("fatal: no token"))
    }

    @Test func verboseOutputCopiesAProgramsStandardErrorWithoutItsEscapeSequences() async throws {
        let workspace = try Workspace()
        try workspace.write("feed.xml", Self.rss)
        // A window title, a colour and a cursor movement: none of them may reach the terminal.
        try workspace.write(
            "noisy.sh",
            "printf '\\033]0;pwned\\007\\033[31mred alert\\033[0m\\033[2J\\n' >&2\ncat feed.xml\n"
        )
        try workspace.write(
            "feeds.json",
            #"{ "sources": [ { "id": "noisy", "kind": "exec", "command": ["sh", "noisy.sh"], "timeout": "20s" } ] }"#
        )
        let result = try await run(["summary", "-v"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("red alert"))
        #expect(!result.standardError.contains("\u{1B}"))
        #expect(!result.standardError.contains("\u{07}"))
    }

    @Test func aRunPastItsRunTimeoutStopsWithExitOneAndFreesTheStateForTheNextRun() async throws {
        // The source may take 30 s, the run only 1 s: the run-wide deadline ends it with a message, and the next run
        // gets the state lock at once instead of failing with exit 2.
        let workspace = try Workspace()
        try workspace.write("feed.xml", Self.rss)
        try workspace.write("slow.sh", "sleep 20\ncat feed.xml\n")
        try workspace.write(
            "feeds.json",
            #"{ "runTimeout": "1s", "sources": [ { "id": "slow", "kind": "exec", "command": ["sh", "slow.sh"], "timeout": "30s" } ] }"#
        )
        #expect(try await run(["validate"], in: workspace.url).status == 0)
        let started = ContinuousClock.now
        let stopped = try await run(["summary"], in: workspace.url)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(stopped.status == 1)
        #expect(stopped.standardError.contains("did not finish within 1s (runTimeout in feeds.json)"), "\(stopped)")
        try workspace.write("slow.sh", "cat feed.xml\n")
        let next = try await run(["summary"], in: workspace.url)
        #expect(next.status == 0, "\(next)")
        #expect(next.standardOutput.contains("Printed by a script"))
    }

    @Test func validateAcceptsAnExecEntryAndRejectsABadOne() async throws {
        let workspace = try Workspace()
        try workspace.write(
            "feeds.json",
            #"{ "sources": [ { "id": "ok", "kind": "exec", "command": ["true"], "stream": true } ] }"#
        )
        #expect(try await run(["validate"], in: workspace.url).status == 0)
        try workspace.write("feeds.json", #"{ "sources": [ { "id": "bad", "kind": "exec", "command": [] } ] }"#)
        let invalid = try await run(["validate"], in: workspace.url)
        #expect(invalid.status == 2)
        #expect(invalid.standardError.contains("command"))
    }
}
