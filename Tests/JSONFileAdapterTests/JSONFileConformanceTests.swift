import AdapterConformance
import Foundation
import JSONFileAdapter
import Testing
import TributaryCore

@Suite struct JSONFileConformanceTests {
    @Test(arguments: Fixture.all)
    func conformsToSourceContract(_ f: Fixture) async throws {
        try await withTemporaryDirectory { directory in
            try f.prepare(in: directory)
            let context = SourceContext(baseDirectory: directory)
            try await SourceConformance.check(
                { try JSONFileSource(id: "kit", options: JSONFileOptions(path: f.name), context: context) },
                fixture: f.conformance
            )
        }
    }
}
