import AdapterConformance
import Foundation
import Testing
import TributaryCore

/// One deliberately broken adapter, the fixture it runs on, and the one rule the kit must name.
struct BrokenCase: Sendable, CustomTestStringConvertible {
    var behaviour: TestSource.Behaviour
    var expectation: ConformanceFixture.Expectation = .items
    var rule: String
    var severalBatches = false
    var inputDates: ClosedRange<Date>? = nil

    var testDescription: String { "\(behaviour.rawValue) breaks \(rule)" }

    static let all: [BrokenCase] = [
        BrokenCase(behaviour: .slowInit, rule: "SRC-1"),
        BrokenCase(behaviour: .throwingInit, rule: "SRC-1"),
        BrokenCase(behaviour: .emptyID, rule: "SRC-2"),
        BrokenCase(behaviour: .randomIDs, rule: "SRC-2"),
        BrokenCase(behaviour: .missingSourceID, rule: "SRC-3"),
        BrokenCase(behaviour: .dateIsNow, rule: "SRC-4"),
        BrokenCase(behaviour: .futureDate, rule: "SRC-4"),
        BrokenCase(behaviour: .droppedOffset, rule: "SRC-4", inputDates: TestSource.inputDates),
        BrokenCase(behaviour: .relativeURL, rule: "SRC-5"),
        BrokenCase(behaviour: .protocolRelativeImage, rule: "SRC-5"),
        BrokenCase(behaviour: .tagInTitle, rule: "SRC-6"),
        BrokenCase(behaviour: .entityInSummary, rule: "SRC-6"),
        BrokenCase(behaviour: .scriptInContent, rule: "SRC-7"),
        BrokenCase(behaviour: .eventHandlerInContent, rule: "SRC-7"),
        BrokenCase(behaviour: .hiddenJavaScriptURL, rule: "SRC-7"),
        BrokenCase(behaviour: .noStarted, rule: "SRC-8"),
        BrokenCase(behaviour: .twoTerminals, rule: "SRC-8"),
        BrokenCase(behaviour: .itemsAfterFinished, rule: "SRC-8"),
        BrokenCase(behaviour: .noTerminal, rule: "SRC-8"),
        BrokenCase(behaviour: .throwsAfterFinished, rule: "SRC-8"),
        BrokenCase(behaviour: .lateEvent, rule: "SRC-8"),
        BrokenCase(behaviour: .finishesQuietlyOnMalformed, expectation: .malformed, rule: "SRC-9"),
        BrokenCase(behaviour: .finishesOnUnreachable, expectation: .unreachable, rule: "SRC-9"),
        BrokenCase(behaviour: .itemsOnEmpty, expectation: .empty, rule: "SRC-9"),
        BrokenCase(behaviour: .hangs, rule: "SRC-9"),
        BrokenCase(behaviour: .ignoresCancellation, rule: "SRC-10"),
        BrokenCase(behaviour: .sharedBuffer, rule: "SRC-11"),
        BrokenCase(behaviour: .oneBatch, rule: "SRC-12", severalBatches: true),
    ]
}

@Suite struct SourceConformanceTests {
    /// Short limits, so that the broken cases that wait (a hang, ignored cancellation) finish quickly.
    let options = ConformanceOptions(
        initDeadline: .milliseconds(60),
        runTimeout: .seconds(2),
        cancellationDeadline: .milliseconds(300)
    )

    @Test(arguments: BrokenCase.all)
    func catchesEachBrokenAdapterByItsRule(_ broken: BrokenCase) async throws {
        let token = UUID().uuidString
        let fixture = ConformanceFixture(
            broken.behaviour.rawValue,
            expectation: broken.expectation,
            expectsSeveralBatches: broken.severalBatches,
            inputDates: broken.inputDates
        )
        let report = await SourceConformance.report(
            { try TestSource(broken.behaviour, token: token) },
            fixture: fixture,
            options: options
        )
        #expect(report.brokenRules == [broken.rule], "\(report)")
        #expect(report.violations.allSatisfy { $0.fixture == broken.behaviour.rawValue && !$0.detail.isEmpty })
    }

    @Test(arguments: [
        (TestSource.Behaviour.wellBehaved, ConformanceFixture.Expectation.items),
        (.emptyFeed, .empty),
        (.failsMalformed, .malformed),
        (.warnsMalformed, .malformed),
        (.failsMalformed, .unreachable),
    ])
    func passesAWellBehavedAdapter(_ behaviour: TestSource.Behaviour, _ expectation: ConformanceFixture.Expectation)
        async throws
    {
        let fixture = ConformanceFixture(
            "\(behaviour)",
            expectation: expectation,
            expectsSeveralBatches: expectation == .items,
            inputDates: TestSource.inputDates
        )
        try await SourceConformance.check({ try TestSource(behaviour) }, fixture: fixture, options: options)
    }

    @Test func checkThrowsTheReportWithEveryViolation() async throws {
        let fixture = ConformanceFixture("two-rules", expectation: .empty)
        let report = try await #require(throws: ConformanceReport.self) {
            try await SourceConformance.check({ try TestSource(.missingSourceID) }, fixture: fixture, options: options)
        }
        // Items on an empty input (SRC-9) and no source id (SRC-3), both reported, in rule order.
        #expect(report.brokenRules == ["SRC-3", "SRC-9"])
        #expect(report.kind == "kit-test")
        #expect(report.description.contains("SRC-3: item \"https://example.org/posts/1\""))
    }

    @Test func reportsWhatTheLeakCheckFindsAfterCancellation() async throws {
        let fixture = ConformanceFixture(
            "leaky",
            expectation: .items,
            leakCheck: { ["process 4242"] }
        )
        let report = await SourceConformance.report(
            { try TestSource(.wellBehaved) },
            fixture: fixture,
            options: options
        )
        #expect(report.brokenRules == ["SRC-10"])
        #expect(report.violations.first?.detail.contains("process 4242") == true)
    }

    @Test func capsViolationsPerRuleAndCountsTheRest() async throws {
        var options = options
        options.maximumViolationsPerRule = 1
        let fixture = ConformanceFixture("cap", expectation: .items)
        // Every item of `missingSourceID`'s second item lacks the id, in four runs: several findings, one shown.
        let report = await SourceConformance.report(
            { try TestSource(.relativeURL) },
            fixture: fixture,
            options: options
        )
        #expect(report.brokenRules == ["SRC-5"])
        #expect(report.violations.count <= 2)
    }
}
