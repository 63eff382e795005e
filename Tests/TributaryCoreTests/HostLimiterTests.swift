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

    @Test func startsToOneHostAreAtLeastTheIntervalApart() async throws {
        let interval = Duration.milliseconds(120)
        let limiter = HostLimiter(maxConcurrentRequests: 4, minimumInterval: interval)
        let occupancy = ["a.example": Occupancy()]
        try await Self.hammer(
            limiter,
            hosts: Array(repeating: "a.example", count: 4),
            hold: .zero,
            occupancy: occupancy
        )
        let starts = try #require(await occupancy["a.example"]?.starts)
        #expect(starts.count == 4)
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
