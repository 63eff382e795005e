import Foundation
import SQLiteStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills `tributary digest` with SIGKILL at random moments while it writes to the state store, then checks that
/// the store opens, passes `PRAGMA integrity_check`, and that a new run succeeds.
@Suite(.serialized) struct CrashSafetyTests {
    static let sourceCount = 4
    static let itemsPerSource = 1000

    /// Writes `<id>.json` with `itemsPerSource` items whose ids carry `generation`, so every run inserts.
    static func writeFeed(_ id: String, generation: Int, in workspace: Workspace) throws {
        var items: [String] = []
        items.reserveCapacity(itemsPerSource)
        for index in 0..<itemsPerSource {
            items.append(
                #"{ "id": "\#(id)-\#(generation)-\#(index)", "url": "https://example.com/\#(id)/\#(generation)/\#(index)", "title": "Item \#(index) of \#(id)", "content_text": "Some text for item \#(index), long enough to be written. \#(String(repeating: "x", count: 200))", "date_published": "2026-11-2\#(index % 9 + 1)T08:00:00Z" }"#
            )
        }
        try workspace.write(
            "\(id).json",
            #"{ "version": "https://jsonfeed.org/version/1.1", "title": "\#(id)", "items": [\#(items.joined(separator: ",\n"))] }"#
        )
    }

    /// Starts `tributary digest` and returns the process, its output thrown away.
    static func startDigest(in workspace: Workspace) throws -> Process {
        let process = Process()
        process.executableURL = try TributaryProcess.executable
        process.arguments = ["digest", "-q"]
        process.currentDirectoryURL = workspace.url
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": workspace.url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func killingDigestWhileItWritesNeverCorruptsTheStore() async throws {
        let workspace = try Workspace()
        let ids = (0..<Self.sourceCount).map { "feed\($0)" }
        let entries = ids.map { #"{ "id": "\#($0)", "kind": "json-file", "path": "\#($0).json" }"# }
        try workspace.write("feeds.json", #"{ "sources": [\#(entries.joined(separator: ", "))] }"#)
        for id in ids { try Self.writeFeed(id, generation: 0, in: workspace) }

        // One whole run, timed: the kills fall within a run's length.
        let clock = ContinuousClock()
        let started = clock.now
        let calibration = try Self.startDigest(in: workspace)
        calibration.waitUntilExit()
        #expect(calibration.terminationStatus == 0)
        let runLength = max(clock.now - started, .milliseconds(100))
        let milliseconds = Int(
            runLength.components.seconds * 1000 + runLength.components.attoseconds / 1_000_000_000_000_000
        )

        var generator = SystemRandomNumberGenerator()
        var killed = 0
        // Ten kills at random points of a run. A round whose run ended before its kill does not count: on a busy
        // machine the calibrated length misleads, and a fixed twenty rounds fell one kill short (9 of 20).
        for round in 1...40 where killed < 10 {
            // New ids in one feed each round, so the run has inserts to make, not only updates.
            try Self.writeFeed(ids[round % ids.count], generation: round, in: workspace)
            let process = try Self.startDigest(in: workspace)
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...max(21, milliseconds), using: &generator)))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            process.waitUntilExit()
        }
        #expect(killed >= 10, "only \(killed) of 40 runs were still running when killed (a run takes \(runLength))")

        let storeURL = workspace.url.appendingPathComponent(".tributary/state.sqlite")
        let store = try await SQLiteStore.open(at: storeURL)
        #expect(try await store.integrityCheck() == ["ok"])
        let countAfterKills = try await store.items().count
        #expect(countAfterKills >= Self.sourceCount * Self.itemsPerSource)
        try await store.close()

        let final = try Self.startDigest(in: workspace)
        final.waitUntilExit()
        #expect(final.terminationStatus == 0)
        let reopened = try await SQLiteStore.open(at: storeURL)
        #expect(try await reopened.integrityCheck() == ["ok"])
        #expect(try await reopened.items().count >= countAfterKills)
        #expect(try await reopened.lastDigestDate() != nil)
    }
}
