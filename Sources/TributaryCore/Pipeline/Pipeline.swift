import AsyncAlgorithms
public import Logging

/// Runs sources side by side and turns their events into kept, normalised, deduplicated items: the router of
/// Tributary's event flow (DESIGN.md section 1).
///
/// Each source runs in its own child task of one task group, raced against its timeout. Every event goes into a
/// single `AsyncChannel`, which one loop (the router, in the calling task) handles in arrival order. A batch of
/// items is normalised (``Normaliser``) and filtered (``KeywordFilter``, `maxAge`) in its source's own task on the
/// way in (``ItemIntake``), so sources do that side by side; the router deduplicates (``Deduplicator``), caps
/// (`maxItems`), saves to the ``ItemStore``, then publishes ``PipelineEvent``s and keeps each ``SourceStatus``
/// current.
///
/// Isolation: a source that throws becomes a `failed` status with its reason; a source that runs past its timeout
/// is cancelled and reported as `timedOut`; the other sources carry on untouched. The items a source delivered
/// before it failed are kept.
///
/// Buffering and back-pressure: sources hand events to the router through an `AsyncChannel`, which holds nothing:
/// a source's `EventSink.send` suspends until the router takes the event, and the router waits for `onEvent`.
/// So a fast source (a push feed at full rate) is slowed to the pace of the slowest consumer, and memory stays
/// bounded by one pending event per source, never by how far the consumer lags. The per-source timeout still
/// runs while a source waits.
///
/// Deduplication and `maxItems` apply within one run; the store keeps items across runs.
public struct Pipeline: Sendable {
    /// The sources, in the order statuses and tie-breaks follow.
    public let sources: [PipelineSource]
    /// The settings for every source.
    public let settings: PipelineSettings
    /// Where kept items go.
    public let store: any ItemStore
    /// Where the pipeline logs.
    public let logger: Logger

    /// Creates a pipeline; nothing runs until ``run(onEvent:)``.
    public init(
        sources: [PipelineSource],
        settings: PipelineSettings,
        store: any ItemStore,
        logger: Logger = Logger(label: "tributary.pipeline", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.sources = sources
        self.settings = settings
        self.store = store
        self.logger = logger
    }

    /// Runs every source once (one-shot) and returns when all of them are final.
    ///
    /// `onEvent` is called from the router, one event at a time and in order; the run waits for it, so a slow
    /// handler slows the run down but never reorders events. Cancelling the calling task cancels every source
    /// promptly and makes `run` throw `CancellationError`.
    /// - Parameter onEvent: receives every ``PipelineEvent`` as it is decided.
    /// - Returns: the kept items in digest order and one final status per source.
    /// - Throws: `CancellationError` when cancelled; any error the ``ItemStore`` throws.
    public func run(
        onEvent: @escaping @Sendable (PipelineEvent) async -> Void = { _ in }
    ) async throws -> PipelineResult {
        var router = PipelineRouter(sources: sources, settings: settings, store: store, logger: logger)
        guard !sources.isEmpty else { return router.result() }
        let channel = AsyncChannel<PipelineRouter.Input>()
        defer { channel.finish() }
        let settings = settings

        // A discarding group: a source's task is freed as soon as it ends. A group that keeps its children's results
        // held every ended source's task (its frames and what they still referred to) until the last source ended,
        // 24 MB at the end of a 1,000-feed fetch.
        return try await withThrowingDiscardingTaskGroup(returning: PipelineResult.self) { group in
            // A run-wide turn for each source when the run has a limit; the wait for it is not charged to the
            // source's timeout, which starts with the source.
            let turns = settings.maxConcurrentSources.map { HostLimiter(maxConcurrentRequests: $0) }
            for (index, entry) in sources.enumerated() {
                let timeout = entry.timeout ?? settings.defaultTimeout
                let intake = router.intakes[index]
                let store = store
                group.addTask {
                    let outcome: PipelineRouter.Outcome
                    if let turns {
                        outcome =
                            (try? await turns.withPermit(for: "sources") {
                                await Self.run(
                                    entry.source,
                                    index: index,
                                    intake: intake,
                                    store: store,
                                    timeout: timeout,
                                    into: channel
                                )
                            }) ?? .cancelled
                    } else {
                        outcome = await Self.run(
                            entry.source,
                            index: index,
                            intake: intake,
                            store: store,
                            timeout: timeout,
                            into: channel
                        )
                    }
                    await channel.send(.ended(index, outcome))
                }
            }
            var running = sources.count
            router.interrupt = { channel.finish() }
            do {
                // The channel ends early only when this task is cancelled or a save on its way failed; the check and
                // the wait for that save below turn either into a throw.
                for await input in channel {
                    try await router.handle(input, publish: onEvent)
                    if case .ended = input {
                        running -= 1
                        if running == 0 { break }
                    }
                }
                try Task.checkCancellation()
                try await router.finishSaves(publish: onEvent)
            } catch {
                await router.abandonSaves()
                throw error
            }
            return router.result()
        }
    }

    /// Runs every source once, handing `body` the live stream of ``PipelineEvent``s: the form for `watch`.
    ///
    /// The pipeline runs in a child task while `body` runs in the calling task, so no unstructured task is needed.
    /// The stream ends when every source has ended, or when the calling task is cancelled (then this throws
    /// `CancellationError`). If `body` returns early, the run still completes; if `body` throws, the run is
    /// cancelled and the error is rethrown. The stream handed to `body` buffers without bound; where a slow consumer
    /// must slow the sources down (back-pressure), use ``run(onEvent:)``, whose handler the router awaits.
    /// - Parameter body: reads the events, typically with `for await`.
    /// - Returns: the run's result and what `body` returned.
    /// - Throws: `CancellationError`, any error the ``ItemStore`` throws, or what `body` throws.
    public func withEventStream<BodyResult>(
        _ body: (AsyncStream<PipelineEvent>) async throws -> BodyResult
    ) async throws -> (result: PipelineResult, bodyResult: BodyResult) {
        let (stream, continuation) = AsyncStream<PipelineEvent>.makeStream()
        return try await withThrowingTaskGroup(of: PipelineResult.self) { group in
            group.addTask {
                defer { continuation.finish() }
                return try await run(onEvent: { continuation.yield($0) })
            }
            let bodyResult = try await body(stream)
            guard let result = try await group.next() else { throw CancellationError() }
            return (result, bodyResult)
        }
    }

    // MARK: - Private

    /// Runs one source against its timeout; returns how it ended. Its events go into `channel` as they come, its
    /// items through `intake` first (here, in the source's task, so that sources normalise side by side).
    ///
    /// The source runs in a task of its own, so that a deadline holds whatever the source is blocked in: at its
    /// timeout (or when the run is cancelled) it is cancelled and given ``abandonGrace`` to end; a source still
    /// running then (stuck in a C call, a blocking read, a handshake that ignores cancellation) is abandoned, its
    /// later events dropped, and the run goes on without it.
    private static func run(
        _ source: any Source,
        index: Int,
        intake: ItemIntake,
        store: any ItemStore,
        timeout: Duration,
        into channel: AsyncChannel<PipelineRouter.Input>
    ) async -> PipelineRouter.Outcome {
        // Whether the source's events are still taken: closed when the source is abandoned.
        let open = LockedValue(true)
        // Whether it sent items: its `notModified` then waits for their saves, in the router.
        let sentItems = LockedValue(false)
        let sink = EventSink { event in
            guard open.value else { return }
            switch event {
            case .items(let items):
                sentItems.withLock { $0 = true }
                await channel.send(.items(index, intake.take(items)))
            case .notModified where !sentItems.value:
                // The stored items it serves are read here, side by side with the other sources (a warm run of
                // 1,000 feeds had the router wait for the store 1,000 times); a failed read is left to the router,
                // which reads again and ends the run with the store's error.
                if let stored = try? await store.currentItems(from: source.id) {
                    await channel.send(.notModified(index, PipelineRouter.Served(stored, intake: intake)))
                } else {
                    await channel.send(.event(index, event))
                }
            default:
                await channel.send(.event(index, event))
            }
        }
        // The timeout counts the source's own work, not its waits for a turn at a host (``TimeoutBudget``).
        let budget = TimeoutBudget(timeout)
        let (ending, _) = await AbandonableTask.run(grace: abandonGrace, expiry: { try await budget.expiry() }) {
            await TimeoutBudget.$current.withValue(budget) { () -> PipelineRouter.Outcome in
                do {
                    try await source.run(into: sink)
                    return .returned
                } catch {
                    return .threw(error)
                }
            }
        }
        // A source that ran out of time or was cancelled has had its grace period (its last events counted); the
        // gate closes behind it, whether it ended or not.
        open.withLock { $0 = false }
        switch ending {
        case .finished(let outcome): return outcome
        case .expired: return .timedOut(timeout)
        case .cancelled: return .cancelled
        }
    }

    /// How long a source that ran out of time is given to end after it was cancelled, before it is abandoned.
    static let abandonGrace: Duration = .milliseconds(500)
}
