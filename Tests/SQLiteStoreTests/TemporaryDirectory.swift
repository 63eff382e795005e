import Foundation

/// A fresh temporary directory per test, removed when the test is done with it.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tributary-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The store's file inside the directory (its parent `.tributary` does not exist yet).
    var storeURL: URL { url.appendingPathComponent(".tributary/state.sqlite") }

    /// The directory's files, recursively, with their contents: to check that something changed nothing.
    func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = enumerator?.nextObject() as? URL {
            let values = try file.resourceValues(forKeys: [.isRegularFileKey])
            if values.isRegularFile == true {
                result[file.path] = try Data(contentsOf: file)
            }
        }
        return result
    }
}
