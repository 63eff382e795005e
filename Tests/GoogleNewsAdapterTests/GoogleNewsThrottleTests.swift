import GoogleNewsAdapter
import Testing
import TributaryCore

/// The one-at-a-time, one-second-apart limiter google-news uses, as a ``HostLimiter`` with one request at a time.
@Suite struct GoogleNewsThrottleTests {
    /// When each request to a host ran, on one clock.
    private actor Timeline {
        var spans: [(host: String, start: ContinuousClock.Instant, end: ContinuousClock.Instant)] = []
        func add(_ host: String, _ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) {
            spans.append((host, start, end))
        }
    }

    @Test func requestsToOneHostAreSerialisedWithTheMinimumInterval() async throws {
        let throttle = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .milliseconds(150))
        let timeline = Timeline()
        let clock = ContinuousClock()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                let host = index < 3 ? "news.example" : "other.example"
                group.addTask {
                    try await throttle.withPermit(for: host) {
                        let start = clock.now
                        try await Task.sleep(for: .milliseconds(30))
                        await timeline.add(host, start, clock.now)
                    }
                }
            }
            try await group.waitForAll()
        }
        let spans = await timeline.spans
        let news = spans.filter { $0.host == "news.example" }.sorted { $0.start < $1.start }
        #expect(news.count == 3)
        for (previous, next) in zip(news, news.dropFirst()) {
            #expect(next.start - previous.end >= .milliseconds(150), "gap \(next.start - previous.end)")
        }
        // Another host does not wait for this one.
        let other = try #require(spans.first { $0.host == "other.example" })
        #expect(other.start < news[1].start)
    }

    @Test func waitingEndsOnCancellationInsteadOfSittingOutTheInterval() async throws {
        let throttle = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .seconds(30))
        try await throttle.withPermit(for: "h") {}
        let clock = ContinuousClock()
        let (result, elapsed) = await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await throttle.withPermit(for: "h") { true }) ?? false }
            try? await Task.sleep(for: .milliseconds(50))
            let start = clock.now
            group.cancelAll()
            let result = await group.next() ?? true
            return (result, clock.now - start)
        }
        #expect(result == false, "the request ran although its task was cancelled")
        // Far below the 30 s interval (the bound leaves room for a loaded test machine).
        #expect(elapsed < .seconds(5), "waited \(elapsed) after cancellation")
    }
}
