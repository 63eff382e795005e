import ExecAdapter
import Foundation
import Testing
import TributaryCore

@Suite struct ExecSourceTests {
    @Test func kindIsExec() {
        #expect(ExecSource.kind == "exec")
    }

    // MARK: - Options

    @Test(arguments: [[String](), [""], ["  "]])
    func initRejectsAnEmptyCommand(_ command: [String]) throws {
        let error = try #require(throws: SourceOptionError.self) {
            try makeSource(command, in: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(error.key == "command")
    }

    @Test(arguments: [
        (["A=B": "x"], "has the name \"A=B\""),
        (["1PATH": "x"], "does not start with a digit"),
        (["": "x"], "has the name \"\""),
        (["NAME": "a\0b"], "NAME holds a NUL character"),
    ])
    func initRejectsAnEnvironmentNoProgramCanReceive(_ env: [String: String], _ message: String) throws {
        let error = try #require(throws: SourceOptionError.self) {
            try makeSource(["true"], in: URL(fileURLWithPath: "/nonexistent"), env: env)
        }
        #expect(error.key == "env")
        #expect(error.message.contains(message))
    }

    @Test func initRejectsAnArgumentWithANULCharacter() throws {
        let error = try #require(throws: SourceOptionError.self) {
            try makeSource(["echo"], in: URL(fileURLWithPath: "/nonexistent"), args: ["a\0b"])
        }
        #expect(error.key == "args")
    }

    @Test func initNeitherLooksForNorStartsTheProgram() throws {
        // A program that does not exist is only noticed by `run` (SRC-1).
        _ = try makeSource(["./not-there"], in: URL(fileURLWithPath: "/nonexistent"))
        _ = try makeSource(["no-such-command-anywhere"], in: URL(fileURLWithPath: "/nonexistent"))
    }

    @Test func optionsDecodeFromAFeedsJSONEntry() throws {
        let entry = #"""
            { "id": "hn", "kind": "exec", "command": ["./hn.sh", "--top"], "args": ["30"], "env": { "A": "b" },
              "cwd": "scripts", "timeout": "90s", "stream": true, "title": "HN" }
            """#
        let options = try JSONDecoder().decode(ExecOptions.self, from: Data(entry.utf8))
        #expect(
            options
                == ExecOptions(
                    command: ["./hn.sh", "--top"],
                    args: ["30"],
                    env: ["A": "b"],
                    cwd: "scripts",
                    timeout: .seconds(90),
                    stream: true
                )
        )
        let minimal = try JSONDecoder().decode(ExecOptions.self, from: Data(#"{ "command": ["x"] }"#.utf8))
        #expect(minimal == ExecOptions(command: ["x"]))
    }

    @Test func aTimeoutThatIsNoDurationIsRefused() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ExecOptions.self, from: Data(#"{ "command": ["x"], "timeout": "soon" }"#.utf8))
        }
    }

    // MARK: - Output formats

    @Test func aScriptPrintingAnRSSFileAppearsAsItems() async throws {
        try await withFixtureDirectory { directory in
            let events = try await run(makeSource(["sh", "print-file.sh", "rss.xml"], in: directory))
            #expect(events.first == .started)
            #expect(events.last == .finished)
            #expect(events.items.map(\.title) == ["First from the script", "Second: fish & chips", "Third, undated"])
            #expect(events.items.allSatisfy { $0.sourceID == "script" })
            #expect(events.items.first?.datePublished == RFC3339.parse("2026-11-20T00:30:00Z"))
        }
    }

    @Test func anAtomDocumentIsDetectedFromItsContent() async throws {
        try await withFixtureDirectory { directory in
            let events = try await run(makeSource(["sh", "print-file.sh", "atom.xml"], in: directory))
            #expect(events.items.map(\.url) == ["https://example.org/atom/1"])
            #expect(events.last == .finished)
        }
    }

    @Test func aJSONFeedOnStdoutIsReadWithABrokenIDCostingOnlyTheID() async throws {
        try await withFixtureDirectory { directory in
            let events = try await run(makeSource(["sh", "print-file.sh", "feed.json"], in: directory))
            #expect(events.items.prefix(2).map(\.id) == ["j1", "j2"])
            #expect(events.items.last?.title == "Broken item")
            #expect(events.items.last?.id.hasPrefix("tributary:") == true)
            // Relative URLs resolve against home_page_url.
            #expect(events.items.first?.url == "https://example.org/json/posts/1")
            #expect(events.warnings.map(\.location) == ["items[2]"])
            #expect(events.last == .finished)
        }
    }

    @Test func streamModeEmitsEachLineAsReadAndWarnsOnABadLine() async throws {
        try await withFixtureDirectory { directory in
            let go = directory.appendingPathComponent("go")
            let source = try makeSource(["sh", "stream.sh"], in: directory, env: ["WAIT_FOR": go.path], stream: true)
            // The script waits after its first line until the test has seen that line as an item: items are
            // emitted as they are read, while the program is still running.
            let recorder = EventRecorder()
            let sink = EventSink { event in
                if case .items = event { _ = FileManager.default.createFile(atPath: go.path, contents: Data()) }
                await recorder.sink.send(event)
            }
            try await source.run(into: sink)
            let events = recorder.events
            #expect(events.items.map(\.id) == ["s1", "s2", "s3"])
            let batches = events.compactMap { event -> [String]? in
                if case .items(let items) = event { return items.map(\.id) }
                return nil
            }
            #expect(batches.first == ["s1"])
            #expect(events.warnings.map(\.location) == ["line 2, column 1"])
            let warningIndex = try #require(events.firstIndex { if case .warning = $0 { true } else { false } })
            let firstItemsIndex = try #require(events.firstIndex { if case .items = $0 { true } else { false } })
            #expect(firstItemsIndex < warningIndex)
            #expect(events.last == .finished)
        }
    }

    @Test func aStreamLineLongerThanTheCapIsSkippedAndTheNextLinesRead() async throws {
        try await withFixtureDirectory { directory in
            // One item, then a 20 MiB line of junk with no newline for a long while, then two more items.
            let script = """
                echo '{"id": "a", "content_text": "first"}'
                head -c 20971520 /dev/zero | tr '\\0' 'x'
                echo
                echo '{"id": "b", "content_text": "second"}'
                echo '{"id": "c", "content_text": "third"}'
                """
            try script.write(to: directory.appendingPathComponent("long.sh"), atomically: true, encoding: .utf8)
            let started = ContinuousClock.now
            let events = try await run(makeSource(["sh", "long.sh"], in: directory, stream: true))
            #expect(events.items.map(\.id) == ["a", "b", "c"])
            #expect(events.warnings.map(\.location) == ["line 2"])
            #expect(events.warnings.first?.message.contains("longer than 16 MiB") == true)
            #expect(events.last == .finished)
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test func argsEnvAndCwdReachTheProgram() async throws {
        try await withFixtureDirectory { directory in
            let sub = directory.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let events = try await run(
                makeSource(
                    ["sh", "../env.sh"],
                    in: directory,
                    args: ["from-args"],
                    env: ["GREETING": "hello", "PIDS": directory.appendingPathComponent("pids").path],
                    cwd: "sub"
                )
            )
            #expect(events.items.map(\.id) == ["from-args"])
            #expect(events.items.first?.title == "hello sub")
        }
    }

    @Test func everyEnvironmentVariableArrivesExactlyAsWritten() async throws {
        try await withFixtureDirectory { directory in
            // Each variable becomes one item whose title is the value the program saw.
            let script = #"""
                printf '{"version":"https://jsonfeed.org/version/1.1","title":"env","items":['
                sep=""
                for name in SHORT LONGER_NAME_HERE WITH_EQUALS UNICODE EMPTY HOME; do
                    eval "value=\${$name-unset}"
                    printf '%s{"id":"%s","title":"[%s]"}' "$sep" "$name" "$value"
                    sep=","
                done
                printf ']}'
                """#
            try script.write(to: directory.appendingPathComponent("vars.sh"), atomically: true, encoding: .utf8)
            let env = [
                "SHORT": "a", "LONGER_NAME_HERE": String(repeating: "v", count: 300), "WITH_EQUALS": "k=v; x=y",
                "UNICODE": "Brøndby – 東京", "EMPTY": "", "HOME": "/overridden/home",
            ]
            let events = try await run(makeSource(["sh", "vars.sh"], in: directory, env: env))
            #expect(events.last == .finished)
            let seen = Dictionary(uniqueKeysWithValues: events.items.map { ($0.id, $0.title ?? "") })
            #expect(seen == env.mapValues { "[\($0)]" })
        }
    }

    @Test func outputThatIsNoFeedFails() async throws {
        try await withFixtureDirectory { directory in
            let events = try await run(makeSource(["sh", "garbage.sh"], in: directory))
            let failure = try #require(events.failure)
            #expect(failure.description.contains("hello, this is plain text"))
            #expect(events.last == .failed(failure))
        }
    }

    @Test func noOutputIsAnEmptyFeed() async throws {
        try await withFixtureDirectory { directory in
            let events = try await run(makeSource(["sh", "empty.sh"], in: directory))
            #expect(events == [.started, .finished])
        }
    }

    // MARK: - Failures

    @Test func aNonZeroExitFailsWithTheStatusAndTheLastStderrLines() async throws {
        try await withFixtureDirectory { directory in
            let events = try await run(makeSource(["sh", "fail.sh"], in: directory))
            let failure = try #require(events.failure)
            #expect(failure.description.contains("exited with status 3"))
            #expect(failure.description.contains("fatal: the API token is missing"))
            #expect(failure.description.contains("starting up"))
            #expect(events.last == .failed(failure))
        }
    }

    @Test func aMissingProgramFails() async throws {
        try await withFixtureDirectory { directory in
            let onPath = try await run(makeSource(["no-such-command-anywhere"], in: directory))
            #expect(onPath.failure?.description.contains("not found on PATH") == true)
            let relative = try await run(makeSource(["./missing.sh"], in: directory))
            #expect(relative.failure?.reason == .fileNotFound(path: "./missing.sh"))
        }
    }

    @Test func aScriptWithoutAnInterpreterLineFailsInWords() async throws {
        try await withFixtureDirectory { directory in
            let script = directory.appendingPathComponent("no-shebang")
            try "echo hello\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            let events = try await run(makeSource(["./no-shebang"], in: directory))
            let failure = try #require(events.failure)
            #expect(failure.description.contains("./no-shebang"))
            #expect(failure.description.contains("#!/bin/sh"))
            #expect(!failure.description.contains("Errno"))
        }
    }

    @Test func aHangingScriptIsKilledAtItsTimeoutWithItsChild() async throws {
        try await withFixtureDirectory { directory in
            let clock = ContinuousClock()
            let start = clock.now
            let events = try await run(makeSource(["sh", "hang.sh"], in: directory, timeout: .seconds(1)))
            let elapsed = clock.now - start
            let failure = try #require(events.failure)
            #expect(failure.description.contains("timed out after 1s"))
            #expect(failure.description.contains("waiting forever"))
            // Killed at its 1 s timeout, long before the script's own 100 s: the bound is loose because other
            // tests running in parallel can hold the machine's two cores for seconds.
            #expect(elapsed < .seconds(30))
            let pids = recordedPIDs(in: directory)
            #expect(pids.count == 2)
            #expect(await survivors(of: pids) == [])
        }
    }

    @Test func cancellationEndsTheProgramAndItsChildWithinASecond() async throws {
        try await withFixtureDirectory { directory in
            let source = try makeSource(["sh", "hang.sh"], in: directory)
            let recorder = EventRecorder()
            let task = Task { try await source.run(into: recorder.sink) }
            let clock = ContinuousClock()
            let wait = clock.now + .seconds(10)
            while recordedPIDs(in: directory).count < 2, clock.now < wait {
                try await Task.sleep(for: .milliseconds(10))
            }
            let pids = recordedPIDs(in: directory)
            #expect(pids.count == 2)
            let cancelledAt = clock.now
            task.cancel()
            let result = await task.result
            // The rule's second, plus slack for a loaded test machine (the adapter itself needs the 0.4 s grace
            // period at most, for a program that ignores SIGTERM).
            #expect(clock.now - cancelledAt < .seconds(2))
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(await survivors(of: pids) == [])
        }
    }

    @Test func childrenLeftBehindByAProgramThatExitedAreEnded() async throws {
        try await withFixtureDirectory { directory in
            // The background child keeps stdout open after the script exits.
            let script = "echo $$ >> pids; sleep 100 & echo $! >> pids; cat rss.xml"
            try script.write(to: directory.appendingPathComponent("leave.sh"), atomically: true, encoding: .utf8)
            let clock = ContinuousClock()
            let start = clock.now
            let events = try await run(makeSource(["sh", "leave.sh"], in: directory))
            // Well before the 20 s timeout: the group is ended 0.5 s after the script exits.
            #expect(clock.now - start < .seconds(15))
            #expect(events.items.count == 3)
            #expect(events.last == .finished)
            let pids = recordedPIDs(in: directory)
            #expect(pids.count == 2)
            #expect(await survivors(of: pids) == [])
        }
    }
}
