import ArgumentParser
public import TributaryCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point of the `tributary` executable, and of any executable that adds its own adapters.
///
/// A third-party package passes its adapters alongside the built-in ones:
///
/// ```swift
/// import TributaryCLI
/// await TributaryMain.run(sources: BuiltInSources.all + [NotesSource.self])
/// ```
public enum TributaryMain {
    /// The adapters the running command may use. A task-local rather than a global, so tests can run commands with
    /// their own registries side by side.
    @TaskLocal public static var sources: [any Source.Type] = BuiltInSources.all

    /// Parses the process arguments, runs the command and exits with its exit code.
    ///
    /// Unlike ArgumentParser's default (64), bad usage exits with 2, the code DESIGN.md gives it.
    public static func run(sources: [any Source.Type] = BuiltInSources.all) async -> Never {
        let code = await $sources.withValue(sources) {
            await execute(Array(CommandLine.arguments.dropFirst()))
        }
        exit(code)
    }

    /// Runs one command line and returns its exit code, printing what the command prints. Used by ``run(sources:)``
    /// and by tests.
    public static func execute(_ arguments: [String]) async -> Int32 {
        var command: any ParsableCommand
        do {
            command = try TributaryCommand.parseAsRoot(arguments)
        } catch {
            return report(error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return reportFailedRun(error)
        }
    }

    /// A command that parsed but failed while running: its message alone, never the usage text that belongs to a
    /// command line that did not parse.
    private static func reportFailedRun(_ error: any Error) -> Int32 {
        if let exitCode = error as? ExitCode { return exitCode.rawValue }
        if let problems = error as? ConfigurationErrors {
            // Every problem, one per line, before anything was fetched or written.
            for problem in problems.errors { StandardError.write(problem.description) }
            return CLIExit.usage.rawValue
        }
        if let storeFailure = error as? any StateStoreError {
            StandardError.write("tributary: \(storeFailure)")
            return CLIExit.sourceFailed.rawValue
        }
        if let validation = error as? ValidationError {
            StandardError.write("tributary: \(validation.message)")
            return CLIExit.usage.rawValue
        }
        // `--help` and `--version` reach here too: `parseAsRoot` returns a help command whose run throws the
        // parser's "help requested", which is not a `CleanExit` but exits with success.
        if error is CleanExit || TributaryCommand.exitCode(for: error) == .success { return report(error) }
        StandardError.write("tributary: \(TributaryCommand.message(for: error))")
        return CLIExit.sourceFailed.rawValue
    }

    private static func report(_ error: any Error) -> Int32 {
        let code = TributaryCommand.exitCode(for: error)
        if let exitCode = error as? ExitCode {
            return exitCode.rawValue
        }
        let message = TributaryCommand.fullMessage(for: error)
        if code == .success {
            // --help and --version
            if !message.isEmpty { print(message) }
            return 0
        }
        if !message.isEmpty { StandardError.write(message) }
        return code == .validationFailure ? CLIExit.usage.rawValue : code.rawValue
    }
}

/// The exit codes of DESIGN.md section 4.
enum CLIExit {
    /// Every source succeeded.
    static let success = ExitCode(0)
    /// Output was produced but a source failed; for `parse`, the input is not a feed.
    static let sourceFailed = ExitCode(1)
    /// Bad usage or invalid configuration.
    static let usage = ExitCode(2)
    /// The output was a pipe whose reader went away (`tributary summary | head`): nothing is printed, and the status
    /// is the one a shell reports for a program ended by SIGPIPE, as for any Unix tool.
    static let readerClosed = ExitCode(128 + 13)
}
