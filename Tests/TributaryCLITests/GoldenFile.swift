import Foundation
import Testing

/// Compares output with a golden file in `Fixtures/Golden/`, byte for byte. With `RECORD_GOLDEN=1` it rewrites the
/// file and fails the test, so that nothing is ever recorded silently (argument-parser's rule).
enum GoldenFile {
    static func expect(
        _ output: String,
        matches name: String,
        filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Golden/\(name)")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try Data(output.utf8).write(to: url)
            Issue.record(
                "recorded \(url.path); unset RECORD_GOLDEN and review the diff",
                sourceLocation: sourceLocation
            )
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(
            output == expected,
            "output differs from \(name); run with RECORD_GOLDEN=1 to record it, then review the diff",
            sourceLocation: sourceLocation
        )
    }
}
