import ArgumentParser
import Foundation
import Logging
import PushAdapter
import Renderers
import TributaryCore

/// `tributary watch`: runs every source until interrupted and prints new items as they arrive.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run all sources until interrupted, printing each new item as it arrives.",
        discussion: """
            Push sources stay connected (reconnecting as needed); other sources are fetched at start and then \
            every --interval. Each new item is printed on standard output as one line: local time, source, title, \
            link. Source status changes and warnings go to standard error, with a status line on a terminal. \
            Items are deduplicated for the whole session, across reconnects and re-fetches. A slow terminal slows \
            the sources down rather than buffering without bound. Ctrl-C closes every connection and exits 0.

            Exit codes: 0 stopped by Ctrl-C; 2 bad usage or invalid configuration.
            """
    )

    /// Without a `maxItemsPerSource` in feeds.json, watch keeps at most this many items per source in memory.
    static let defaultMaxItemsPerSource = 1000

    @OptionGroup var config: ConfigOptions

    @OptionGroup var state: StateOptions

    @Option(help: "How often to fetch the sources that do not push (e.g. 30s, 15m, 1h).")
    var interval: String = "15m"

    func validate() throws {
        guard let duration = DurationFormat.parse(interval), duration > .zero else {
            throw ValidationError("--interval must be a positive duration such as 30s, 15m or 1h")
        }
    }

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try config.loadConfiguration(registry: registry)
        let logger = config.makeLogger()
        let interval = DurationFormat.parse(interval) ?? .seconds(900)
        // Watch runs for hours, so it takes no run lock (a digest from cron may run meanwhile); SQLite's own
        // locking keeps every write whole.
        let store = try await state.location(for: configuration).open(lockTimeout: nil)
        if state.noFetch {
            try await watchStore(store, configuration: configuration, interval: interval)
            return
        }
        // Only a live source resumes from its saved checkpoint (its cursor). A pull source starts without the
        // validators a digest saved: `watch` begins with what every feed holds now, whether or not it changed since
        // that digest (answered `304` on them, a feed showed nothing until it changed), and then polls
        // conditionally on the validators of its own fetches (``PollingSource``).
        let live = Set(
            configuration.enabledSources.filter { registry.sourceType(forKind: $0.kind) is PushSource.Type }.map(\.id)
        )
        let savedStates = try await store.checkpoints().filter { live.contains($0.key) }
        let sources = try ConfiguredSources.make(
            configuration,
            registry: registry,
            logger: logger,
            mode: .live,
            savedStates: savedStates,
            pipelineSource: { source, entry in
                let polling = PollingSource(
                    inner: source,
                    interval: interval,
                    fetchTimeout: source is PushSource ? nil : (entry.timeout ?? PipelineSettings().defaultTimeout)
                )
                var pipelineSource = PipelineSource(source: polling, configuration: entry)
                // The wrapper runs until cancelled; each fetch has its own timeout inside it.
                pipelineSource.timeout = .seconds(100 * 365 * 86_400)
                return pipelineSource
            }
        )
        var settings = PipelineSettings(configuration: configuration)
        settings.maxItemsPerSource = configuration.maxItemsPerSource ?? Self.defaultMaxItemsPerSource
        // Items are printed as they arrive and kept by the store: a watch that runs for days holds only outlines.
        settings.holdsItems = false
        let pipeline = Pipeline(
            sources: sources,
            settings: settings,
            store: store,
            logger: logger
        )
        let printer = WatchPrinter(
            sources: sources.map { ($0.id, $0.title) },
            timeZone: TimeZone.current,
            live: Terminal.isTerminal(2)
        )
        await printer.begin()
        do {
            _ = try await SignalTrap.runUntilInterrupted {
                _ = try await pipeline.run { event in await printer.handle(event) }
            }
        } catch is CancellationError {
        }
        await printer.end()
        try await store.close()
    }

    /// `watch --no-fetch`: shows the items a fleet of workers saves, as they appear in the store (looked at every
    /// `--interval`), without fetching anything: the items of the last `--interval` first, then each new one.
    private func watchStore(
        _ store: any StateStore,
        configuration: FeedsConfiguration,
        interval: Duration
    ) async throws {
        let enabled = Set(configuration.enabledSources.map(\.id))
        let printer = WatchPrinter(
            sources: configuration.enabledSources.map { ($0.id, $0.title) },
            timeZone: TimeZone.current,
            live: Terminal.isTerminal(2)
        )
        await printer.begin()
        let start = Date().addingTimeInterval(-interval.timeInterval)
        do {
            _ = try await SignalTrap.runUntilInterrupted {
                var after = start
                while true {
                    let fresh = try await store.items()
                        .filter { enabled.contains($0.sourceID) && $0.firstSeen > after }
                        .sorted { $0.firstSeen < $1.firstSeen }
                    if let newest = fresh.last?.firstSeen { after = newest }
                    if !fresh.isEmpty { await printer.handle(.itemsAdded(fresh.map(\.item))) }
                    try await Task.sleep(for: interval)
                }
            }
        } catch is CancellationError {
        }
        await printer.end()
        try await store.close()
    }
}
