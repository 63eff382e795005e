import Foundation
import Testing

@testable import TributaryCore

/// The deadline a stuck source or a stuck fleet fetch is held to: work that ignores cancellation is left behind
/// after its grace period, so that what waits for it goes on.
@Suite struct AbandonableTaskTests {
    /// Work that ends when told to, and never on cancellation: a call stuck where cancellation does not reach.
    final class Stuck: Sendable {
        let released = LockedValue(false)
        func wait() async -> String {
            while !released.value { try? await Task.sleep(for: .milliseconds(5)) }
            return "released"
        }
    }

    @Test func workThatFinishesFirstGivesItsValue() async {
        let (ending, afterGrace) = await AbandonableTask.run(
            grace: .seconds(1),
            expiry: { try await Task.sleep(for: .seconds(60)) },
            { "done" }
        )
        guard case .finished(let value) = ending else {
            Issue.record("expected the work to finish, got \(ending)")
            return
        }
        #expect(value == "done")
        #expect(afterGrace == "done")
    }

    @Test func workThatIgnoresCancellationIsLeftBehindAfterItsGrace() async {
        let stuck = Stuck()
        let clock = ContinuousClock()
        let started = clock.now
        let (ending, afterGrace) = await AbandonableTask.run(
            grace: .milliseconds(200),
            expiry: { try await Task.sleep(for: .milliseconds(100)) },
            { await stuck.wait() }
        )
        let waited = clock.now - started
        guard case .expired = ending else {
            Issue.record("expected the deadline to come first, got \(ending)")
            return
        }
        #expect(afterGrace == nil)
        #expect(waited >= .milliseconds(300) && waited < .seconds(5), "waited \(waited)")
        stuck.released.withLock { $0 = true }
    }

    @Test func workThatHonoursCancellationEndsWithinItsGrace() async {
        let (ending, afterGrace) = await AbandonableTask.run(
            grace: .seconds(10),
            expiry: { try await Task.sleep(for: .milliseconds(50)) },
            { () -> String in
                do {
                    try await Task.sleep(for: .seconds(60))
                    return "slept"
                } catch {
                    return "cancelled"
                }
            }
        )
        guard case .expired = ending else {
            Issue.record("expected the deadline to come first, got \(ending)")
            return
        }
        #expect(afterGrace == "cancelled")
    }

    @Test func cancellingTheCallerStopsTheWaitEvenForStuckWork() async {
        let stuck = Stuck()
        let waiter = Task {
            await AbandonableTask.run(
                grace: .milliseconds(100),
                expiry: { try await Task.sleep(for: .seconds(60)) },
                { await stuck.wait() }
            )
        }
        try? await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        let (ending, afterGrace) = await waiter.value
        guard case .cancelled = ending else {
            Issue.record("expected the cancellation to come first, got \(ending)")
            return
        }
        #expect(afterGrace == nil)
        stuck.released.withLock { $0 = true }
    }
}
