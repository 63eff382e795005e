import Foundation
import Testing
import TributaryCore

@testable import TributaryCLI

/// The run-wide deadline without `runTimeout`: a run fetches at most 64 sources at once, so a long feed list takes
/// turns, and the deadline leaves each turn its sources' longest timeout.
@Suite struct RunDeadlineTests {
    private func configuration(sources count: Int, timeout: Duration = .seconds(30)) -> FeedsConfiguration {
        FeedsConfiguration(
            file: URL(fileURLWithPath: "/tmp/feeds.json"),
            sources: (0..<count).map { SourceConfiguration(id: SourceID("s\($0)"), kind: "rss", timeout: timeout) }
        )
    }

    @Test func aShortListGetsItsLongestTimeoutPlusTwoMinutes() {
        let (limit, explanation) = RunDeadline.limit(
            for: configuration(sources: 10),
            defaultSourceTimeout: .seconds(60)
        )
        #expect(limit == .seconds(150))
        #expect(explanation == "the longest source timeout, 30s, plus 2m")
    }

    @Test func aLongListGetsItsLongestTimeoutForEachTurnOfSources() {
        let perTurn = PipelineSettings.defaultMaxConcurrentSources
        let (limit, explanation) = RunDeadline.limit(
            for: configuration(sources: 3 * perTurn + 1),
            defaultSourceTimeout: .seconds(60)
        )
        #expect(limit == .seconds(4 * 30 + 120))
        #expect(explanation == "the longest source timeout, 30s, for each of 4 turns of \(perTurn) sources, plus 2m")
    }

    @Test func runTimeoutInFeedsJSONWins() {
        var configured = configuration(sources: 1000)
        configured.runTimeout = .seconds(5)
        #expect(
            RunDeadline.limit(for: configured, defaultSourceTimeout: .seconds(60)) == (
                .seconds(5), "runTimeout in feeds.json"
            )
        )
    }
}
