import ArgumentParser
import Foundation
import Logging
import PostgresStore
import TributaryCore
import UnixSignals

/// `tributary worker`: one of a fleet of processes that fetch the sources of a shared store.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Fetch the sources of a shared PostgreSQL store, as one of a fleet of workers.",
        discussion: """
            Runs until SIGTERM or Ctrl-C. Claims due sources with FOR UPDATE SKIP LOCKED under leases that expire, \
            fetches them with the same adapters and pipeline as digest, saves items, checkpoints and health, and \
            releases each with its next due time (its "interval", or --interval; the backoff after failures; a \
            host's Retry-After). Per-host limits (feeds.json's maxConnectionsPerHost) hold across the whole fleet. \
            A worker that dies loses its leases when they expire; another worker takes its sources. SIGTERM \
            drains: what is claimed is finished and released, then the worker exits 0 (a second signal stops it at \
            once). Load the feed list with `tributary sync`; read the results with `digest --no-fetch`.
            """
    )

    @Option(name: .customLong("store"), help: ArgumentHelp("The shared store, postgres://user@host/database."))
    var store: String

    @Option(help: "How many sources this worker fetches at once.")
    var concurrency: Int = 8

    @Option(help: "How often a source is fetched, unless its \"interval\" says otherwise (e.g. 15m, 1h).")
    var interval: String = "15m"

    @Option(help: "How often to look for due sources when there is nothing to do (e.g. 1s).")
    var poll: String = "1s"

    @Option(
        name: .customLong("lease-margin"),
        help: "How long a claim outlasts the longest source timeout before another worker may take it (e.g. 30s)."
    )
    var leaseMargin: String = "30s"

    @Flag(name: [.short, .long], help: "Log what the worker and each source do (to standard error).")
    var verbose = false

    func validate() throws {
        guard PostgresLocation.isPostgresURL(store) else {
            throw ValidationError(
                "--store must be a postgres://user@host/database URL: workers share a PostgreSQL store"
            )
        }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be 1 or more") }
        guard let every = DurationFormat.parse(interval), every > .zero else {
            throw ValidationError("--interval must be a positive duration such as 15m")
        }
        guard let wait = DurationFormat.parse(poll), wait > .zero else {
            throw ValidationError("--poll must be a positive duration such as 1s")
        }
        guard let margin = DurationFormat.parse(leaseMargin), margin > .zero else {
            throw ValidationError("--lease-margin must be a positive duration such as 30s")
        }
    }

    func run() async throws {
        let logger = ConfigOptions.logger(verbose: verbose)
        let shared = try await StateStoreLocation.postgres(try PostgresLocation(url: store)).open(lockTimeout: nil)
        guard let postgres = shared as? PostgresStore else { return }
        let name = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(6).lowercased())"
        let worker = FleetWorker(
            registry: SourceRegistry(TributaryMain.sources),
            logger: logger,
            name: name,
            concurrency: concurrency,
            interval: DurationFormat.parse(interval) ?? .seconds(900),
            pollInterval: DurationFormat.parse(poll) ?? .seconds(1),
            leaseMargin: DurationFormat.parse(leaseMargin) ?? FleetWorker.defaultLeaseMargin,
            // Real time, whatever SOURCE_DATE_EPOCH says: leases and due times are about the clock on the wall.
            now: { Date() }
        )
        let draining = LockedValue(false)
        logger.info("worker started", metadata: ["worker": "\(name)", "store": "\(postgres.location)"])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The first SIGTERM or SIGINT drains; a second one stops the worker at once.
                var signals = await UnixSignalsSequence(trapping: .sigterm, .sigint).makeAsyncIterator()
                guard await signals.next() != nil else { return }
                draining.withLock { $0 = true }
                StandardError.write("tributary: worker: draining (finishing what it claimed); signal again to stop now")
                guard await signals.next() != nil else { return }
                Foundation.exit(CLIExit.sourceFailed.rawValue)
            }
            await worker.run(queue: postgres, draining: { draining.value })
            group.cancelAll()
        }
        try await postgres.close()
        logger.info("worker stopped", metadata: ["worker": "\(name)"])
    }
}
