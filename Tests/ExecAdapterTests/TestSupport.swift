import AdapterConformance
import ExecAdapter
import Foundation
import Synchronization
import Testing
import TributaryCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Records every event a source sends, in order.
final class EventRecorder: Sendable {
    private let recorded = Mutex<[SourceEvent]>([])

    var events: [SourceEvent] { recorded.withLock { $0 } }

    var sink: EventSink {
        EventSink { [self] event in recorded.withLock { $0.append(event) } }
    }
}

/// A fresh directory holding a copy of every fixture, removed when `body` returns.
func withFixtureDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("exec-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    guard let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures"])
    }
    for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent(name),
            to: directory.appendingPathComponent(name)
        )
    }
    return try await body(directory)
}

/// An `exec` source running `command` in `directory`.
func makeSource(
    _ command: [String],
    in directory: URL,
    args: [String] = [],
    env: [String: String] = [:],
    cwd: String? = nil,
    timeout: Duration? = .seconds(20),
    stream: Bool = false
) throws -> ExecSource {
    try ExecSource(
        id: "script",
        options: ExecOptions(command: command, args: args, env: env, cwd: cwd, timeout: timeout, stream: stream),
        context: SourceContext(baseDirectory: directory)
    )
}

/// Runs a source to its end and returns what it sent.
func run(_ source: ExecSource) async throws -> [SourceEvent] {
    let recorder = EventRecorder()
    try await source.run(into: recorder.sink)
    return recorder.events
}

/// The pids the scripts wrote to `pids` in `directory`.
func recordedPIDs(in directory: URL) -> [pid_t] {
    let text = (try? String(contentsOf: directory.appendingPathComponent("pids"), encoding: .utf8)) ?? ""
    return text.split(whereSeparator: \.isNewline).compactMap { pid_t($0) }
}

/// Whether a process is gone: `kill -0` fails, or it is a zombie (dead, waiting for a parent to reap it; in
/// containers whose init does not reap, orphans stay zombies).
func isGone(_ pid: pid_t) -> Bool {
    if kill(pid, 0) != 0 { return true }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
}

/// The pids among `pids` still running after waiting up to `limit` for them to go: a killed process takes a moment
/// to be scheduled and die.
func survivors(of pids: [pid_t], within limit: Duration = .milliseconds(500)) async -> [pid_t] {
    let clock = ContinuousClock()
    let end = clock.now + limit
    while clock.now < end, pids.contains(where: { !isGone($0) }) {
        try? await Task.sleep(for: .milliseconds(5))
    }
    return pids.filter { !isGone($0) }
}

/// An RSS document with `count` items, large enough to arrive in several reads.
func generatedRSS(count: Int) -> String {
    let items = (0..<count).map { index in
        "<item><title>Generated \(index)</title><link>https://example.org/g/\(index)</link>"
            + "<guid>https://example.org/g/\(index)</guid><description>Item number \(index) of a long feed, "
            + "padded so that the document is larger than one pipe buffer.</description></item>"
    }
    return #"<?xml version="1.0"?><rss version="2.0"><channel><title>Generated</title>"#
        + items.joined(separator: "\n") + "</channel></rss>\n"
}

extension [SourceEvent] {
    var items: [FeedItem] {
        flatMap { event -> [FeedItem] in
            if case .items(let items) = event { return items }
            return []
        }
    }

    var warnings: [SourceWarning] {
        compactMap { event in
            if case .warning(let warning) = event { return warning }
            return nil
        }
    }

    var failure: SourceError? {
        for case .failed(let error) in self { return error }
        return nil
    }
}

/// A script run by the conformance kit, and what the kit should expect of it.
struct Fixture: Sendable, CustomTestStringConvertible {
    var name: String
    var command: [String]
    var expectation: ConformanceFixture.Expectation
    var stream = false
    var expectsSeveralBatches = false

    var testDescription: String { name }

    static let all: [Fixture] = [
        Fixture(name: "rss", command: ["sh", "print-file.sh", "rss.xml"], expectation: .items),
        Fixture(name: "atom", command: ["sh", "print-file.sh", "atom.xml"], expectation: .items),
        Fixture(name: "json-feed", command: ["sh", "print-file.sh", "feed.json"], expectation: .items),
        Fixture(name: "stream", command: ["sh", "stream.sh"], expectation: .items, stream: true),
        Fixture(
            name: "large-rss",
            command: ["sh", "print-file.sh", "large.xml"],
            expectation: .items,
            expectsSeveralBatches: true
        ),
        Fixture(name: "empty", command: ["sh", "empty.sh"], expectation: .empty),
        Fixture(name: "garbage", command: ["sh", "garbage.sh"], expectation: .malformed),
        Fixture(name: "truncated-rss", command: ["sh", "print-file.sh", "truncated-rss.xml"], expectation: .malformed),
        Fixture(name: "exit-3", command: ["sh", "fail.sh"], expectation: .malformed),
        Fixture(name: "missing-program", command: ["./no-such-program"], expectation: .unreachable),
    ]

    /// What the kit is told: the input's kind, and a leak check that every recorded process is gone.
    func conformance(in directory: URL) -> ConformanceFixture {
        ConformanceFixture(
            name,
            expectation: expectation,
            expectsSeveralBatches: expectsSeveralBatches,
            leakCheck: {
                await survivors(of: recordedPIDs(in: directory)).map { "process \($0)" }
            }
        )
    }
}
