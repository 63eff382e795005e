import Testing

@testable import PushAdapter

@Suite struct ReconnectBackoffTests {
    @Test func delaysDoubleUpToTheMaximum() {
        var backoff = ReconnectBackoff(initialDelay: .milliseconds(500), maxDelay: .seconds(4), maxAttempts: nil)
        let delays = (0..<7).map { _ in backoff.nextDelay(deliveredFrames: false, jitter: 1) }
        #expect(
            delays == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4), .seconds(4),
            ]
        )
    }

    @Test func jitterKeepsEachDelayBetweenHalfAndAllOfIt() {
        var low = ReconnectBackoff(initialDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: nil)
        var high = low
        #expect(low.nextDelay(deliveredFrames: false, jitter: 0) == .milliseconds(500))
        #expect(high.nextDelay(deliveredFrames: false, jitter: 1) == .seconds(1))
        #expect(low.nextDelay(deliveredFrames: false, jitter: 0.5) == .milliseconds(1500))
    }

    @Test func aConnectionThatDeliveredFramesResetsToTheShortestDelay() {
        var backoff = ReconnectBackoff(initialDelay: .milliseconds(500), maxDelay: .seconds(30), maxAttempts: nil)
        for _ in 0..<5 { _ = backoff.nextDelay(deliveredFrames: false, jitter: 1) }
        #expect(backoff.nextDelay(deliveredFrames: false, jitter: 1) == .seconds(16))
        #expect(backoff.nextDelay(deliveredFrames: true, jitter: 1) == .milliseconds(500))
        #expect(backoff.nextDelay(deliveredFrames: false, jitter: 1) == .seconds(1))
    }

    @Test func givesUpAfterMaxAttemptsFruitlessAttempts() {
        var backoff = ReconnectBackoff(initialDelay: .milliseconds(10), maxDelay: .seconds(1), maxAttempts: 3)
        #expect(backoff.nextDelay(deliveredFrames: false, jitter: 1) != nil)
        #expect(backoff.nextDelay(deliveredFrames: false, jitter: 1) != nil)
        #expect(backoff.nextDelay(deliveredFrames: false, jitter: 1) != nil)
        #expect(backoff.nextDelay(deliveredFrames: false, jitter: 1) == nil)
    }

    @Test func framesRestoreTheAttemptBudget() {
        var backoff = ReconnectBackoff(initialDelay: .milliseconds(10), maxDelay: .seconds(1), maxAttempts: 2)
        for _ in 0..<10 {
            #expect(backoff.nextDelay(deliveredFrames: true, jitter: 1) == .milliseconds(10))
        }
    }
}
