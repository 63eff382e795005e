import Foundation
import TestSupport

/// Fixture files from `Fixtures/`, loaded through `Bundle.module`.
enum Fixture {
    private static let directory = FixtureDirectory(bundle: .module)

    static func data(_ name: String) throws -> Data { try directory.data(name) }

    /// Every feed fixture (`.xml` and `.html`), sorted.
    static var feedNames: [String] { directory.feedNames }
}
