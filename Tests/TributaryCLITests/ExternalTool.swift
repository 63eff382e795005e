import Dispatch
import Foundation
import Testing

/// A program from the system (a validator, a browser) that some tests run. Such a test is skipped, with a message
/// saying what to install, only when the program is missing and `CI` is not `true`: on CI it always runs, so a
/// missing tool fails it rather than hiding it.
struct ExternalTool {
    /// The names to look for on `PATH`, in order.
    var names: [String]
    /// How to install it, for the skip message.
    var install: String

    /// Headless Chromium (Debian's `chromium`), which loads the HTML digest as a browser would.
    static let chromium = ExternalTool(
        names: ["chromium", "chromium-browser", "google-chrome"],
        install: "apt-get install chromium"
    )

    /// The program's path, or `nil` when it is not on `PATH`.
    var path: String? {
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
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether tests that need the program should run: it is installed, or this is CI (where its absence fails).
    var shouldRun: Bool { path != nil || Self.isCI }

    /// The message shown when the tests are skipped.
    var skipMessage: Comment {
        "\(names[0]) is not installed (\(install)); skipped because CI is not set"
    }

    /// Runs the program with `arguments`, feeding it `input`; returns its exit status, standard output and error.
    /// The program is terminated if it runs longer than `timeLimit` seconds, so a hung tool fails the test.
    func run(
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

    struct ToolError: Error, CustomStringConvertible {
        var description: String
    }
}
