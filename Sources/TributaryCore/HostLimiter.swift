import DequeModule

/// Keeps the requests of one run polite to each host: at most ``maxConcurrentRequests`` at a time, each start at
/// least ``minimumInterval`` after the previous request to the host started or ended (feeds.json
/// `maxConnectionsPerHost` and `minimumHostInterval`), and nothing before the time a host asked for with
/// `Retry-After` (``holdOff(_:for:)``).
///
/// The host gives every source of a run the same limiter through ``SourceContext/hostLimiter``, so sources that
/// talk to one server (several feeds of one blog host) queue behind each other instead of hitting it at once.
/// Waiting requests are served in arrival order: a request that ends hands its slot to the longest waiter (no
/// polling). The wait is not charged to a source's timeout (``TimeoutBudget``). Hosts are compared as given
/// (lowercase them first).
public actor HostLimiter {
    /// The default of feeds.json `maxConnectionsPerHost`: as many connections as a browser opens to one host.
    public static let defaultMaxConcurrentRequests = 6
    /// The default of feeds.json `minimumHostInterval`: none; a host that wants one says so (429, 503 and
    /// `Retry-After`), and Google News sources keep their own.
    public static let defaultMinimumInterval = Duration.zero
    /// The longest a request waits for a host's `Retry-After`; a host that asks for more fails the request at once
    /// (``HeldOff``), and the next run tries again.
    public static let longestHoldOffWait = Duration.seconds(30)

    /// A host asked for a pause longer than ``longestHoldOffWait``.
    public struct HeldOff: Error, Sendable {
        /// How long the host still wants to be left alone.
        public var remaining: Duration
    }

    /// The most requests to one host at a time.
    public let maxConcurrentRequests: Int
    /// The least time between the start of a request and the previous start or end of one, at one host.
    public let minimumInterval: Duration

    private let clock = ContinuousClock()
    private var running: [String: Int] = [:]
    /// When a request to the host last started or ended.
    private var lastActivity: [String: ContinuousClock.Instant] = [:]
    /// Until when a host asked to be left alone.
    private var heldUntil: [String: ContinuousClock.Instant] = [:]
    /// Requests waiting for a free slot, per host, in arrival order.
    private var waiters: [String: Deque<Waiter>] = [:]
    private var nextWaiter: UInt64 = 0

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// Creates a limiter.
    /// - Parameters:
    ///   - maxConcurrentRequests: the most requests to one host at a time (at least 1).
    ///   - minimumInterval: the least time between the start of a request and the previous start or end at the host.
    public init(
        maxConcurrentRequests: Int = HostLimiter.defaultMaxConcurrentRequests,
        minimumInterval: Duration = HostLimiter.defaultMinimumInterval
    ) {
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.minimumInterval = max(.zero, minimumInterval)
    }

    /// Runs `body` once the host has a free slot, the interval since the last start has passed and any pause the
    /// host asked for is over.
    ///
    /// Waiting ends at once when the task is cancelled, and is not charged to the source's ``TimeoutBudget``.
    /// - Parameters:
    ///   - host: the host the request goes to.
    ///   - body: the request.
    /// - Returns: what `body` returns.
    /// - Throws: `CancellationError` when cancelled while waiting, ``HeldOff`` when the host asked for a longer
    ///   pause than ``longestHoldOffWait``, or what `body` throws.
    public nonisolated func withPermit<Result: Sendable>(
        for host: String,
        _ body: () async throws -> Result
    ) async throws -> Result {
        if let budget = TimeoutBudget.current {
            try await budget.pausing { try await acquire(host) }
        } else {
            try await acquire(host)
        }
        do {
            let result = try await body()
            await release(host)
            return result
        } catch {
            await release(host)
            throw error
        }
    }

    /// Asks every later request to `host` to wait `delay` (a `Retry-After`, or a pause after a `429`).
    public func holdOff(_ host: String, for delay: Duration) {
        let until = clock.now.advanced(by: delay)
        if heldUntil[host].map({ $0 < until }) ?? true { heldUntil[host] = until }
    }

    /// How many requests to `host` are running now.
    public func runningRequests(to host: String) -> Int {
        running[host, default: 0]
    }

    // MARK: - Private

    /// Takes a slot at `host` (a free one, or the one a finishing request hands over), then waits, holding it, until
    /// the interval since the last start and any pause the host asked for are over.
    private func acquire(_ host: String) async throws {
        try Task.checkCancellation()
        // A host that asked for a long pause fails the request at once, without waiting for a slot first.
        if let until = heldUntil[host], until - clock.now > Self.longestHoldOffWait {
            throw HeldOff(remaining: until - clock.now)
        }
        if running[host, default: 0] < maxConcurrentRequests {
            running[host, default: 0] += 1
        } else {
            try await waitForSlot(at: host)
        }
        do {
            try await waitForTurn(at: host)
        } catch {
            release(host)
            throw error
        }
    }

    /// With a slot held, waits until the interval since the last start or end at `host` and any pause it asked for
    /// are over, then marks the start. It looks again after every sleep: another request that held a slot may have
    /// started meanwhile.
    private func waitForTurn(at host: String) async throws {
        while true {
            try Task.checkCancellation()
            let now = clock.now
            var start = lastActivity[host].map { $0.advanced(by: minimumInterval) } ?? now
            if let until = heldUntil[host], until > start {
                guard until - now <= Self.longestHoldOffWait else { throw HeldOff(remaining: until - now) }
                start = until
            }
            guard start > now else {
                lastActivity[host] = now
                return
            }
            try await clock.sleep(until: start)
        }
    }

    /// Waits until a request to `host` ends (or the task is cancelled).
    private func waitForSlot(at host: String) async throws {
        let id = nextWaiter
        nextWaiter += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[host, default: []].append(Waiter(id: id, continuation: continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id, at: host) }
        }
    }

    private func cancelWaiter(_ id: UInt64, at host: String) {
        guard let index = waiters[host]?.firstIndex(where: { $0.id == id }),
            let waiter = waiters[host]?.remove(at: index)
        else { return }
        waiter.continuation.resume(throwing: CancellationError())
    }

    private func release(_ host: String) {
        lastActivity[host] = clock.now
        if let next = waiters[host]?.popFirst() {
            // The slot goes straight to the longest waiter: requests are served in arrival order.
            next.continuation.resume()
        } else {
            running[host, default: 1] -= 1
        }
    }
}
