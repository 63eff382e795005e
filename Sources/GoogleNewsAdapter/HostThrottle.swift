/// Keeps requests to one host polite: one at a time, and a minimum interval between the end of one and the start
/// of the next. Google News throttles rapid polling (DESIGN.md section 9).
///
/// Share one throttle between every source that talks to the same host; the `google-news` sources of a process
/// share ``GoogleNewsSource/defaultThrottle`` unless they are given their own (tests do).
public actor HostThrottle {
    /// The least time between two requests to one host.
    public let minimumInterval: Duration
    private let clock = ContinuousClock()
    private var busy: Set<String> = []
    private var lastRelease: [String: ContinuousClock.Instant] = [:]

    /// Creates a throttle.
    /// - Parameter minimumInterval: the least time between the end of one request and the start of the next to
    ///   the same host.
    public init(minimumInterval: Duration = .seconds(1)) {
        self.minimumInterval = minimumInterval
    }

    /// Runs `body` once no other request to `host` is running and the interval since the last one has passed.
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

    // MARK: - Private

    private func acquire(_ host: String) async throws {
        while true {
            try Task.checkCancellation()
            if busy.contains(host) {
                // Another request holds the host; look again shortly (sleeping is cancellable).
                try await clock.sleep(for: .milliseconds(10))
                continue
            }
            let earliest = lastRelease[host].map { $0.advanced(by: minimumInterval) } ?? clock.now
            if earliest > clock.now {
                try await clock.sleep(until: earliest)
                continue
            }
            busy.insert(host)
            return
        }
    }

    private func release(_ host: String) {
        busy.remove(host)
        lastRelease[host] = clock.now
    }
}
