import Dispatch
import Foundation
public import Testing

/// A program from the system (a validator, a browser) that some tests run. Such a test is skipped, with a message
/// saying what to install, only when the program is missing and `CI` is not `true`: on CI it always runs, so a
/// missing tool fails it rather than hiding it.
public struct ExternalTool: Sendable {
    /// The names to look for on `PATH`, in order.
    public var names: [String]
    /// How to install it, for the skip message.
    public var install: String

    /// Describes a program: the names to look for on `PATH`, in order, and how to install it.
    public init(names: [String], install: String) {
        self.names = names
        self.install = install
    }

    /// The program's path, or `nil` when it is not on `PATH`.
    public var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Whether this is a CI run (`CI=true`), where every tool must be present.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether tests that need the program should run: it is installed, or this is CI (where its absence fails).
    public var shouldRun: Bool { path != nil || Self.isCI }

    /// The message shown when the tests are skipped.
    public var skipMessage: Comment {
        "\(names[0]) is not installed (\(install)); skipped because CI is not set"
    }

    /// Runs the program with `arguments`, feeding it `input`; returns its exit status, standard output and error.
    /// The program is terminated if it runs longer than `timeLimit` seconds, so a hung tool fails the test.
    public func run(
        _ arguments: [String],
        input: String = "",
        timeLimit: Double = 120
    ) throws -> (status: Int32, output: String, error: String) {
        guard let path else {
            throw ToolError(description: "\(names[0]) is not installed; CI=true requires it (\(install))")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
        defer { watchdog.cancel() }
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try inputPipe.fileHandleForWriting.close()
        let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
        let error = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self)
        )
    }

    /// The program is missing on CI.
    public struct ToolError: Error, CustomStringConvertible {
        /// What is missing and how to install it.
        public var description: String
    }
}
