import ArgumentParser
import Foundation
import Testing
import TributaryCore

@testable import TributaryCLI

@Suite struct StateOptionsTests {
    static let now = Date(timeIntervalSince1970: 1_795_330_800)

    @Test func sinceTakesLastADurationOrADate() throws {
        #expect(SinceOption(argument: "last") == .last)
        #expect(SinceOption(argument: "48h") == .duration(.seconds(48 * 3600)))
        #expect(SinceOption(argument: "2026-11-20T00:00:00Z") == .date(Date(timeIntervalSince1970: 1_795_132_800)))
        #expect(SinceOption(argument: "yesterday") == nil)
        #expect(SinceOption.last.cutoff(now: Self.now, previousDigestAt: nil) == nil)
        #expect(SinceOption.last.cutoff(now: Self.now, previousDigestAt: Self.now) == Self.now)
        #expect(SinceOption.duration(.seconds(60)).cutoff(now: Self.now, previousDigestAt: nil) == Self.now - 60)
    }

    @Test func digestAndSummaryParseTheStateOptions() throws {
        let digest = try #require(
            try TributaryCommand.parseAsRoot(["digest", "--since", "last", "--state", "s.sqlite"]) as? DigestCommand
        )
        #expect(digest.window.since == .last)
        #expect(digest.state.statePath == "s.sqlite")
        let summary = try #require(try TributaryCommand.parseAsRoot(["summary", "--no-state"]) as? SummaryCommand)
        #expect(summary.state.noState)
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(["digest", "--since", "soon"]) }
        #expect(throws: (any Error).self) {
            try TributaryCommand.parseAsRoot(["digest", "--state-timeout", "never"])
        }
    }

    @Test func theStoreLivesBesideFeedsJSONUnlessToldOtherwise() throws {
        let file = URL(fileURLWithPath: "/srv/news/feeds.json")
        var configuration = FeedsConfiguration(file: file, sources: [])
        let defaults = try StateOptions.parse([])
        #expect(defaults.storeURL(for: configuration)?.path == "/srv/news/.tributary/state.sqlite")
        configuration.state = "var/state.db"
        #expect(defaults.storeURL(for: configuration)?.path == "/srv/news/var/state.db")
        #expect(try StateOptions.parse(["--no-state"]).storeURL(for: configuration) == nil)
        let explicit = try StateOptions.parse(["--state", "/tmp/other.sqlite"])
        #expect(explicit.storeURL(for: configuration)?.path == "/tmp/other.sqlite")
    }
}
