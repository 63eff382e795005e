import ArgumentParser
import Foundation
import PostgresStore
import Renderers
import TributaryCore

/// `tributary validate`: check feeds.json without fetching anything.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feeds.json without fetching anything.",
        discussion: """
            Checks the JSON syntax, every key and value, and each source's own options. Every problem is printed as \
            FILE:LINE:COLUMN: source 'ID': "key": what is wrong and how to fix it.

            Exit codes: 0 the configuration is valid; 2 it is not (or the file cannot be read).
            """
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try options.loadConfiguration(registry: registry)
        // What digest checks before it fetches, beyond the file itself: the template and the state's directory.
        var problems: [String] = []
        if let template = configuration.template {
            let url = URL(fileURLWithPath: template, relativeTo: configuration.directory).standardizedFileURL
            do {
                _ = try HTMLTemplate(contentsOf: url, displayPath: template)
            } catch {
                problems.append("\(options.configPath): \"template\": \(error.description)")
            }
        }
        var location = StateStoreLocation.sqlite(configuration.stateURL)
        if let store = configuration.state, FeedsConfiguration.isDatabaseURL(store) {
            do {
                location = .postgres(try PostgresLocation(url: store))
            } catch {
                problems.append("\(options.configPath): \"store\": \(error)")
            }
        } else if let problem = Self.stateDirectoryProblem(configuration.stateURL) {
            problems.append("\(options.configPath): \"store\": \(configuration.stateURL.path): \(problem)")
        }
        if !problems.isEmpty {
            StandardError.write(problems.joined(separator: "\n"))
            throw CLIExit.usage
        }
        let health = await Self.backoff(in: location)
        let now = RunClock.now()()
        let enabled = configuration.enabledSources.count
        let count = configuration.sources.count
        var lines = [
            "\(options.configPath) is valid: \(count) source\(count == 1 ? "" : "s")"
                + (enabled == count ? "" : " (\(enabled) enabled)")
        ]
        for source in configuration.sources {
            var line = "  \(source.id) (\(source.kind))\(source.enabled ? "" : ", disabled")"
            if let record = health[source.id], record.isBackingOff(at: now, entry: source.fingerprint),
                let next = record.nextRetry
            {
                let runs = record.consecutiveFailures
                line +=
                    ": backing off after \(runs) failed run\(runs == 1 ? "" : "s"), next try "
                    + AggregationRun.when(next, from: now, in: configuration.timeZone)
                    + " (digest --retry-failed tries it now)"
            }
            lines.append(line)
        }
        print(lines.joined(separator: "\n"))
    }

    /// Why the state store could not be created at `url`: the nearest existing folder on its path must be a
    /// writable directory (digest creates the missing ones).
    static func stateDirectoryProblem(_ url: URL) -> String? {
        var directory = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
        if !isDirectory.boolValue {
            return "\(directory.path) is a file, not a directory; choose another \"store\" path"
        }
        if !FileManager.default.isWritableFile(atPath: directory.path) {
            return "cannot create it: \(directory.path) is not writable; choose another \"store\" path"
        }
        return nil
    }

    /// The sources' health in the state store, when there is one (nothing when it cannot be read).
    private static func backoff(in location: StateStoreLocation) async -> [SourceID: SourceHealth] {
        if case .sqlite(let url) = location, !FileManager.default.fileExists(atPath: url.path) { return [:] }
        guard let store = try? await location.open(quietly: true, lockTimeout: .seconds(2)) else { return [:] }
        let health = (try? await store.allHealth()) ?? [:]
        try? await store.close()
        return health
    }
}
