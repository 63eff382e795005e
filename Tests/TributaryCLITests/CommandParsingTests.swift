import ArgumentParser
import Foundation
import Testing

@testable import TributaryCLI

@Suite struct CommandParsingTests {
    @Test func digestDefaultsToHTMLAndFeedsJSON() throws {
        let command = try #require(try TributaryCommand.parseAsRoot(["digest"]) as? DigestCommand)
        #expect(command.format == .html)
        #expect(command.output == nil)
        #expect(command.options.configPath == "feeds.json")
    }

    @Test func digestTakesConfigOutputAndFormat() throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(["digest", "-c", "x/feeds.json", "-o", "out.md", "--format", "markdown"])
                as? DigestCommand
        )
        #expect(command.options.configPath == "x/feeds.json")
        #expect(command.output == "out.md")
        #expect(command.format == .markdown)
    }

    @Test func unknownFormatIsRejected() {
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(["digest", "--format", "pdf"]) }
    }

    @Test func parseNeedsAnInputAndAValidSourceID() throws {
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(["parse"]) }
        #expect(throws: (any Error).self) {
            try TributaryCommand.parseAsRoot(["parse", "f.json", "--source-id", "Bad ID"])
        }
        let command = try #require(try TributaryCommand.parseAsRoot(["parse", "f.json"]) as? ParseCommand)
        #expect(command.input == "f.json")
        #expect(command.format == .json)
    }

    @Test func validateSummaryAndSourcesParse() throws {
        #expect(try TributaryCommand.parseAsRoot(["validate", "-c", "a.json"]) is ValidateCommand)
        #expect(try TributaryCommand.parseAsRoot(["summary"]) is SummaryCommand)
        #expect(try TributaryCommand.parseAsRoot(["sources"]) is SourcesCommand)
    }

    @Test func sourceDateEpochFixesTheClock() {
        #expect(
            RunClock.fixedNow(environment: ["SOURCE_DATE_EPOCH": "1795330800"])?.timeIntervalSince1970 == 1_795_330_800
        )
        #expect(RunClock.fixedNow(environment: ["SOURCE_DATE_EPOCH": "soon"]) == nil)
        #expect(RunClock.fixedNow(environment: [:]) == nil)
    }

    @Test func colorOnlyOnATerminalAndNeverWithNoColor() {
        // Standard output of a test run is not a terminal, so colour is off whatever the environment says.
        #expect(!Terminal.allowsColor(on: 1, environment: [:]))
        #expect(Terminal.width(of: 1, environment: ["COLUMNS": "132"]) == 132 || Terminal.isTerminal(1))
    }
}
