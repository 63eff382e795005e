import ArgumentParser
import Foundation
import Logging
import SQLiteStore
import TributaryCore

/// One fetch of every enabled source through the pipeline, as `digest` and `summary` do it.
///
/// With a state store (the default) the run takes the store's run lock, hands every source its saved checkpoint,
/// skips sources that are backing off (serving their stored items instead), records each source's outcome and the
/// digest's time, and prunes items older than feeds.json's `retention`. Without one (`--no-state`) everything lives
/// in memory for this run only.
struct AggregationRun {
    var configuration: FeedsConfiguration
    var registry: SourceRegistry
    var logger: Logger
    var now: @Sendable () -> Date = { Date() }
    /// The state store's file; `nil` keeps everything in memory.
    var storeURL: URL?
    /// How long to wait for another run that holds the store.
    var lockTimeout: Duration = .seconds(60)
    /// Limits the digest to items first seen after this point.
    var since: SinceOption?
    /// How failing sources back off across runs.
    var retryPolicy = RetryPolicy()
    /// `--retry-failed`: run the sources that are backing off now.
    var retryFailed = false

    /// What a run produced: the pipeline's result and the digest built from it.
    struct Outcome {
        var result: PipelineResult
        var digest: Digest

        /// Whether any source failed (exit code 1).
        var hasFailures: Bool { result.hasFailures }
    }

    /// Makes every enabled source (no I/O, by rule SRC-1), runs them, builds the digest and hands it to `deliver`
    /// (which shows or writes it). The state records the digest as shown only once `deliver` returned: a digest
    /// whose output could not be written is shown again by the next `--since last`.
    /// - Throws: ``CLIExit/usage`` after printing the problem, if a source cannot be constructed or the state store
    ///   cannot be opened; `ExitCode.failure` after printing it, if the store fails during the run; what `deliver`
    ///   throws.
    func run(
        progress: ProgressReporter,
        deliver: (Outcome) async throws -> Void = { _ in }
    ) async throws -> Outcome {
        let persistent = try await openStore()
        let (limit, explanation) = RunDeadline.limit(
            for: configuration,
            defaultSourceTimeout: PipelineSettings(configuration: configuration, now: now).defaultTimeout
        )
        let deadline = RunDeadline(after: limit, explanation: explanation)
        defer { deadline.disarm() }
        do {
            let outcome = try await run(progress: progress, persistent: persistent, deliver: deliver)
            try await persistent?.close()
            return outcome
        } catch let error as SQLiteStoreError {
            StandardError.write("tributary: \(error)")
            throw ExitCode.failure
        }
    }

    // MARK: - Private

    private func openStore() async throws -> SQLiteStore? {
        guard let storeURL else { return nil }
        do {
            return try await SQLiteStore.open(at: storeURL, runLockTimeout: lockTimeout)
        } catch let error as SQLiteStoreError {
            StandardError.write("tributary: \(error)")
            throw CLIExit.usage
        }
    }

    private func run(
        progress: ProgressReporter,
        persistent: SQLiteStore?,
        deliver: (Outcome) async throws -> Void
    ) async throws -> Outcome {
        let store: any ItemStore = persistent.map { $0 as any ItemStore } ?? InMemoryItemStore()
        let startedAt = now()
        let savedStates = try await persistent?.checkpoints() ?? [:]
        let entries = Dictionary(configuration.sources.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let backingOff = try await backingOffSources(in: persistent, at: startedAt, entries: entries)
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
        if let persistent {
            for status in result.statuses {
                let outcome = Self.outcome(of: status, skipped: backingOff[status.sourceID] != nil)
                let record = try await persistent.recordOutcome(
                    outcome,
                    for: status.sourceID,
                    at: generatedAt,
                    policy: retryPolicy,
                    entry: entries[status.sourceID]?.fingerprint
                )
                health[status.sourceID] = DigestBuilder.Health(
                    consecutiveFailures: record.consecutiveFailures,
                    lastSuccess: record.lastSuccess,
                    nextRetry: record.nextRetry
                )
            }
        }
        var items = result.items
        if let cutoff = since?.cutoff(now: generatedAt, previousDigestAt: previousDigestAt) {
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
        if let persistent {
            try await persistent.prune(
                notSeenSince: generatedAt.addingTimeInterval(-Self.seconds(configuration.retention))
            )
        }
        return outcome
    }

    /// Stand-ins for the sources that are backing off at `date`, each with its current stored items. None with
    /// `--retry-failed`; none for a source whose entry changed since it failed (it was edited to fix it).
    private func backingOffSources(
        in persistent: SQLiteStore?,
        at date: Date,
        entries: [SourceID: SourceConfiguration]
    ) async throws -> [SourceID: BackoffSource] {
        guard let persistent else { return [:] }
        var result: [SourceID: BackoffSource] = [:]
        for (id, health) in try await persistent.allHealth() where health.isBackingOff(at: date) {
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
            let items = try await persistent.currentItems(from: id).map(\.item)
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
    static func when(_ date: Date, from now: Date, in timeZone: TimeZone) -> String {
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
    private static func outcome(of status: SourceStatus, skipped: Bool) -> SourceHealth.Outcome {
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

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension AggregationRun {
    /// The run a command asks for with its `options` and `state` option groups and `--since`: the store beside
    /// feeds.json (unless `--no-state`), the logger of `--verbose`, and ``RunClock``.
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
            storeURL: state.storeURL(for: configuration),
            lockTimeout: state.lockTimeout,
            since: since,
            retryFailed: state.retryFailed
        )
    }
}
