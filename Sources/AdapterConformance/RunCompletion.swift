import Synchronization

/// How a run ended, as far as the kit can tell.
enum RunOutcome: Sendable, Equatable {
    /// `run(into:)` returned normally.
    case returned
    /// `run(into:)` threw; the error's description.
    case threw(String, isCancellation: Bool)
}

/// A one-shot latch for the end of a run that can be awaited with a time limit.
///
/// The kit runs each source in a task of its own rather than in a task group, so that a source that ignores
/// cancellation and never returns cannot hang the kit too: the waiter gives up after its limit and reports it.
final class RunCompletion: Sendable {
    private struct State {
        var outcome: RunOutcome?
        var end: ContinuousClock.Instant?
        var waiters: [Int: CheckedContinuation<RunOutcome?, Never>] = [:]
        var expired: Set<Int> = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Records the outcome; only the first call counts.
    func complete(_ outcome: RunOutcome) {
        let now = ContinuousClock.now
        let waiters = state.withLock { state -> [CheckedContinuation<RunOutcome?, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            state.end = now
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// The outcome, if the run has ended.
    var outcome: RunOutcome? { state.withLock { $0.outcome } }

    /// When the run ended, if it has.
    var end: ContinuousClock.Instant? { state.withLock { $0.end } }

    /// Waits for the outcome at most `limit`; `nil` when the limit passed first.
    func wait(atMost limit: Duration) async -> RunOutcome? {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task { [self] in
            do {
                try await Task.sleep(for: limit)
                expire(id)
            } catch {
                // Cancelled because the run ended first: nothing to do.
            }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let immediate = state.withLock { state -> RunOutcome?? in
                if let outcome = state.outcome { return .some(outcome) }
                if state.expired.contains(id) { return .some(nil) }
                state.waiters[id] = continuation
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<RunOutcome?, Never>? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.expired.insert(id)
            return nil
        }
        waiter?.resume(returning: nil)
    }
}
