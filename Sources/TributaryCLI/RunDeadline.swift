import Dispatch
import Foundation
import Synchronization
import TributaryCore

/// The run-wide deadline of `digest` and `summary`: whatever a run is stuck in (a store that does not answer, an
/// output that does not drain, a source the pipeline could not abandon), it ends at `runTimeout` with exit code 1,
/// so a hung cron run never keeps the state lock from the next one.
///
/// The timer runs on a Dispatch queue, outside Swift's cooperative thread pool, so it fires even when every
/// thread of the pool is blocked. Stopping the process is safe at any point: the state store commits in
/// transactions, an output is written to a temporary file and renamed, and the kernel releases the run lock.
final class RunDeadline: Sendable {
    private let disarmed = Mutex(false)

    /// Starts the clock.
    /// - Parameters:
    ///   - timeout: how long the run may take from now.
    ///   - explanation: where the limit comes from, for the message (`runTimeout in feeds.json`).
    init(after timeout: Duration, explanation: String) {
        let limit = DurationFormat.string(timeout)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { [self] in
            guard !disarmed.withLock({ $0 }) else { return }
            StandardError.write(
                "tributary: the run did not finish within \(limit) (\(explanation)) and was stopped; nothing it had not saved was kept. Run it with -v to see where it stopped, or raise runTimeout in feeds.json."
            )
            exit(1)
        }
    }

    /// The run finished in time.
    func disarm() {
        disarmed.withLock { $0 = true }
    }

    /// The deadline of a run of `configuration`: its `runTimeout`, or the longest timeout of its enabled sources for
    /// each turn of sources the run fetches at once, plus 2 minutes.
    static func limit(for configuration: FeedsConfiguration, defaultSourceTimeout: Duration) -> (Duration, String) {
        if let runTimeout = configuration.runTimeout { return (runTimeout, "runTimeout in feeds.json") }
        let longest =
            configuration.enabledSources.map { $0.timeout ?? defaultSourceTimeout }.max()
            ?? defaultSourceTimeout
        let sources = configuration.enabledSources.count
        let limit = FeedsConfiguration.defaultRunTimeout(longestSourceTimeout: longest, sources: sources)
        let turns = PipelineSettings.turns(for: sources)
        let each =
            turns > 1 ? ", for each of \(turns) turns of \(PipelineSettings.defaultMaxConcurrentSources) sources" : ""
        return (limit, "the longest source timeout, \(DurationFormat.string(longest))\(each), plus 2m")
    }
}
