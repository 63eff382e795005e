public import Foundation
public import Logging

/// What a run tells whoever shows its progress (the CLI's status line and per-source lines).
public protocol RunProgress: Sendable {
    /// The run is about to start these sources, in feeds.json order.
    func begin(sources: [(id: SourceID, title: String?)]) async
    /// One event of the pipeline.
    func handle(_ event: PipelineEvent) async
    /// The pipeline has finished.
    func end() async
}

/// Progress nobody watches.
public struct SilentRunProgress: RunProgress {
    public init() {}
    public func begin(sources: [(id: SourceID, title: String?)]) async {}
    public func handle(_ event: PipelineEvent) async {}
    public func end() async {}
}

/// One fetch of every enabled source through the pipeline into a ``StateStore``, as `digest` and `summary` do it.
///
/// The run hands every source its saved checkpoint, skips sources that are backing off (serving their stored items
/// instead), records each source's outcome and the digest's time, and prunes items older than feeds.json's
/// `retention`. It talks only to the ``StateStore`` protocol: the embedded SQLite store, a shared PostgreSQL store
/// and the in-memory store of `--no-state` all run it the same way. Opening the store (and its run lock) and
/// closing it are the caller's.
public struct AggregationRun: Sendable {
    public var configuration: FeedsConfiguration
    public var registry: SourceRegistry
    public var logger: Logger
    public var now: @Sendable () -> Date
    /// Limits the digest to items first seen after the date this returns for the run's time and the previous
    /// digest's (`--since`); `nil` keeps every item.
    public var since: (@Sendable (_ now: Date, _ previousDigestAt: Date?) -> Date?)?
    /// How failing sources back off across runs.
    public var retryPolicy: RetryPolicy
    /// `--retry-failed`: run the sources that are backing off now.
    public var retryFailed: Bool
    /// `false` for `--no-fetch`: render what the store holds (each source's current items, as a fleet of workers
    /// saved them) without fetching anything or recording any source's health.
    public var fetch: Bool = true

    /// Creates a run.
    public init(
        configuration: FeedsConfiguration,
        registry: SourceRegistry,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        since: (@Sendable (_ now: Date, _ previousDigestAt: Date?) -> Date?)? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(),
        retryFailed: Bool = false
    ) {
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
        self.now = now
        self.since = since
        self.retryPolicy = retryPolicy
        self.retryFailed = retryFailed
    }

    /// What a run produced: the pipeline's result and the digest built from it.
    public struct Outcome: Sendable {
        public var result: PipelineResult
        public var digest: Digest

        /// Whether any source failed (exit code 1).
        public var hasFailures: Bool { result.hasFailures }
    }

    /// Makes every enabled source (no I/O, by rule SRC-1), runs them, builds the digest and hands it to `deliver`
    /// (which shows or writes it). The store records the digest as shown only once `deliver` returned: a digest
    /// whose output could not be written is shown again by the next `--since last`.
    /// - Throws: ``ConfigurationErrors`` if a source cannot be constructed; what the store throws; what `deliver`
    ///   throws.
    public func run(
        store: any StateStore,
        progress: any RunProgress = SilentRunProgress(),
        deliver: (Outcome) async throws -> Void = { _ in }
    ) async throws -> Outcome {
        let startedAt = now()
        let savedStates = try await store.checkpoints()
        let entries = Dictionary(configuration.sources.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let backingOff =
            fetch
            ? try await backingOffSources(in: store, at: startedAt, entries: entries)
            : try await storedSources(in: store)
        let sources = try ConfiguredSources.make(
            configuration,
            registry: registry,
            logger: logger,
            mode: .oneShot,
            now: now,
            savedStates: savedStates,
            pipelineSource: { source, entry in
                PipelineSource(source: backingOff[entry.id].map { $0 as any Source } ?? source, configuration: entry)
            }
        )
        let previousDigestAt = try await store.lastDigestDate()
        let pipeline = Pipeline(
            sources: sources,
            settings: PipelineSettings(configuration: configuration, now: now),
            store: store,
            logger: logger
        )
        await progress.begin(sources: sources.map { ($0.source.id, $0.title) })
        let result = try await pipeline.run { event in await progress.handle(event) }
        await progress.end()
        let generatedAt = now()

        var health: [SourceID: DigestBuilder.Health] = [:]
        if !fetch {
            for (id, record) in try await store.allHealth() where record.consecutiveFailures > 0 {
                health[id] = DigestBuilder.Health(
                    consecutiveFailures: record.consecutiveFailures,
                    lastSuccess: record.lastSuccess,
                    nextRetry: record.nextRetry
                )
            }
        }
        for status in result.statuses where fetch {
            let outcome = Self.outcome(of: status, skipped: backingOff[status.sourceID] != nil)
            let record = try await store.recordOutcome(
                outcome,
                for: status.sourceID,
                at: generatedAt,
                policy: retryPolicy,
                entry: entries[status.sourceID]?.fingerprint
            )
            // A store of one run (`--no-state`) has no history worth a line in the digest.
            if store.keepsHistory {
                health[status.sourceID] = DigestBuilder.Health(
                    consecutiveFailures: record.consecutiveFailures,
                    lastSuccess: record.lastSuccess,
                    nextRetry: record.nextRetry
                )
            }
        }
        var items = result.items
        if let cutoff = since?(generatedAt, previousDigestAt) {
            items = items.filter { item in (item.tributary?.firstSeen).map { $0 > cutoff } ?? true }
        }
        let digest = DigestBuilder(
            title: configuration.title,
            timeZone: configuration.timeZone,
            generatedAt: generatedAt,
            previousDigestAt: previousDigestAt,
            health: health
        ).build(items: items, statuses: result.statuses)
        let outcome = Outcome(result: result, digest: digest)
        try await deliver(outcome)
        try await store.recordDigest(at: generatedAt)
        try await store.prune(notSeenSince: generatedAt.addingTimeInterval(-configuration.retention.timeInterval))
        return outcome
    }

    /// Stand-ins for every enabled source, each with its current stored items: `--no-fetch`.
    private func storedSources(in store: any StateStore) async throws -> [SourceID: BackoffSource] {
        var result: [SourceID: BackoffSource] = [:]
        for entry in configuration.enabledSources {
            let items = try await store.currentItems(from: entry.id).map(\.item)
            result[entry.id] = BackoffSource(id: entry.id, items: items, reason: nil)
        }
        return result
    }

    /// Stand-ins for the sources that are backing off at `date`, each with its current stored items. None with
    /// `--retry-failed`; none for a source whose entry changed since it failed (it was edited to fix it).
    private func backingOffSources(
        in store: any StateStore,
        at date: Date,
        entries: [SourceID: SourceConfiguration]
    ) async throws -> [SourceID: BackoffSource] {
        var result: [SourceID: BackoffSource] = [:]
        for (id, health) in try await store.allHealth() where health.isBackingOff(at: date) {
            let source: Logger.MetadataValue = "\(id)"
            if retryFailed {
                logger.debug("retrying now (--retry-failed) instead of backing off", metadata: ["source": source])
                continue
            }
            guard health.isBackingOff(at: date, entry: entries[id]?.fingerprint), let nextRetry = health.nextRetry
            else {
                logger.debug(
                    "its entry in feeds.json changed: fetching it instead of backing off",
                    metadata: ["source": source]
                )
                continue
            }
            logger.debug(
                "backing off: serving stored items",
                metadata: ["source": source, "failures": "\(health.consecutiveFailures)", "nextTry": "\(nextRetry)"]
            )
            let items = try await store.currentItems(from: id).map(\.item)
            let runs = health.consecutiveFailures
            var reason =
                "not fetched: backing off after \(runs) failed run\(runs == 1 ? "" : "s"); "
                + "next try \(Self.when(nextRetry, from: date, in: configuration.timeZone)), or now with --retry-failed"
            if let lastError = health.lastError { reason += " (last: \(lastError))" }
            result[id] = BackoffSource(id: id, items: items, reason: reason)
        }
        return result
    }

    /// "at 14:05 (in 12 min)", or with the day when it is not today.
    public static func when(_ date: Date, from now: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = calendar.isDate(date, inSameDayAs: now) ? "HH:mm" : "d MMM HH:mm"
        let time = formatter.string(from: date)
        let minutes = max(1, Int((date.timeIntervalSince(now) / 60).rounded(.up)))
        let wait = minutes < 120 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
        return "at \(time) (in \(wait))"
    }

    /// How a source's final status counts for its health.
    static func outcome(of status: SourceStatus, skipped: Bool) -> SourceHealth.Outcome {
        if skipped { return .skipped }
        switch status.state {
        case .succeeded:
            return .succeeded
        case .notModified:
            return .notModified
        case .failed(let error):
            var retryAfter: Duration?
            if case .throttled(_, _, let wait) = error.reason { retryAfter = wait }
            return .failed(reason: FeedText.collapseWhitespace(error.reasonDescription), retryAfter: retryAfter)
        case .pending, .running:
            return .failed(reason: "did not finish", retryAfter: nil)
        }
    }

}
