/// Keeps the requests of one run polite to each host: at most ``maxConcurrentRequests`` at a time, and each start
/// at least ``minimumInterval`` after the previous request to the host started or ended, whichever came later
/// (feeds.json `maxConnectionsPerHost` and `minimumHostInterval`). With one request at a time, that is a pause of
/// ``minimumInterval`` between the end of one request and the start of the next.
///
/// The host gives every source of a run the same limiter through ``SourceContext/hostLimiter``, so sources that
/// talk to one server (several Google News searches, several feeds of one blog host) queue behind each other
/// instead of hitting it at once. Hosts are compared as given (lowercase them first).
public actor HostLimiter {
    /// The default of feeds.json `maxConnectionsPerHost`.
    public static let defaultMaxConcurrentRequests = 2
    /// The default of feeds.json `minimumHostInterval`.
    public static let defaultMinimumInterval = Duration.milliseconds(500)

    /// The most requests to one host at a time.
    public let maxConcurrentRequests: Int
    /// The least time between the start of a request and the previous start or end of one, at one host.
    public let minimumInterval: Duration

    private let clock = ContinuousClock()
    private var running: [String: Int] = [:]
    /// When a request to the host last started or ended.
    private var lastActivity: [String: ContinuousClock.Instant] = [:]

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

    /// Runs `body` once the host has a free slot and the interval since the last start has passed.
    ///
    /// Waiting ends at once when the task is cancelled.
    /// - Parameters:
    ///   - host: the host the request goes to.
    ///   - body: the request.
    /// - Returns: what `body` returns.
    /// - Throws: `CancellationError` when cancelled while waiting, or what `body` throws.
    public nonisolated func withPermit<Result: Sendable>(
        for host: String,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await acquire(host)
        do {
            let result = try await body()
            await release(host)
            return result
        } catch {
            await release(host)
            throw error
        }
    }

    /// How many requests to `host` are running now.
    public func runningRequests(to host: String) -> Int {
        running[host, default: 0]
    }

    // MARK: - Private

    private func acquire(_ host: String) async throws {
        while true {
            try Task.checkCancellation()
            guard running[host, default: 0] < maxConcurrentRequests else {
                // Every slot is taken; look again shortly (sleeping is cancellable).
                try await clock.sleep(for: .milliseconds(10))
                continue
            }
            let now = clock.now
            if let last = lastActivity[host], last.advanced(by: minimumInterval) > now {
                try await clock.sleep(until: last.advanced(by: minimumInterval))
                continue
            }
            running[host, default: 0] += 1
            lastActivity[host] = now
            return
        }
    }

    private func release(_ host: String) {
        running[host, default: 1] -= 1
        lastActivity[host] = clock.now
    }
}
