public import ArgumentParser

/// The `tributary` command line: the root command and its subcommands.
public struct TributaryCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tributary",
        abstract: "A feed aggregator: many sources in, one digest out."
    )

    public init() {}
}
