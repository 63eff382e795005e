import AdapterConformance
import Foundation
import PushAdapter
import Testing
import TributaryCore

/// The conformance kit over the push source: the in-process simulator, an unreachable server, and a malformed
/// stream (the simulator's garbage frames).
@Suite struct PushConformanceTests {
    /// A fixed time of the run: the simulator's times follow it, and the kit's runs must see the same items.
    private static let context = SourceContext(
        baseDirectory: URL(fileURLWithPath: "/"),
        mode: .oneShot,
        now: { Date(timeIntervalSince1970: 1_767_225_600) }
    )

    @Test func simulatedFeedConforms() async throws {
        // The backlog only (rate 0): items that arrive during the listen window depend on timing, so two runs of a
        // live feed differ in count without sharing any state, which the kit would read as a violation of SRC-11.
        try await SourceConformance.check(
            {
                try PushSource(
                    id: "kit",
                    options: PushOptions(simulate: .init(seed: 7, rate: 0, backlog: 40), listen: .milliseconds(300)),
                    context: Self.context
                )
            },
            fixture: ConformanceFixture("simulate seed 7", expectation: .items)
        )
    }

    @Test func simulatedFeedWithoutBacklogOrNewItemsIsEmpty() async throws {
        try await SourceConformance.check(
            {
                try PushSource(
                    id: "kit",
                    options: PushOptions(simulate: .init(seed: 7, rate: 0, backlog: 0), listen: .milliseconds(200)),
                    context: Self.context
                )
            },
            fixture: ConformanceFixture("simulate, nothing to send", expectation: .empty)
        )
    }

    @Test func unreachableServerConforms() async throws {
        try await SourceConformance.check(
            {
                try PushSource(
                    id: "kit",
                    options: PushOptions(
                        url: "ws://127.0.0.1:1/feed",
                        listen: .milliseconds(300),
                        reconnect: .init(initialDelay: .milliseconds(50), maxDelay: .milliseconds(100), maxAttempts: 2)
                    ),
                    context: Self.context
                )
            },
            fixture: ConformanceFixture("closed port", expectation: .unreachable)
        )
    }
}
