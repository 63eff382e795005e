import ArgumentParser
import Foundation
import Logging
import PostgresStore
import SQLiteStore
import TributaryCore

/// Where a command keeps what it remembers: nowhere (`--no-state`), a SQLite file, or a PostgreSQL database. The
/// one place the CLI opens a ``StateStore``.
enum StateStoreLocation: Sendable, Equatable {
    case memory
    case sqlite(URL)
    case postgres(PostgresLocation)

    /// The location as `--store` and messages name it.
    var description: String {
        switch self {
        case .memory: "memory (--no-state)"
        case .sqlite(let url): url.path
        case .postgres(let location): "\(location)"
        }
    }

    /// Opens the store: creates and migrates it, and takes its run lock when `lockTimeout` is set (waiting that long
    /// for another run).
    /// - Throws: ``CLIExit/usage`` after printing why the store cannot be opened (unless `quietly`).
    func open(quietly: Bool = false, lockTimeout: Duration?) async throws -> any StateStore {
        do {
            switch self {
            case .memory:
                return InMemoryItemStore()
            case .sqlite(let url):
                return try await SQLiteStore.open(at: url, runLockTimeout: lockTimeout)
            case .postgres(let location):
                return try await PostgresStore.open(location, runLockTimeout: lockTimeout)
            }
        } catch let error as any StateStoreError {
            if !quietly { StandardError.write("tributary: \(error)") }
            throw CLIExit.usage
        }
    }
}

extension AggregationRun {
    /// The run a command asks for with its `options` and `--since`: the logger of `--verbose`, ``RunClock`` and
    /// `--retry-failed`.
    init(
        configuration: FeedsConfiguration,
        registry: SourceRegistry,
        options: ConfigOptions,
        state: StateOptions,
        since: SinceOption?
    ) {
        self.init(
            configuration: configuration,
            registry: registry,
            logger: options.makeLogger(),
            now: RunClock.now(),
            since: since?.cutoffRule,
            retryFailed: state.retryFailed
        )
        fetch = !state.noFetch
        // Commands draw their digest from the store a batch at a time: memory flat in the number of items.
        holdsItems = false
    }

    /// Opens the store at `location` (its run lock waits up to `lockTimeout`), runs under the run-wide deadline
    /// (``RunDeadline``) and closes the store.
    /// - Throws: ``CLIExit/usage`` after printing the problem, if the store cannot be opened;
    ///   ``ConfigurationErrors`` if a source cannot be made; the store's ``StateStoreError`` if it fails during the
    ///   run (``TributaryMain`` prints both); what `deliver` throws.
    func run(
        in location: StateStoreLocation,
        lockTimeout: Duration,
        progress: any RunProgress,
        deliver: (Outcome) async throws -> Void = { _ in }
    ) async throws -> Outcome {
        let store = try await location.open(lockTimeout: lockTimeout)
        let (limit, explanation) = RunDeadline.limit(
            for: configuration,
            defaultSourceTimeout: PipelineSettings(configuration: configuration, now: now).defaultTimeout
        )
        let deadline = RunDeadline(after: limit, explanation: explanation)
        defer { deadline.disarm() }
        do {
            let outcome = try await run(store: store, progress: progress, deliver: deliver)
            try await store.close()
            return outcome
        } catch {
            try? await store.close()
            throw error
        }
    }
}
