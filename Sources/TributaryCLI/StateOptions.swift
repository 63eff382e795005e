import ArgumentParser
import Foundation
import PostgresStore
import TributaryCore

/// `--store` (or `--state`), `--no-state` and `--state-timeout`: where `digest`, `summary` and `watch` keep what
/// they remember.
struct StateOptions: ParsableArguments {
    @Option(
        name: [.customLong("store"), .customLong("state")],
        help: ArgumentHelp(
            "The state store instead of feeds.json's \"store\" or .tributary/state.sqlite: a SQLite file, or a PostgreSQL database shared by several machines (postgres://user@host/database; the password from PGPASSWORD or ~/.pgpass).",
            valueName: "path|url"
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

    @Flag(
        name: .customLong("no-fetch"),
        help:
            "Fetch nothing: show what the store holds, as a fleet of `tributary worker` processes saved it (digest, summary; watch shows new items as they are saved)."
    )
    var noFetch = false

    @Option(
        name: .customLong("state-timeout"),
        help: "How long to wait for another run that is using the state store (e.g. 30s, 2m)."
    )
    var stateTimeout: String = "60s"

    func validate() throws {
        if noState, statePath != nil {
            throw ValidationError("--store and --no-state contradict each other; give one of them")
        }
        if noFetch, noState {
            throw ValidationError("--no-fetch shows what a store holds, and --no-state uses none; give one of them")
        }
        guard DurationFormat.parse(stateTimeout) != nil else {
            throw ValidationError("--state-timeout must be a duration such as 30s or 2m")
        }
    }

    /// How long to wait for another run's lock.
    var lockTimeout: Duration {
        DurationFormat.parse(stateTimeout) ?? .seconds(60)
    }

    /// Where the run keeps its state: in memory for `--no-state`; a PostgreSQL database when `--store` or
    /// feeds.json's `store` is a `postgres://` URL; else the file of ``storeURL(for:)``.
    /// - Throws: ``PostgresStoreError`` for a URL that cannot be used.
    func location(for configuration: FeedsConfiguration) throws -> StateStoreLocation {
        if noState { return .memory }
        if let url = statePath ?? configuration.state, PostgresLocation.isPostgresURL(url) {
            return .postgres(try PostgresLocation(url: url))
        }
        return storeURL(for: configuration).map(StateStoreLocation.sqlite) ?? .memory
    }

    /// The store's file, or `nil` for `--no-state`: `--store` relative to the working directory, else feeds.json's
    /// `store` (or the default) relative to the directory holding feeds.json.
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
