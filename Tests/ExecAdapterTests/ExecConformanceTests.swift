import AdapterConformance
import ExecAdapter
import Foundation
import Testing
import TributaryCore

@Suite struct ExecConformanceTests {
    @Test(arguments: Fixture.all)
    func conformsToSourceContract(_ f: Fixture) async throws {
        try await withFixtureDirectory { directory in
            try generatedRSS(count: 600).write(
                to: directory.appendingPathComponent("large.xml"),
                atomically: true,
                encoding: .utf8
            )
            try await SourceConformance.check(
                { try makeSource(f.command, in: directory, stream: f.stream) },
                fixture: f.conformance(in: directory)
            )
        }
    }
}
