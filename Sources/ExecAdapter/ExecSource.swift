import Foundation
import Logging
public import TributaryCore

/// Runs an external program and reads a feed from its stdout: the `exec` kind, the language-neutral plugin route.
///
/// The program is started directly, without a shell, in a process group of its own, with stdin from `/dev/null`.
/// Its stdout is read as it arrives: RSS or Atom are streamed through the feed parser and their items emitted
/// chunk by chunk; a JSON Feed document is decoded when the program closes stdout; with `"stream": true` every line
/// is one JSON Feed item, emitted as soon as it is read, and a line that is not one is a warning. Each stderr line
/// goes to the log (level `info`), and the last ``StandardErrorTail/lineLimit`` lines are kept for messages.
///
/// The source fails (a `failed` event; items already emitted are kept) when the program cannot be found or
/// started, exits with a non-zero status or is killed by a signal, runs past its `timeout`, or prints something
/// that is not a feed; the message names the command, the exit status and the last stderr lines.
///
/// On timeout (the entry's `timeout`, less ``timeoutMargin`` when it is 2 s or more), on cancellation, and when a program that has exited leaves children holding its stdout open for
/// more than ``drainGracePeriod``, the whole process group is ended: `SIGTERM`, then `SIGKILL` after
/// ``terminationGracePeriod``. Children left in the group after a normal exit are killed too. A child that moves to
/// a group or session of its own (`setsid`) leaves Tributary's reach.
///
/// `command[0]` and `cwd` may name places outside the directory holding feeds.json: the feeds.json author chooses
/// which programs run, as they would in a shell.
public struct ExecSource: Source {
    public typealias Options = ExecOptions

    public static let kind = "exec"

    public static let documentation = SourceDocumentation(
        summary:
            "An external program that prints a feed (RSS, Atom or JSON Feed) or JSON lines of items on stdout.",
        options: [
            .init(
                "command",
                .stringArray,
                required: true,
                help:
                    "The program and its arguments, run without a shell, e.g. [\"./scripts/hn.sh\"]; a program name without '/' is looked up on PATH, a path is relative to the directory holding feeds.json.",
                title: "Command",
                examples: [#"["./scripts/hn.sh"]"#]
            ),
            .init(
                "args",
                .stringArray,
                default: "[]",
                help: "More arguments, after those in command.",
                title: "Arguments"
            ),
            .init(
                "env",
                .object,
                default: "{}",
                help: "Environment variables (strings) set for the program, on top of Tributary's environment.",
                title: "Environment"
            ),
            .init(
                "cwd",
                .string,
                help: "The working directory, relative to the directory holding feeds.json; that directory by default.",
                title: "Working directory"
            ),
            .init(
                "stream",
                .boolean,
                default: "false",
                help:
                    "true for a long-running program that prints JSON lines, one JSON Feed item per line, emitted as they come.",
                title: "JSON lines"
            ),
        ],
        example: #"{ "id": "hn-script", "kind": "exec", "command": ["./scripts/hn.sh"], "timeout": "30s" }"#
    )

    /// How long a program may run when the entry sets no `timeout`.
    public static let defaultTimeout: Duration = .seconds(60)
    /// How long the program has to exit after `SIGTERM` before its group gets `SIGKILL`.
    public static let terminationGracePeriod: Duration = .milliseconds(400)
    /// How much earlier than its `timeout` (of 2 s or more) a program is ended, so that the source reports the
    /// timeout before the pipeline's timer for the same `timeout` cancels it.
    public static let timeoutMargin: Duration = .milliseconds(500)
    /// How long, after the program exited, its children may keep stdout open before the group is ended.
    public static let drainGracePeriod: Duration = .milliseconds(500)

    public let id: SourceID
    /// The options from feeds.json.
    public let options: ExecOptions
    private let context: SourceContext

    /// Creates the source; checks the options and neither looks for the program nor starts it (SRC-1).
    /// - Throws: ``SourceOptionError`` for `command` when it is empty or its first element is, and for `timeout`
    ///   when it is zero.
    public init(id: SourceID, options: ExecOptions, context: SourceContext) throws {
        guard let program = options.command.first, !program.allSatisfy(\.isWhitespace) else {
            throw SourceOptionError(
                key: "command",
                message: "is empty; give the program and its arguments, e.g. [\"./scripts/feed.sh\"]"
            )
        }
        if let timeout = options.timeout, timeout <= .zero {
            throw SourceOptionError(key: "timeout", message: "must be longer than zero, e.g. \"30s\"")
        }
        if let cwd = options.cwd, cwd.isEmpty {
            throw SourceOptionError(key: "cwd", message: "is empty; leave it out to run in the directory of feeds.json")
        }
        self.id = id
        self.options = options
        self.context = context
    }

    // MARK: - Source

    /// Starts the program and emits `started`, items as its output is read, then `finished` or `failed`.
    /// - Throws: `CancellationError` when the task is cancelled; the program's group has been ended by then.
    public func run(into sink: EventSink) async throws {
        await sink.started()
        try Task.checkCancellation()
        let child: ChildProcess
        do {
            child = try start()
        } catch let error as SourceError {
            await sink.failed(error)
            return
        }
        let outcome: Outcome
        do {
            outcome = try await read(child, into: sink)
        } catch {
            child.end(grace: Self.terminationGracePeriod)
            context.logger.info("exec source cancelled; its process group was ended", metadata: ["pid": "\(child.pid)"])
            throw error
        }
        child.killRemainingGroup()
        if let failure = outcome.failure(sourceID: id, command: commandDescription) {
            await sink.failed(failure)
        } else {
            await sink.finished()
        }
    }

    // MARK: - Private

    /// What reading the program's output came to.
    private struct Outcome {
        var termination: ChildProcess.Termination?
        var timedOut: Duration?
        var outputError: SourceError?
        var stderr: StandardErrorTail

        func failure(sourceID: SourceID, command: String) -> SourceError? {
            if let timedOut {
                return SourceError(
                    sourceID: sourceID,
                    reason: .other(
                        "\(command) timed out after \(DurationFormat.string(timedOut)) and was ended with its children\(stderr.summary); raise \"timeout\" in feeds.json if the program is slow"
                    )
                )
            }
            switch termination {
            case .exited(let status)? where status != 0:
                return SourceError(
                    sourceID: sourceID,
                    reason: .other("\(command) exited with status \(status)\(stderr.summary)")
                )
            case .signalled(let signal)?:
                return SourceError(
                    sourceID: sourceID,
                    reason: .other("\(command) was killed by signal \(signal)\(stderr.summary)")
                )
            default:
                return outputError
            }
        }
    }

    private var commandDescription: String {
        "'" + (options.command + options.args).joined(separator: " ") + "'"
    }

    /// Finds the program and the working directory, and starts it.
    private func start() throws -> ChildProcess {
        let program = options.command[0]
        let executable = try resolveExecutable(program)
        let directory: URL
        if let cwd = options.cwd {
            directory = resolve(cwd)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw SourceError(
                    sourceID: id,
                    reason: .other(
                        "cwd \"\(cwd)\" is not a directory; check it, relative to the directory holding feeds.json"
                    )
                )
            }
        } else {
            directory = context.baseDirectory
        }
        var environment = ProcessInfo.processInfo.environment
        environment.merge(options.env) { _, new in new }
        do {
            let child = try ChildProcess(
                executable: executable,
                arguments: Array(options.command.dropFirst()) + options.args,
                environment: environment,
                directory: directory
            )
            context.logger.debug(
                "exec source started",
                metadata: ["command": "\(commandDescription)", "pid": "\(child.pid)"]
            )
            return child
        } catch {
            throw SourceError(
                sourceID: id,
                reason: .unreadable(path: program, detail: "could not be started: \(error.localizedDescription)"),
                underlying: error
            )
        }
    }

    /// Reads stdout and stderr until both end and the program has exited, or the timeout passes.
    private func read(_ child: ChildProcess, into sink: EventSink) async throws -> Outcome {
        let clock = ContinuousClock()
        let timeout = options.timeout ?? Self.defaultTimeout
        // The pipeline cancels a source at the same `timeout`. Ending the program half a second early lets the
        // source report the timeout itself, with the program's last stderr lines, rather than be cut off.
        let deadline = clock.now + (timeout >= .seconds(2) ? timeout - Self.timeoutMargin : timeout)
        let reader = FeedOutputReader(sourceID: id, stream: options.stream)
        var outcome = Outcome(stderr: StandardErrorTail())
        var exitedAt: ContinuousClock.Instant?
        var pause: Duration = .milliseconds(1)
        while !(child.outputClosed && !child.isRunning) {
            try Task.checkCancellation()
            var progressed = false
            if case .bytes(let bytes) = child.readStandardOutput() {
                progressed = true
                if outcome.outputError == nil {
                    do {
                        let (items, warnings) = try reader.consume(bytes)
                        for warning in warnings { await sink.send(.warning(warning)) }
                        await sink.items(items)
                    } catch {
                        // The output cannot be a feed: stop the program rather than read the rest.
                        outcome.outputError = error
                        child.end(grace: Self.terminationGracePeriod)
                    }
                }
            }
            if case .bytes(let bytes) = child.readStandardError() {
                progressed = true
                log(outcome.stderr.append(bytes))
            }
            if exitedAt == nil, !child.isRunning { exitedAt = clock.now }
            if let exitedAt, !child.outputClosed, clock.now - exitedAt > Self.drainGracePeriod {
                // The program is gone but a child of it still holds the pipes: end the group, read what is left.
                child.end(grace: Self.terminationGracePeriod)
            }
            if clock.now >= deadline {
                child.end(grace: Self.terminationGracePeriod)
                outcome.timedOut = timeout
                break
            }
            if progressed {
                pause = .milliseconds(1)
            } else {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(20))
            }
        }
        log(outcome.stderr.finish())
        // The kernel has seen the exit; Foundation's status follows once it has reaped the child.
        let reapingDeadline = clock.now + .seconds(2)
        while child.termination == nil, clock.now < reapingDeadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        outcome.termination = child.termination
        if outcome.timedOut == nil, outcome.outputError == nil {
            do {
                let (items, warnings) = try reader.finish()
                for warning in warnings { await sink.send(.warning(warning)) }
                await sink.items(items)
            } catch {
                outcome.outputError = error
            }
        }
        return outcome
    }

    private func log(_ lines: [String]) {
        for line in lines {
            context.logger.info("\(line)", metadata: ["stream": "stderr", "command": "\(options.command[0])"])
        }
    }

    private func resolve(_ path: String) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/")
            ? URL(fileURLWithPath: expanded) : context.baseDirectory.appendingPathComponent(expanded)
    }

    /// `command[0]`: a path (with a `/`) relative to the directory holding feeds.json, or a name looked up on the
    /// `PATH` the program will see.
    private func resolveExecutable(_ program: String) throws -> URL {
        let fileManager = FileManager.default
        if program.contains("/") {
            let url = resolve(program).standardizedFileURL
            guard fileManager.fileExists(atPath: url.path) else {
                throw SourceError(sourceID: id, reason: .fileNotFound(path: program))
            }
            guard fileManager.isExecutableFile(atPath: url.path) else {
                throw SourceError(
                    sourceID: id,
                    reason: .unreadable(path: program, detail: "not executable; make it so with chmod +x")
                )
            }
            return url
        }
        let path = options.env["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw SourceError(
            sourceID: id,
            reason: .other("command '\(program)' was not found on PATH; give its path, e.g. \"./\(program)\"")
        )
    }
}
