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
    /// Whether it wants the events that carry items (``PipelineEvent/itemsAdded(_:)`` and the like) rather than
    /// only statuses and warnings: `false` spares the run building them (``PipelineSettings/publishesItems``).
    /// `true` unless a progress says otherwise.
    var wantsItems: Bool { get }
}

extension RunProgress {
    public var wantsItems: Bool { true }
}

/// Progress nobody watches.
public struct SilentRunProgress: RunProgress {
    public init() {}
    public var wantsItems: Bool { false }
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

    /// `false` to hold only each item's outline once the store has saved it, and draw the digest from the store a
    /// batch of items at a time (``Outcome/render(with:batchSize:write:)``): memory then stays flat in the number
    /// of feeds and items. `true` (the default) keeps every item in ``PipelineResult/items``.
    public var holdsItems: Bool = true

    /// What a run produced: the pipeline's result and the digest built from it.
    ///
    /// The digest's entries are drawn from the run's items: the held ones, or, for a run that does not hold them,
    /// the store, which must then still be open (inside `deliver`).
    public struct Outcome: Sendable {
        public var result: PipelineResult
        /// The digest without its entries: days, counts, sources.
        public var outline: DigestOutline
        let builder: DigestBuilder
        let store: any ItemStore
        /// Where each held item is in ``PipelineResult/items``, when the run held its items; `nil` to read them
        /// from the store.
        let held: [ItemKey: Int]?

        /// Whether any source failed (exit code 1).
        public var hasFailures: Bool { result.hasFailures }

        /// The whole digest, every entry drawn: the days' items are read first, then their entries are made in
        /// two halves side by side, each with a maker of its own (date formatters are not shared across threads).
        public func digest() async throws -> Digest {
            var items = outline.days.map { _ in [FeedItem]() }
            try await forEachBatch(of: .max) { dayIndex, batch in items[dayIndex] += batch }
            let split = Digest.halfway(through: items.map(\.count))
            var entries = outline.days.map { _ in [Digest.Entry]() }
            try await withThrowingTaskGroup(of: [(Int, [Digest.Entry])].self) { group in
                for half in [0..<split, split..<items.count] where !half.isEmpty {
                    let days = half.map { ($0, items[$0]) }
                    let builder = builder
                    let outline = outline
                    group.addTask {
                        let maker = builder.entryMaker(for: outline)
                        return days.map { ($0, maker.entries(for: $1)) }
                    }
                }
                for try await made in group {
                    for (dayIndex, dayEntries) in made { entries[dayIndex] = dayEntries }
                }
            }
            return Digest(
                outline,
                days: zip(outline.days, entries).map { Digest.Day(id: $0.id, heading: $0.heading, entries: $1) }
            )
        }

        /// Draws the digest with `renderer`, reading `batchSize` items at a time and handing each drawn part to
        /// `write` as it is made: neither the items nor the output are ever whole in memory.
        public func render(
            with renderer: some StreamingRenderer,
            batchSize: Int = 512,
            write: ([UInt8]) throws -> Void
        ) async throws {
            let maker = builder.entryMaker(for: outline)
            var drawing = try DigestDrawing(renderer.prepared(for: outline), outline: outline)
            try await forEachBatch(of: batchSize) { dayIndex, items in
                try drawing.draw(maker.entries(for: items), inDay: dayIndex)
                try write(drawing.output)
                drawing.output.removeAll(keepingCapacity: true)
            }
            try drawing.finish()
            try write(drawing.output)
        }

        /// Hands `body` the items of every day, at most `batchSize` at a time, in digest order; the next batch is
        /// read from the store while `body` draws the current one (the store reads on its own thread).
        private func forEachBatch(
            of batchSize: Int,
            _ body: (_ dayIndex: Int, _ items: [FeedItem]) throws -> Void
        ) async throws {
            var batches: [(day: Int, items: ArraySlice<ItemOutline>)] = []
            for (index, day) in outline.days.enumerated() {
                var start = 0
                while start < day.items.count {
                    let end = day.items.count - start > batchSize ? start + max(1, batchSize) : day.items.count
                    batches.append((index, day.items[start..<end]))
                    start = end
                }
            }
            guard let first = batches.first else { return }
            var next = try await items(Array(first.items))
            for (position, batch) in batches.enumerated() {
                let current = next
                let following = position + 1 < batches.count ? Array(batches[position + 1].items) : []
                async let upcoming = items(following)
                try body(batch.day, current)
                next = try await upcoming
            }
        }

        /// The whole items of these outlines, in their order, with what the run decided about each.
        private func items(_ outlines: [ItemOutline]) async throws -> [FeedItem] {
            guard !outlines.isEmpty else { return [] }
            if let held {
                return outlines.map { outline in held[outline.key].map { result.items[$0] } ?? outline.placeholder }
            }
            // The store answers in the order of the keys, leaving out a key it does not have: matched side by side,
            // without a table of the items by key. An item the store no longer has (it cannot be pruned during a
            // run) is shown as what is known of it.
            var stored = try await store.items(outlines.map(\.key))[...]
            return outlines.map { outline in
                guard let first = stored.first, first.item.id == outline.id, first.sourceID == outline.sourceID else {
                    return outline.placeholder
                }
                stored.removeFirst()
                return outline.completing(first.item)
            }
        }
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
        var settings = PipelineSettings(configuration: configuration, now: now)
        settings.holdsItems = holdsItems
        settings.maxConcurrentSources = PipelineSettings.defaultMaxConcurrentSources
        settings.overlapsSaves = true
        settings.publishesItems = progress.wantsItems
        let pipeline = Pipeline(sources: sources, settings: settings, store: store, logger: logger)
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
        if fetch {
            // One transaction for every source's outcome.
            let reports = result.statuses.map { status in
                SourceHealth.Report(
                    source: status.sourceID,
                    outcome: Self.outcome(of: status, skipped: backingOff[status.sourceID] != nil),
                    entry: entries[status.sourceID]?.fingerprint
                )
            }
            let records = try await store.recordOutcomes(reports, at: generatedAt, policy: retryPolicy)
            // A store of one run (`--no-state`) has no history worth a line in the digest.
            if store.keepsHistory {
                for (id, record) in records {
                    health[id] = DigestBuilder.Health(
                        consecutiveFailures: record.consecutiveFailures,
                        lastSuccess: record.lastSuccess,
                        nextRetry: record.nextRetry
                    )
                }
            }
        }
        var outlines = result.outlines
        if let cutoff = since?(generatedAt, previousDigestAt) {
            outlines = outlines.filter { item in item.firstSeen.map { $0 > cutoff } ?? true }
        }
        let builder = DigestBuilder(
            title: configuration.title,
            timeZone: configuration.timeZone,
            generatedAt: generatedAt,
            previousDigestAt: previousDigestAt,
            health: health
        )
        var held: [ItemKey: Int]?
        if holdsItems {
            // Sized once (growing it step by step rehashed every key already in it).
            var positions = [ItemKey: Int](minimumCapacity: result.outlines.count)
            for (position, outline) in result.outlines.enumerated() where positions[outline.key] == nil {
                positions[outline.key] = position
            }
            held = positions
        }
        let outcome = Outcome(
            result: result,
            outline: builder.outline(of: outlines, statuses: result.statuses),
            builder: builder,
            store: store,
            held: held
        )
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
