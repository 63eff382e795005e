import Foundation
import Logging
import Subprocess
import SystemPackage
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
/// The program runs under swift-subprocess. Reading ends when the program exits: what it and its children wrote
/// by then is read, and children it left behind holding stdout do not keep the source waiting. On timeout (the
/// entry's `timeout`, less ``timeoutMargin`` when it is 2 s or more) and on cancellation the whole process group is
/// ended: `SIGTERM`, then `SIGKILL` after ``terminationGracePeriod``. Children left in the group after a normal
/// exit are killed too. A child that moves to a group or session of its own (`setsid`) leaves Tributary's reach.
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
        for (key, values) in [("command", options.command), ("args", options.args)]
        where values.contains(where: { $0.contains("\0") }) {
            throw SourceOptionError(key: key, message: "holds a NUL character (\\u0000), which no program can receive")
        }
        for (name, value) in options.env {
            let problem: String? =
                if name.isEmpty || name.contains("=") || name.contains("\0") {
                    "has the name \"\(name)\"; a variable's name is not empty and holds neither '=' nor NUL"
                } else if name.first?.isASCII == true, name.first?.isNumber == true {
                    "has the name \"\(name)\"; a variable's name does not start with a digit"
                } else if value.contains("\0") {
                    "\(name) holds a NUL character (\\u0000), which no program can receive"
                } else {
                    nil
                }
            if let problem { throw SourceOptionError(key: "env", message: problem) }
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
        let launch: Launch
        do {
            launch = try prepare()
        } catch let error as SourceError {
            await sink.failed(error)
            return
        }
        let progress = LockedValue(Progress())
        let timeout = options.timeout ?? Self.defaultTimeout
        // The pipeline cancels a source at the same `timeout`. Ending the program half a second early lets the
        // source report the timeout itself, with the program's last stderr lines, rather than be cut off.
        let limit = timeout >= .seconds(2) ? timeout - Self.timeoutMargin : timeout
        let ending: Ending
        do {
            ending = try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask { .exited(try await self.execute(launch, progress: progress, sink: sink)) }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return .timedOut
                }
                // Whichever ends first: the program (then the timer is stopped) or the timer (then the program's
                // task is cancelled, which has swift-subprocess end its group, waited for as the group closes).
                let first = try await group.next() ?? .timedOut
                group.cancelAll()
                return first
            }
        } catch let error as SubprocessError {
            progress.withLock { $0.endGroup() }
            await sink.failed(startFailure(error))
            return
        } catch {
            progress.withLock { $0.endGroup() }
            if Task.isCancelled {
                context.logger.info("exec source cancelled; its process group was ended")
                throw CancellationError()
            }
            throw error
        }
        // Children the program left behind in its group (a program that exited normally) are ended too.
        let outcome = progress.withLock { progress -> Progress in
            progress.endGroup()
            return progress
        }
        if Task.isCancelled {
            context.logger.info("exec source cancelled; its process group was ended")
            throw CancellationError()
        }
        log(progress.withLock { $0.stderr.finish() })
        if let failure = failure(ending, outcome, timeout: timeout) {
            await sink.failed(failure)
        } else {
            await sink.finished()
        }
    }

    // MARK: - Private

    /// Everything the program is started with, worked out (and checked) before it starts.
    private struct Launch: Sendable {
        var executable: FilePath
        var arguments: [String]
        var environment: [[UInt8]]
        var directory: FilePath
    }

    /// How the run ended.
    private enum Ending: Sendable {
        case exited(TerminationStatus)
        case timedOut
    }

    /// What the reading tasks learn, kept where the timeout and cancellation paths can read it too.
    private struct Progress: Sendable {
        /// The program's process id, which is also its process group's.
        var processGroup: pid_t?
        var stderr = StandardErrorTail()
        var outputError: SourceError?

        /// Sends `SIGKILL` to whatever is left of the program's group, once.
        mutating func endGroup() {
            if let processGroup { _ = kill(-processGroup, SIGKILL) }
            processGroup = nil
        }
    }

    /// The steps that end the program's whole group: `SIGTERM`, up to ``terminationGracePeriod`` to exit, then
    /// `SIGKILL` (swift-subprocess adds the last step, to the group too).
    private static let teardown: [TeardownStep] = [
        .gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: terminationGracePeriod)
    ]

    private func failure(_ ending: Ending, _ outcome: Progress, timeout: Duration) -> SourceError? {
        let command = commandDescription
        switch ending {
        case .timedOut:
            return SourceError(
                sourceID: id,
                reason: .other(
                    "\(command) timed out after \(DurationFormat.string(timeout)) and was ended with its children\(outcome.stderr.summary); raise \"timeout\" in feeds.json if the program is slow"
                )
            )
        case .exited(.exited(let status)) where status != 0:
            return SourceError(
                sourceID: id,
                reason: .other("\(command) exited with status \(status)\(outcome.stderr.summary)")
            )
        case .exited(.signaled(let signal)):
            return SourceError(
                sourceID: id,
                reason: .other("\(command) was killed by signal \(signal)\(outcome.stderr.summary)")
            )
        case .exited:
            return outcome.outputError
        }
    }

    /// A program that could not be started, in words.
    private func startFailure(_ error: SubprocessError) -> SourceError {
        let program = options.command[0]
        let detail: String
        if let errno = error.underlyingError {
            switch errno {
            case .execFormatError:
                detail = "is not a program this machine can run (a script needs a first line such as #!/bin/sh)"
            case .permissionDenied:
                detail = "could not be started: permission denied; make it executable with chmod +x"
            default:
                detail = "could not be started: \(String(cString: strerror(errno.rawValue)).lowercased())"
            }
        } else {
            detail = "could not be started"
        }
        return SourceError(sourceID: id, reason: .unreadable(path: program, detail: detail), underlying: error)
    }

    private var commandDescription: String {
        "'" + (options.command + options.args).joined(separator: " ") + "'"
    }

    /// Finds the program and the working directory, and builds its environment.
    private func prepare() throws -> Launch {
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
        // swift-subprocess hands each entry to `strdup`: it must end in its own NUL.
        return Launch(
            executable: FilePath(executable.path),
            arguments: Array(options.command.dropFirst()) + options.args,
            environment: environment.sorted { $0.key < $1.key }.map { Array("\($0.key)=\($0.value)\0".utf8) },
            directory: FilePath(directory.path)
        )
    }

    /// Runs the program in a process group of its own and reads stdout and stderr, each in its own task, until
    /// the program exits; swift-subprocess then reads what is left in the pipes and stops, even while children
    /// of the program still hold them. Cancelling the task ends the group with ``teardown``.
    private func execute(
        _ launch: Launch,
        progress: LockedValue<Progress>,
        sink: EventSink
    ) async throws -> TerminationStatus {
        var platformOptions = PlatformOptions()
        platformOptions.processGroupID = 0
        platformOptions.teardownSequence = Self.teardown
        let result = try await Subprocess.run(
            .path(launch.executable),
            arguments: Arguments(launch.arguments),
            environment: .custom(launch.environment),
            workingDirectory: launch.directory,
            platformOptions: platformOptions,
            input: .none,
            output: .sequence,
            error: .sequence
        ) { execution in
            let pid = execution.processIdentifier.value
            progress.withLock { $0.processGroup = pid }
            context.logger.debug(
                "exec source started",
                metadata: ["command": "\(commandDescription)", "pid": "\(pid)"]
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await self.readOutput(execution.standardOutput, progress: progress, sink: sink) {
                        // The output cannot be a feed: end the program rather than read the rest.
                        await execution.teardown(using: Self.teardown)
                    }
                }
                group.addTask {
                    for try await buffer in execution.standardError {
                        let lines = progress.withLock { $0.stderr.append(buffer.withUnsafeBytes { Array($0) }) }
                        self.log(lines)
                    }
                }
                try await group.waitForAll()
            }
        }
        return result.terminationStatus
    }

    /// Turns stdout into items as it arrives; `end` ends the program when the output cannot be a feed.
    private func readOutput(
        _ output: SubprocessOutputSequence,
        progress: LockedValue<Progress>,
        sink: EventSink,
        end: () async -> Void
    ) async throws {
        let reader = FeedOutputReader(sourceID: id, stream: options.stream)
        do {
            for try await buffer in output {
                let (items, warnings) = try reader.consume(buffer.withUnsafeBytes { Array($0) })
                for warning in warnings { await sink.send(.warning(warning)) }
                await sink.items(items)
            }
            // Cut short by a timeout or cancellation: what was read has been emitted; the rest is not a document.
            guard !Task.isCancelled else { return }
            let (items, warnings) = try reader.finish()
            for warning in warnings { await sink.send(.warning(warning)) }
            await sink.items(items)
        } catch let error as SourceError {
            progress.withLock { $0.outputError = error }
            await end()
        }
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
