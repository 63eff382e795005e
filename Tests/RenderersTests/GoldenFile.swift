import Foundation
import Testing

/// Compares rendered output byte for byte with `Golden/<testName>.<ext>` beside this file.
///
/// With `RECORD_GOLDEN=1` in the environment the file is (re)written and the test fails, so that nothing is ever
/// recorded silently: review the diff, then run the tests again without it.
enum GoldenFile {
    static func check(
        _ output: String,
        ext: String,
        testName: String = #function,
        filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = String(testName.prefix { $0 != "(" })
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden", isDirectory: true)
            .appendingPathComponent("\(name).\(ext)")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try Data(output.utf8).write(to: url, options: .atomic)
            Issue.record(
                "Recorded Golden/\(name).\(ext); review the diff and run the tests again without RECORD_GOLDEN=1",
                sourceLocation: sourceLocation
            )
            return
        }
        guard let expected = try? Data(contentsOf: url) else {
            Issue.record(
                "Golden/\(name).\(ext) is missing; run the tests with RECORD_GOLDEN=1 to create it",
                sourceLocation: sourceLocation
            )
            return
        }
        guard Data(output.utf8) != expected else { return }
        let expectedLines = String(decoding: expected, as: UTF8.self).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        let actualLines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let index =
            zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let expectedLine =
            index < expectedLines.count ? String(reflecting: String(expectedLines[index])) : "(end of file)"
        let actualLine = index < actualLines.count ? String(reflecting: String(actualLines[index])) : "(end of output)"
        Issue.record(
            """
            Output differs from Golden/\(name).\(ext) at line \(index + 1):
              expected: \(expectedLine)
              actual:   \(actualLine)
            If the change is intended, run the tests with RECORD_GOLDEN=1 and review the diff.
            """,
            sourceLocation: sourceLocation
        )
    }
}
