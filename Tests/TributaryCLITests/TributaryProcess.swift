import Foundation
import Testing

/// Runs the built `tributary` binary, as a user would, and captures what it prints.
struct TributaryProcess {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The `tributary` executable that `swift build` put beside the test bundle.
    static var executable: URL {
        get throws {
            var directory = Bundle.main.bundleURL
            if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
            for candidate in [directory, Bundle.main.bundleURL.deletingLastPathComponent()] {
                let url = candidate.appendingPathComponent("tributary")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
            throw ProcessError(
                description: "no tributary executable near \(Bundle.main.bundleURL.path); run `swift build` first"
            )
        }
    }

    struct ProcessError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tributary` with `arguments` in `directory`, with `environment` added to a minimal one (no terminal,
    /// fixed time unless overridden).
    /// `executable` and `arguments` replace the `tributary` binary and `arguments`, to run it through another
    /// program (such as `script`, for a terminal).
    static func run(
        _ arguments: [String],
        in directory: URL,
        environment: [String: String] = [:],
        standardInput: Data? = nil,
        executable other: URL? = nil,
        arguments otherArguments: [String]? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = try other ?? executable
        process.arguments = otherArguments ?? arguments
        process.currentDirectoryURL = directory
        var fullEnvironment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "SOURCE_DATE_EPOCH": "1795330800"]
        fullEnvironment.merge(environment) { _, new in new }
        process.environment = fullEnvironment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let standardInput { input.fileHandleForWriting.write(standardInput) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot fill a pipe and block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}

/// A fresh temporary directory holding copies of the named fixtures, removed when the test is done with it.
final class Workspace {
    let url: URL

    init(fixtures: [String] = []) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tributary-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in fixtures {
            let source = try #require(
                Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")
            )
            try FileManager.default.copyItem(at: source, to: url.appendingPathComponent(name))
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }

    /// The names of the files in the workspace, sorted.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// A `tributary` process left running (a worker), its output going to files in `directory`.
///
/// Started with `posix_spawn` and waited for with `waitpid` on its own pid: Foundation's `Process` did not always
/// notice one child's exit while others it had started were running (a fleet test waited for an exit that had
/// happened).
final class RunningTributary: Sendable {
    let pid: pid_t
    let outputFile: URL
    let errorFile: URL

    /// Starts `tributary` with `arguments`, its output in `directory`, in the working directory of the tests (the
    /// arguments must not name relative paths).
    init(_ arguments: [String], in directory: URL, name: String, environment: [String: String] = [:]) throws {
        outputFile = directory.appendingPathComponent("\(name).out")
        errorFile = directory.appendingPathComponent("\(name).err")
        let executable = try TributaryProcess.executable.path
        var fullEnvironment = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
        fullEnvironment.merge(environment) { _, new in new }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = fullEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw TributaryProcess.ProcessError(description: "could not start \(executable): error \(result)")
        }
        self.pid = pid
    }

    /// Sends `signal` (SIGTERM, SIGKILL).
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits up to `limit` for the process to exit; returns its exit status, or `nil` if it did not exit in time
    /// (then it is killed) or was killed by a signal.
    func wait(upTo limit: Duration) async throws -> Int32? {
        let clock = ContinuousClock()
        let end = clock.now + limit
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil }
            if reaped == -1, errno != EINTR { return nil }
            if clock.now >= end {
                send(SIGKILL)
                _ = waitpid(pid, &status, 0)
                return nil
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    var standardError: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// What the process has written to its standard output, read again every 100 ms until `done` holds for it or
    /// `limit` has passed.
    func output(upTo limit: Duration, until done: (String) async -> Bool) async throws -> String {
        let clock = ContinuousClock()
        let end = clock.now + limit
        var shown = ""
        while clock.now < end {
            shown = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            if await done(shown) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return shown
    }
}
