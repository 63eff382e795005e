import Testing
import TributaryCore

@Suite struct HostLimiterTests {
    /// Counts how many bodies run at once, and the most ever seen.
    actor Occupancy {
        private(set) var now = 0
        private(set) var peak = 0
        private(set) var starts: [ContinuousClock.Instant] = []
        func enter() {
            now += 1
            peak = max(peak, now)
            starts.append(ContinuousClock.now)
        }
        func leave() { now -= 1 }
    }

    private static func hammer(
        _ limiter: HostLimiter,
        hosts: [String],
        hold: Duration,
        occupancy: [String: Occupancy]
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for host in hosts {
                group.addTask {
                    try await limiter.withPermit(for: host) {
                        await occupancy[host]?.enter()
                        try await Task.sleep(for: hold)
                        await occupancy[host]?.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func noMoreThanTheLimitRunAtOnceForOneHost() async throws {
        let limiter = HostLimiter(maxConcurrentRequests: 2, minimumInterval: .zero)
        let occupancy = ["a.example": Occupancy()]
        try await Self.hammer(
            limiter,
            hosts: Array(repeating: "a.example", count: 8),
            hold: .milliseconds(30),
            occupancy: occupancy
        )
        let peak = await occupancy["a.example"]?.peak
        #expect(peak == 2)
    }

    @Test func differentHostsDoNotWaitForEachOther() async throws {
        let limiter = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
        let hosts = ["a.example", "b.example", "c.example"]
        let occupancy = Dictionary(uniqueKeysWithValues: hosts.map { ($0, Occupancy()) })
        let gate = Occupancy()
        // Each body waits until all three hosts are inside at once: only possible if they do not queue.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for host in hosts {
                group.addTask {
                    try await limiter.withPermit(for: host) {
                        await occupancy[host]?.enter()
                        await gate.enter()
                        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
                        while await gate.now < 3, ContinuousClock.now < deadline {
                            try await Task.sleep(for: .milliseconds(5))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await gate.peak == 3)
    }

    /// Free slots (4 requests, 4 slots) and slots handed over by finishing requests (8 requests, 2 slots): either
    /// way no two starts are closer than the interval.
    @Test(arguments: [(4, 4), (2, 8)])
    func startsToOneHostAreAtLeastTheIntervalApart(slots: Int, requests: Int) async throws {
        let interval = Duration.milliseconds(120)
        let limiter = HostLimiter(maxConcurrentRequests: slots, minimumInterval: interval)
        let occupancy = ["a.example": Occupancy()]
        try await Self.hammer(
            limiter,
            hosts: Array(repeating: "a.example", count: requests),
            hold: slots < requests ? .milliseconds(30) : .zero,
            occupancy: occupancy
        )
        let starts = try #require(await occupancy["a.example"]?.starts)
        #expect(starts.count == requests)
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            #expect(later - earlier >= interval - .milliseconds(2), "starts \(later - earlier) apart")
        }
    }

    @Test func aCancelledWaiterLeavesPromptlyAndFreesNothingItDidNotTake() async throws {
        let limiter = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
        let holder = Task {
            try await limiter.withPermit(for: "a.example") { try await Task.sleep(for: .seconds(30)) }
        }
        while await limiter.runningRequests(to: "a.example") == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let waiter = Task { try await limiter.withPermit(for: "a.example") { 1 } }
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(clock.now - start < .seconds(1))
        #expect(await limiter.runningRequests(to: "a.example") == 1)
        holder.cancel()
        _ = await holder.result
        #expect(await limiter.runningRequests(to: "a.example") == 0)
    }
}

/// The politeness wait and the sources' timeouts: waiting for a turn is free, a host's pause is kept by all.
@Suite struct HostLimiterWaitTests {
    @Test func waitersAreServedInTurnWithoutPolling() async throws {
        // 40 requests to one host, one at a time: each starts when the previous ends, in arrival order.
        let limiter = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
        let order = OrderLog()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await limiter.withPermit(for: "a.example") {
                        await order.append(index)
                        try await Task.sleep(for: .milliseconds(2))
                    }
                }
                // Let each request queue before the next one arrives.
                try await Task.sleep(for: .milliseconds(1))
            }
            try await group.waitForAll()
        }
        #expect(await order.values == Array(0..<40))
        #expect(await limiter.runningRequests(to: "a.example") == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueAtOnce() async throws {
        let limiter = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
        let holder = Task { try await limiter.withPermit(for: "a.example") { try await Task.sleep(for: .seconds(30)) } }
        try await Task.sleep(for: .milliseconds(50))
        let waiter = Task { try await limiter.withPermit(for: "a.example") { 1 } }
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(ContinuousClock.now - started < .seconds(5))
        holder.cancel()
        _ = try? await holder.value
        #expect(try await limiter.withPermit(for: "a.example") { 2 } == 2)
    }

    @Test func aHostsPauseIsKeptAndALongOneFailsAtOnce() async throws {
        let limiter = HostLimiter(maxConcurrentRequests: 4, minimumInterval: .zero)
        await limiter.holdOff("a.example", for: .milliseconds(300))
        let started = ContinuousClock.now
        _ = try await limiter.withPermit(for: "a.example") { 0 }
        #expect(ContinuousClock.now - started >= .milliseconds(290))
        // Other hosts are not held.
        let other = ContinuousClock.now
        _ = try await limiter.withPermit(for: "b.example") { 0 }
        #expect(ContinuousClock.now - other < .milliseconds(250))

        await limiter.holdOff("a.example", for: .seconds(3600))
        await #expect(throws: HostLimiter.HeldOff.self) { try await limiter.withPermit(for: "a.example") { 0 } }
    }

    @Test func waitingForATurnIsNotChargedToTheSourcesTimeout() async throws {
        // One request at a time to the host; each source works 400 ms and may take 1 s. The fourth waits 1.2 s for
        // its turn: counted, it would time out; it must not.
        let limiter = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
        let sources = (1...4).map { index in
            PipelineSource(
                source: PoliteSource(id: SourceID(stringLiteral: "s\(index)"), limiter: limiter),
                kind: "polite",
                timeout: .seconds(1)
            )
        }
        let result = try await Pipeline(sources: sources, settings: fixedSettings(), store: InMemoryItemStore()).run()
        #expect(result.statuses.map(\.state) == Array(repeating: .succeeded, count: 4), "\(result.statuses)")
        #expect(result.items.count == 4)
    }

    @Test func aSourceThatWorksPastItsTimeoutStillTimesOut() async throws {
        let budget = TimeoutBudget(.milliseconds(200))
        let started = ContinuousClock.now
        try await budget.pausing { try await Task.sleep(for: .milliseconds(300)) }
        try await budget.expiry()
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(490) && elapsed < .seconds(3), "\(elapsed)")
    }
}

private actor OrderLog {
    private(set) var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}

/// A source that asks the host limiter for its turn, then works 400 ms.
private struct PoliteSource: Source {
    struct Options: Decodable, Sendable {}
    static let kind = "polite"
    static let documentation = SourceDocumentation(summary: "Test.", options: [], example: "{}")

    let id: SourceID
    let limiter: HostLimiter

    init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        limiter = context.hostLimiter
    }

    init(id: SourceID, limiter: HostLimiter) {
        self.id = id
        self.limiter = limiter
    }

    func run(into sink: EventSink) async throws {
        await sink.send(.started)
        try await limiter.withPermit(for: "a.example") { try await Task.sleep(for: .milliseconds(400)) }
        await sink.send(.items([FeedItem(id: "\(id)")]))
        await sink.send(.finished)
    }
}
