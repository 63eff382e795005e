/// The reconnect schedule of a push source: a small pure state machine, so it can be tested without sockets or time.
///
/// The delay before attempt `n` (counted from the last connection that delivered frames) is
/// `min(maxDelay, initialDelay * 2^(n-1))`, scaled by "equal jitter" to between half and all of it, so that many
/// clients dropped at once do not come back in step. A connection that delivered at least one frame resets the
/// count: a server that drops now and then costs at most `initialDelay` per drop. After `maxAttempts` consecutive
/// attempts that delivered nothing, the source gives up.
struct ReconnectBackoff: Sendable, Hashable {
    /// The first delay.
    let initialDelay: Duration
    /// The longest delay.
    let maxDelay: Duration
    /// Give up after this many consecutive fruitless attempts; `nil` never gives up.
    let maxAttempts: Int?
    /// Consecutive reconnect attempts since the last connection that delivered frames.
    private(set) var attempts = 0

    init(initialDelay: Duration, maxDelay: Duration, maxAttempts: Int?) {
        self.initialDelay = initialDelay
        self.maxDelay = max(maxDelay, initialDelay)
        self.maxAttempts = maxAttempts
    }

    init(_ options: PushOptions.Reconnect) {
        self.init(initialDelay: options.initialDelay, maxDelay: options.maxDelay, maxAttempts: options.maxAttempts)
    }

    /// Records how the last connection went and returns the delay before the next attempt, or `nil` to give up.
    /// - Parameters:
    ///   - deliveredFrames: whether the connection that just ended delivered at least one frame.
    ///   - jitter: a number in `0...1` (from a random source in production, fixed in tests).
    mutating func nextDelay(deliveredFrames: Bool, jitter: Double) -> Duration? {
        if deliveredFrames { attempts = 0 }
        attempts += 1
        if let maxAttempts, attempts > maxAttempts { return nil }
        var base = initialDelay
        var doublings = attempts - 1
        while doublings > 0, base < maxDelay {
            base *= 2
            doublings -= 1
        }
        base = min(base, maxDelay)
        let fraction = 0.5 + 0.5 * min(max(jitter, 0), 1)
        return base * fraction
    }
}
