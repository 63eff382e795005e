import ArgumentParser
import Foundation
import Logging
import TributaryCore

/// The options every command that reads feeds.json shares.
struct ConfigOptions: ParsableArguments {
    @Option(name: [.short, .customLong("config")], help: "The feeds.json to read.")
    var configPath: String = "feeds.json"

    @Flag(name: [.short, .long], help: "Log what each source does (to standard error).")
    var verbose = false

    /// The config file as a URL, relative paths against the working directory.
    var configURL: URL {
        URL(fileURLWithPath: configPath, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
    }

    /// Loads and validates feeds.json. On failure prints every problem to standard error and throws exit code 2,
    /// before anything is fetched or written.
    func loadConfiguration(registry: SourceRegistry) throws -> FeedsConfiguration {
        do {
            return try ConfigurationLoader.load(contentsOf: configURL, displayPath: configPath, registry: registry)
        } catch let errors as ConfigurationErrors {
            for error in errors.errors { StandardError.write(error.description) }
            throw CLIExit.usage
        }
    }

    /// The logger for this run: warnings and errors by default, everything with `--verbose`.
    func makeLogger() -> Logger {
        Self.logger(verbose: verbose)
    }

    /// The logger of a command with `--verbose`.
    static func logger(verbose: Bool) -> Logger {
        var logger = Logger(label: "tributary") { label in TerminalLogHandler(label: label) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }
}

/// `--format` for the commands that render.
enum FormatOption: String, ExpressibleByArgument, CaseIterable {
    case html
    case markdown
    case text
    case json

    var outputFormat: OutputFormat {
        switch self {
        case .html: .html
        case .markdown: .markdown
        case .text: .text
        case .json: .json
        }
    }
}
