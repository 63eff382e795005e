import Synchronization

/// A source's timeout, counted only while the source works: time it spends waiting for its turn at a host
/// (``HostLimiter``) is not charged, so a healthy source queued behind 199 others of one host never times out.
///
/// The pipeline gives each source its budget as a task-local value (``current``) for the source's whole run, and
/// its timer fires when the budget is spent. Whoever makes a source wait on its behalf wraps the wait in
/// ``pausing(_:)``.
public final class TimeoutBudget: Sendable {
    /// The budget of the source whose task this is, if it runs under a pipeline.
    @TaskLocal public static var current: TimeoutBudget?

    private struct State {
        var spent: Duration = .zero
        /// When the current stretch of work began; `nil` while paused.
        var workingSince: ContinuousClock.Instant?
        /// Waits in progress (several requests of one source may wait at once).
        var waits = 0
    }

    /// The time the source may work.
    public let limit: Duration
    private let clock = ContinuousClock()
    private let state: Mutex<State>

    /// A budget of `limit`, counting from now.
    public init(_ limit: Duration) {
        self.limit = limit
        state = Mutex(State(workingSince: ContinuousClock.now))
    }

    /// How much of the budget is left now, and whether the clock is running (not paused by a wait).
    public var remaining: (time: Duration, running: Bool) {
        let now = clock.now
        return state.withLock { state in
            let spent = state.spent + (state.workingSince.map { now - $0 } ?? .zero)
            return (limit - spent, state.workingSince != nil)
        }
    }

    /// Runs `body` (a wait for a turn) with the clock stopped.
    public func pausing<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        pause()
        defer { resume() }
        return try await body()
    }

    private func pause() {
        let now = clock.now
        state.withLock { state in
            if state.waits == 0, let since = state.workingSince {
                state.spent += now - since
                state.workingSince = nil
            }
            state.waits += 1
        }
    }

    private func resume() {
        let now = clock.now
        state.withLock { state in
            state.waits -= 1
            if state.waits == 0 { state.workingSince = now }
        }
    }

    /// Returns once the budget is spent; throws `CancellationError` when cancelled first.
    public func expiry() async throws {
        while true {
            let (left, running) = remaining
            if running, left <= .zero { return }
            // While paused, look again now and then; while running, sleep until the budget would run out.
            try await clock.sleep(for: running ? left : .milliseconds(50))
        }
    }
}
