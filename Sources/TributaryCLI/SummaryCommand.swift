import ArgumentParser
import Foundation
import TributaryCore

/// `tributary summary`: fetch every source and print a Markdown summary.
struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Fetch all sources and print a Markdown summary on standard output.",
        discussion: """
            Exit codes: 0 all sources succeeded; 1 the summary was printed but a source failed; 2 bad usage or \
            invalid configuration (nothing fetched).
            """
    )

    @OptionGroup var options: ConfigOptions

    @OptionGroup var state: StateOptions

    @OptionGroup var window: SinceOptions

    @Flag(name: [.short, .long], help: "Report only failures and warnings on standard error.")
    var quiet = false

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try options.loadConfiguration(registry: registry)
        let run = AggregationRun(
            configuration: configuration,
            registry: registry,
            options: options,
            state: state,
            since: window.since
        )
        let outcome = try await run.run(
            in: try state.location(for: configuration),
            lockTimeout: state.lockTimeout,
            progress: ProgressReporter(quiet: quiet)
        ) { outcome in
            try await OutputFile.writing(to: "-") {
                try await DigestCommand.draw(outcome, with: RendererFactory.make(.markdown), to: $0)
            }
        }
        if outcome.hasFailures { throw CLIExit.sourceFailed }
    }
}
