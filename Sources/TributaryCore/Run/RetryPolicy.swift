public import Foundation

/// How long a failing source waits before it is tried again: exponential backoff with a cap, never giving up.
///
/// The first failure does not hold the source back (a single failure is often transient). After `n >= 2` failures
/// in a row the source is skipped for `base * 2^(n-2)`, at most ``cap``; a server's `Retry-After` is honoured when
/// it asks for longer.
public struct RetryPolicy: Sendable, Equatable {
    /// The first wait: usually the interval between runs.
    public var base: Duration
    /// The longest wait.
    public var cap: Duration

    /// Creates a policy.
    public init(base: Duration = .seconds(15 * 60), cap: Duration = .seconds(24 * 3600)) {
        self.base = base
        self.cap = max(cap, base)
    }

    /// The wait after `failures` consecutive failures, at least `retryAfter`.
    public func delay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        var delay = Duration.zero
        if failures >= 2 {
            delay = base
            var doublings = failures - 2
            while doublings > 0, delay < cap {
                delay *= 2
                doublings -= 1
            }
            delay = min(delay, cap)
        }
        if let retryAfter, retryAfter > delay { delay = retryAfter }
        return delay
    }

    /// When to try again after `failures` consecutive failures at `date`, or `nil` to try at the next run.
    public func nextRetry(afterFailures failures: Int, retryAfter: Duration? = nil, at date: Date) -> Date? {
        let delay = delay(afterFailures: failures, retryAfter: retryAfter)
        guard delay > .zero else { return nil }
        let (seconds, attoseconds) = delay.components
        return date.addingTimeInterval(TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }
}
