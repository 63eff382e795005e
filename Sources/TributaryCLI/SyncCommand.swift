import ArgumentParser
import Foundation
import PostgresStore
import TributaryCore

/// `tributary sync`: load feeds.json into a shared PostgreSQL store, for a fleet of workers.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Load feeds.json into a shared PostgreSQL store for a fleet of `tributary worker` processes.",
        discussion: """
            Validates feeds.json as `validate` does, then, in one transaction: adds the new sources (due at once), \
            updates the changed ones (due at once), and disables those no longer listed or switched off. Workers \
            pick the new list up within a second. The store is --store, or feeds.json's "store".
            """
    )

    @OptionGroup var options: ConfigOptions

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("The shared store, postgres://user@host/database (default: feeds.json's \"store\").")
    )
    var store: String?

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try options.loadConfiguration(registry: registry)
        guard let url = store ?? configuration.state, PostgresLocation.isPostgresURL(url) else {
            throw ValidationError(
                "sync loads the feed list into a shared PostgreSQL store: give --store postgres://user@host/database, or \"store\" in feeds.json"
            )
        }
        let text: String
        do {
            text = try String(contentsOf: options.configURL, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read \(options.configPath) again: \(error.localizedDescription)")
        }
        let shared = try await StateStoreLocation.postgres(try PostgresLocation(url: url)).open(lockTimeout: nil)
        guard let postgres = shared as? PostgresStore else { return }
        do {
            let report = try await postgres.sync(
                configuration,
                text: text,
                file: options.configURL.path,
                at: RunClock.now()()
            )
            try await postgres.close()
            var parts: [String] = []
            if !report.added.isEmpty { parts.append("added \(Self.list(report.added))") }
            if !report.updated.isEmpty { parts.append("updated \(Self.list(report.updated))") }
            if !report.disabled.isEmpty { parts.append("disabled \(Self.list(report.disabled))") }
            parts.append("\(report.unchanged) unchanged")
            print("synced \(options.configPath) to \(postgres.location): " + parts.joined(separator: "; "))
        } catch {
            try? await postgres.close()
            throw error
        }
    }

    private static func list(_ ids: [SourceID]) -> String {
        let shown = ids.prefix(10).map(\.rawValue).joined(separator: ", ")
        return ids.count > 10 ? "\(ids.count) (\(shown), …)" : "\(ids.count) (\(shown))"
    }
}
