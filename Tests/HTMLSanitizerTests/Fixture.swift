import Foundation
import Testing

/// One sanitizer case from a JSON fixture.
struct SanitizerCase: Decodable, Sendable, CustomTestStringConvertible {
    /// The vector's or test file's name.
    var name: String
    var html: String
    /// What the sanitizer must return (when the fixture says).
    var expected: String?
    /// What feedparser returns for the same input (for reference; our policy differs where noted in the tests).
    var feedparser: String?

    var testDescription: String { name }

    /// The cases of `Fixtures/<name>.json`.
    static func load(_ name: String) -> [SanitizerCase] {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let cases = try? JSONDecoder().decode([SanitizerCase].self, from: data)
        else { return [] }
        return cases
    }
}
