public import ArgumentParser

/// The `tributary` command line: the root command and its subcommands.
public struct TributaryCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tributary",
        abstract: "A feed aggregator: many sources in, one digest out.",
        discussion: """
            Sources are listed in feeds.json (`tributary sources` lists the kinds
            and their options). Progress and errors go to standard error; results
            to standard output or the output file.

            Exit codes:
              0  every source succeeded
              1  output was produced, but a source failed (each is named on
                 standard error and in the digest); for `parse`: the input is
                 not a feed or could not be read
              2  bad usage or invalid configuration: nothing was fetched and
                 nothing was written
            """,
        version: TributaryVersion.current,
        subcommands: [
            DigestCommand.self,
            SummaryCommand.self,
            ParseCommand.self,
            ValidateCommand.self,
            AddCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            SourcesCommand.self,
            WatchCommand.self,
            SyncCommand.self,
            WorkerCommand.self,
            SimulateCommand.self,
            SchemaCommand.self,
        ]
    )

    public init() {}

    /// `tributary` alone is a command line without a command: the help, on standard error, and exit 2.
    public func run() async throws {
        StandardError.write(Self.helpMessage())
        throw CLIExit.usage
    }
}

/// The version `tributary --version` prints.
public enum TributaryVersion {
    public static let current = "0.1.0"
}
