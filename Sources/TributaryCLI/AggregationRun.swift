import Foundation
import Logging
import TributaryCore

/// One fetch of every enabled source through the pipeline, as `digest` and `summary` do it.
struct AggregationRun {
    var configuration: FeedsConfiguration
    var registry: SourceRegistry
    var logger: Logger
    var now: @Sendable () -> Date = { Date() }

    /// What a run produced: the pipeline's result and the digest built from it.
    struct Outcome {
        var result: PipelineResult
        var digest: Digest

        /// Whether any source failed (exit code 1).
        var hasFailures: Bool { result.hasFailures }
    }

    /// Makes every enabled source (no I/O, by rule SRC-1), runs them, and builds the digest.
    /// - Throws: ``CLIExit/usage`` after printing the problem, if a source cannot be constructed.
    func run(progress: ProgressReporter) async throws -> Outcome {
        let sources = try ConfiguredSources.make(
            configuration,
            registry: registry,
            logger: logger,
            mode: .oneShot,
            now: now
        )
        let store: any ItemStore = InMemoryItemStore()
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
        try await store.recordDigest(at: generatedAt)
        let digest = DigestBuilder(
            title: configuration.title,
            timeZone: configuration.timeZone,
            generatedAt: generatedAt,
            previousDigestAt: previousDigestAt
        ).build(items: result.items, statuses: result.statuses)
        return Outcome(result: result, digest: digest)
    }
}
