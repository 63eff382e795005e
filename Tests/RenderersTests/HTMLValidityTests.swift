import Foundation
import Renderers
import TestSupport
import Testing
import TributaryCore

/// Runs an HTML5 validator, Debian's HTML Tidy 5 (`tidy -errors -q`), on the digest of the sample feeds: it must
/// report neither errors nor warnings. Skipped only when tidy is missing and CI is not set.
@Suite(.enabled(if: ExternalTool.tidy.shouldRun, ExternalTool.tidy.skipMessage))
struct HTMLValidityTests {
    /// The validator's complaints about `html`, one per line; empty when the document is valid.
    static func problems(in html: String) throws -> [String] {
        // --show-warnings yes: Tidy's warnings cover HTML5 content-model mistakes too; -errors: print no document.
        let result = try ExternalTool.tidy.run(["-errors", "-q", "--show-warnings", "yes", "-utf8"], input: html)
        // Exit status 0 means no warnings or errors, 1 warnings, 2 errors.
        guard result.status != 0 else { return [] }
        return result.error.split(separator: "\n").map(String.init)
    }

    @Test func theValidatorReportsNothingOnTheSampleDigest() throws {
        let html = try HTMLRenderer().render(.sample)
        #expect(try Self.problems(in: html) == [])
    }

    @Test func theValidatorReportsNothingOnAnEmptyDigest() throws {
        let html = try HTMLRenderer().render(TestDigest.digest([]))
        #expect(try Self.problems(in: html) == [])
    }

    @Test func theValidatorDoesReportBrokenMarkup() throws {
        // The validator is really listening: a page with a stray end tag and an unknown element does not pass.
        let html = try HTMLRenderer().render(.sample)
            .replacingOccurrences(of: "</main>", with: "</div></main><blink>x</blink>")
        #expect(try !Self.problems(in: html).isEmpty)
    }
}
