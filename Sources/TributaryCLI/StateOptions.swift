import ArgumentParser
import Foundation
import TributaryCore

/// `--state`, `--no-state` and `--state-timeout`: where `digest`, `summary` and `watch` keep what they remember.
struct StateOptions: ParsableArguments {
    @Option(
        name: .customLong("state"),
        help: ArgumentHelp(
            "The state store (SQLite) to use instead of feeds.json's \"state\" or .tributary/state.sqlite.",
            valueName: "path"
        )
    )
    var statePath: String?

    @Flag(name: .customLong("no-state"), help: "Keep everything in memory: read and write no state store.")
    var noState = false

    @Flag(
        name: .customLong("retry-failed"),
        help: "Fetch the sources that are backing off after failed runs now, instead of serving their stored items."
    )
    var retryFailed = false

    @Option(
        name: .customLong("state-timeout"),
        help: "How long to wait for another run that is using the state store (e.g. 30s, 2m)."
    )
    var stateTimeout: String = "60s"

    func validate() throws {
        if noState, statePath != nil {
            throw ValidationError("--state and --no-state contradict each other; give one of them")
        }
        guard DurationFormat.parse(stateTimeout) != nil else {
            throw ValidationError("--state-timeout must be a duration such as 30s or 2m")
        }
    }

    /// How long to wait for another run's lock.
    var lockTimeout: Duration {
        DurationFormat.parse(stateTimeout) ?? .seconds(60)
    }

    /// Where the run keeps its state: in memory for `--no-state`, else the file of ``storeURL(for:)``.
    func location(for configuration: FeedsConfiguration) -> StateStoreLocation {
        storeURL(for: configuration).map(StateStoreLocation.sqlite) ?? .memory
    }

    /// The store's file, or `nil` for `--no-state`: `--state` relative to the working directory, else feeds.json's
    /// `state` (or the default) relative to the directory holding feeds.json.
    func storeURL(for configuration: FeedsConfiguration) -> URL? {
        if noState { return nil }
        if let statePath {
            return URL(
                fileURLWithPath: statePath,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            ).standardizedFileURL
        }
        return configuration.stateURL
    }
}
