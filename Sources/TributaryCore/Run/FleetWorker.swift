public import Foundation
public import Logging

/// One `tributary worker`: claims due sources from a ``FleetQueue``, fetches each with the same adapters and
/// pipeline as `digest` into the shared store, records its health, and releases it with its next due time: the
/// per-source interval, or the backoff after failures, or later when the host sent `Retry-After`.
///
/// Many workers (on one machine or many) share one queue; per-host limits hold across all of them, because the
/// queue counts the leases of every worker. ``run(queue:draining:)`` returns once `draining` says so and what it
/// has claimed is finished and released: a SIGTERM'd worker exits cleanly without leaving sources to expire.
public struct FleetWorker: Sendable {
    public var registry: SourceRegistry
    public var logger: Logger
    /// This worker's name in leases and the fetch log: host, process and a random part.
    public var name: String
    /// How many sources this worker fetches at once.
    public var concurrency: Int
    /// How often a source is fetched when it succeeds (feeds.json's `interval` of a source overrides it).
    public var interval: Duration
    /// How long to wait between looks at the queue when nothing is due.
    public var pollInterval: Duration
    /// How long a lease outlasts the longest source timeout: time for the pipeline to save what it fetched.
    public var leaseMargin: Duration
    /// How failing sources back off.
    public var retryPolicy: RetryPolicy
    public var now: @Sendable () -> Date

    public init(
        registry: SourceRegistry,
        logger: Logger,
        name: String,
        concurrency: Int = 8,
        interval: Duration = .seconds(15 * 60),
        pollInterval: Duration = .seconds(1),
        leaseMargin: Duration = FleetWorker.defaultLeaseMargin,
        retryPolicy: RetryPolicy = RetryPolicy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.registry = registry
        self.logger = logger
        self.name = name
        self.concurrency = max(1, concurrency)
        self.interval = interval
        self.pollInterval = pollInterval
        self.leaseMargin = leaseMargin
        self.retryPolicy = retryPolicy
        self.now = now
    }

    /// The default ``leaseMargin``.
    public static let defaultLeaseMargin: Duration = .seconds(30)

    /// Works until `draining()` turns true, then finishes and releases what it claimed, and returns.
    /// A failure of the store (the server restarting, the network) is logged and retried; what was committed
    /// stays committed, and a lease the worker could not release expires.
    public func run(queue: any FleetQueue, draining: @escaping @Sendable () -> Bool) async {
        let inFlight = LockedValue(0)
        var loaded: LoadedList?
        await withDiscardingTaskGroup { group in
            while !draining() {
                do {
                    let known = loaded?.version
                    guard
                        let stored = try await Self.unlessDraining(
                            draining,
                            {
                                try await queue.fleetConfiguration(changedSince: known)
                            }
                        )
                    else { break }
                    if let current = stored {
                        let configuration = try ConfigurationLoader.load(
                            data: Data(current.text.utf8),
                            file: URL(fileURLWithPath: current.file),
                            registry: registry
                        )
                        loaded = LoadedList(
                            version: current.version,
                            configuration: configuration,
                            leaseMargin: leaseMargin
                        )
                        logger.info("feed list loaded", metadata: ["version": "\(current.version)"])
                    }
                    guard let list = loaded else {
                        logger.info("no feed list yet: run tributary sync")
                        try await Task.sleep(for: pollInterval)
                        continue
                    }
                    let free = concurrency - inFlight.value
                    var claimed: [SourceID] = []
                    if free > 0 {
                        let (worker, lease, perHost) = (name, list.lease, list.configuration.maxConnectionsPerHost)
                        let at = now()
                        // A claim that committed as the drain began still comes back: its sources are fetched.
                        claimed =
                            try await Self.unlessDraining(draining) {
                                try await queue.claim(
                                    limit: free,
                                    worker: worker,
                                    now: at,
                                    lease: lease,
                                    maxPerHost: perHost
                                )
                            } ?? []
                    }
                    for id in claimed {
                        inFlight.withLock { $0 += 1 }
                        group.addTask {
                            await fetchWithinLease(id, list: list, queue: queue)
                            inFlight.withLock { $0 -= 1 }
                        }
                    }
                    if claimed.isEmpty { try await Task.sleep(for: pollInterval) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("the shared store failed; trying again", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: pollInterval)
                }
            }
            logger.info("draining: finishing what this worker claimed", metadata: ["inFlight": "\(inFlight.value)"])
        }
    }

    /// Runs a call to the store unless the worker is told to drain first, for at most ``storeCallLimit``. A store
    /// that cannot be reached (its server stopped) keeps a call waiting for a connection until it comes back, and a
    /// connection lost mid-call can leave it waiting for good; a draining worker must not wait for it, and a worker
    /// must not stop working for it. Returns `nil` when the drain came first; the call's result when it finished
    /// anyway within ``stopGrace`` of it (a claim that committed).
    /// - Throws: what the call throws; ``StoreDidNotAnswer`` past ``storeCallLimit``.
    static func unlessDraining<T: Sendable>(
        _ draining: @escaping @Sendable () -> Bool,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let clock = ContinuousClock()
        let limit = clock.now + storeCallLimit
        let timedOut = LockedValue(false)
        let (ending, afterGrace) = await AbandonableTask.run(
            grace: stopGrace,
            expiry: {
                while !draining() {
                    if clock.now >= limit {
                        timedOut.withLock { $0 = true }
                        return
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            },
            { () -> Result<T, any Error> in
                do { return .success(try await operation()) } catch { return .failure(error) }
            }
        )
        switch ending {
        case .finished(let result): return try result.get()
        case .cancelled: throw CancellationError()
        case .expired:
            if timedOut.value { throw StoreDidNotAnswer(after: storeCallLimit) }
            return try? afterGrace?.get()
        }
    }

    /// How long a call of the worker's own to the store (the feed list, a claim) may take.
    static let storeCallLimit: Duration = .seconds(60)

    /// A call to the shared store that got no answer in time.
    struct StoreDidNotAnswer: Error, CustomStringConvertible {
        var after: Duration
        var description: String {
            "the shared store did not answer within \(DurationFormat.string(after)); check that its server is up and reachable"
        }
    }

    /// The feed list a worker runs, with what it derives from it once per version: the lease and each enabled
    /// source's entry by id.
    struct LoadedList: Sendable {
        var version: Int64
        var configuration: FeedsConfiguration
        /// The longest source timeout plus the lease margin.
        var lease: Duration
        var entries: [SourceID: SourceConfiguration]

        init(version: Int64, configuration: FeedsConfiguration, leaseMargin: Duration) {
            self.version = version
            self.configuration = configuration
            let longest = configuration.enabledSources.compactMap(\.timeout).max()
            lease = (longest ?? PipelineSettings().defaultTimeout) + leaseMargin
            entries = Dictionary(
                configuration.enabledSources.map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first }
            )
        }
    }

    /// Fetches one claimed source, for at most its lease: past it another worker may claim the source, and a fetch
    /// stuck in a call that never returns (a store that lost its server mid-transaction) would otherwise keep one of
    /// this worker's slots, and its drain, waiting forever. Such a fetch is stopped and left behind; its source is
    /// fetched again when the lease expires (items are keyed, so nothing is stored twice).
    func fetchWithinLease(_ id: SourceID, list: LoadedList, queue: any FleetQueue) async {
        let lease = list.lease
        let (ending, _) = await AbandonableTask.run(
            grace: Self.stopGrace,
            expiry: { try await Task.sleep(for: lease) },
            { await fetch(id, entry: list.entries[id], configuration: list.configuration, queue: queue) }
        )
        if case .expired = ending {
            var sourceLogger = logger
            sourceLogger[metadataKey: "source"] = "\(id)"
            sourceLogger.warning(
                "the fetch did not finish within its lease of \(DurationFormat.string(lease)) (the source or the store did not answer); it was stopped and the source will be fetched again"
            )
        }
    }

    /// How long a fetch stopped at the end of its lease may take to end before it is left behind.
    static let stopGrace: Duration = .seconds(1)

    /// Fetches one claimed source (`entry`: its enabled entry in the feed list) into the shared store and
    /// releases it.
    func fetch(
        _ id: SourceID,
        entry: SourceConfiguration?,
        configuration: FeedsConfiguration,
        queue: any FleetQueue
    ) async {
        let started = now()
        var sourceLogger = logger
        sourceLogger[metadataKey: "source"] = "\(id)"
        guard let entry else {
            try? await queue.release(
                id,
                worker: name,
                nextDue: started.addingTimeInterval(interval.timeInterval),
                fetch: FleetFetch(started: started, ended: started, outcome: "failed: not in the feed list")
            )
            return
        }
        do {
            let store = await queue.storeForRun()
            let context = SourceContext(
                logger: sourceLogger,
                baseDirectory: configuration.directory,
                allowsPathsOutsideBaseDirectory: configuration.allowPathsOutside,
                mode: .oneShot,
                now: now,
                savedState: try await store.checkpoint(for: id),
                // Per-host limits hold across the fleet through the queue; within this fetch one request runs.
                hostLimiter: HostLimiter(
                    maxConcurrentRequests: configuration.maxConnectionsPerHost,
                    minimumInterval: configuration.minimumHostInterval
                )
            )
            let source = try registry.makeSource(for: entry, context: context)
            // The items go to the store; the worker needs only the source's status.
            var settings = PipelineSettings(configuration: configuration, now: now)
            settings.holdsItems = false
            let pipeline = Pipeline(
                sources: [PipelineSource(source: source, configuration: entry)],
                settings: settings,
                store: store,
                logger: sourceLogger
            )
            let result = try await pipeline.run()
            let ended = now()
            let status = result.statuses.first
            let outcome =
                status.map { AggregationRun.outcome(of: $0, skipped: false) }
                ?? .failed(
                    reason: "did not finish",
                    retryAfter: nil
                )
            let health = try await store.recordOutcome(
                outcome,
                for: id,
                at: ended,
                policy: retryPolicy,
                entry: entry.fingerprint
            )
            try await store.close()
            let every = entry.interval ?? interval
            var nextDue = ended.addingTimeInterval(every.timeInterval)
            let text: String
            switch outcome {
            case .failed(let reason, let retryAfter):
                text = "failed: \(reason)"
                if let next = health.nextRetry, next > nextDue { nextDue = next }
                if let retryAfter, let host = entry.fetchHost {
                    try await queue.holdHost(host, until: ended.addingTimeInterval(retryAfter.timeInterval))
                }
                // A single failure is retried sooner than the interval: in a minute, or at the policy's retry.
                if health.consecutiveFailures == 1, retryAfter == nil {
                    nextDue = min(nextDue, ended.addingTimeInterval(60))
                }
            case .notModified: text = "not modified"
            case .succeeded, .skipped: text = "ok"
            }
            try await queue.release(
                id,
                worker: name,
                nextDue: nextDue,
                fetch: FleetFetch(started: started, ended: ended, outcome: text)
            )
            sourceLogger.debug("fetched", metadata: ["outcome": "\(text)", "nextDue": "\(nextDue)"])
        } catch {
            // The store failed mid-fetch: what was saved is saved; the lease expires and the source is fetched
            // again (items are keyed, so nothing is stored twice).
            sourceLogger.warning("fetch not recorded; it will be retried", metadata: ["error": "\(error)"])
        }
    }

}
