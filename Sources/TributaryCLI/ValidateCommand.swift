import ArgumentParser
import Foundation
import TributaryCore

/// `tributary validate`: check feeds.json without fetching anything.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feeds.json without fetching anything.",
        discussion: """
            Checks the JSON syntax, every key and value, and each source's own options. Every problem is printed as
            FILE:LINE:COLUMN: source 'ID': "key": what is wrong and how to fix it.

            Exit codes: 0 the configuration is valid; 2 it is not (or the file cannot be read).
            """
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try options.loadConfiguration(registry: registry)
        let enabled = configuration.enabledSources.count
        let count = configuration.sources.count
        var lines = [
            "\(options.configPath) is valid: \(count) source\(count == 1 ? "" : "s")"
                + (enabled == count ? "" : " (\(enabled) enabled)")
        ]
        for source in configuration.sources {
            lines.append("  \(source.id) (\(source.kind))\(source.enabled ? "" : ", disabled")")
        }
        print(lines.joined(separator: "\n"))
    }
}
