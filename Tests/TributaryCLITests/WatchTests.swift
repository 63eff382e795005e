import ArgumentParser
import Foundation
import Synchronization
import Testing
import TributaryCore

@testable import TributaryCLI

@Suite struct WatchTests {
    @Test func watchAndSimulateParse() throws {
        let watch = try #require(
            try TributaryCommand.parseAsRoot(["watch", "-c", "a.json", "--interval", "30s"]) as? WatchCommand
        )
        #expect(watch.interval == "30s")
        #expect(watch.config.configPath == "a.json")
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(["watch", "--interval", "soon"]) }
        let simulate = try #require(
            try TributaryCommand.parseAsRoot([
                "simulate", "--port", "0", "--seed", "3", "--rate", "5", "--backlog", "9", "--drop-every", "7",
                "--garbage-every", "5",
            ]) as? SimulateCommand
        )
        #expect(simulate.port == 0)
        #expect(simulate.seed == 3)
        #expect(simulate.dropEvery == 7)
        #expect(simulate.garbageEvery == 5)
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(["simulate", "--drop-every", "1"]) }
    }

    @Test func printsOneSanitizedLinePerNewItem() async {
        let out = Locked("")
        let printer = WatchPrinter(
            sources: [("wire", "Wire")],
            timeZone: TimeZone(identifier: "UTC") ?? .current,
            live: false,
            writeOut: { text in out.withLock { $0 += text } },
            writeErr: { _ in }
        )
        var item = FeedItem(id: "1", url: "https://example.com/a", title: "Evil \u{1B}[31mred\u{1B}[0m title")
        item.tributary = TributaryExtension(source: "wire")
        await printer.handle(.itemsAdded([item]), at: Date(timeIntervalSince1970: 3661))
        let text = out.withLock { $0 }
        #expect(!text.contains("\u{1B}"))
        #expect(text.hasPrefix("01:01:01  wire  Evil"))
        #expect(text.hasSuffix("https://example.com/a\n"))
        #expect(text.split(separator: "\n").count == 1)
    }

    @Test func pollingRefetchesAndTurnsFailuresIntoWarnings() async throws {
        let runs = Locked(0)
        let inner = CountingSource(id: "pull", runs: runs)
        var polling = PollingSource(inner: inner, interval: .seconds(900), fetchTimeout: .seconds(5))
        polling.sleep = { _ in
            if runs.withLock({ $0 }) >= 3 { throw CancellationError() }
        }
        let events = Locked<[SourceEvent]>([])
        await #expect(throws: CancellationError.self) {
            try await polling.run(into: EventSink { event in events.withLock { $0.append(event) } })
        }
        let recorded = events.withLock { $0 }
        #expect(recorded.first == .started)
        #expect(recorded.filter { $0 == .started }.count == 1)
        #expect(!recorded.contains { $0.isTerminal })
        #expect(recorded.filter { if case .items = $0 { true } else { false } }.count == 2)
        #expect(
            recorded.contains { if case .warning(let w) = $0 { w.message.contains("trying again") } else { false } }
        )
    }
}

extension WatchTests {
    /// A pull source's checkpoint (its validators) stays out of the store: `watch` marks no items current, so a later
    /// digest answered `304` on it would serve stale items. A live source's checkpoint (its cursor) goes through.
    @Test(arguments: [false, true])
    func onlyALiveSourcesCheckpointReachesTheStore(live: Bool) async throws {
        let inner = CheckpointingSource(id: "s")
        var polling = PollingSource(inner: inner, interval: .seconds(900), fetchTimeout: live ? nil : .seconds(5))
        polling.sleep = { _ in throw CancellationError() }
        let events = Locked<[SourceEvent]>([])
        await #expect(throws: CancellationError.self) {
            try await polling.run(into: EventSink { event in events.withLock { $0.append(event) } })
        }
        let recorded = events.withLock { $0 }
        let checkpoints = recorded.filter { if case .checkpoint = $0 { true } else { false } }
        #expect(checkpoints == (live ? [.checkpoint(SourceCheckpoint(["etag": "\"1\""]))] : []))
        #expect(recorded.contains { if case .items = $0 { true } else { false } })
    }
}

/// Sends one item, a checkpoint and `finished`.
private struct CheckpointingSource: Source {
    struct Options: Decodable, Sendable {}
    static let kind = "checkpointing"
    static let documentation = SourceDocumentation(summary: "Test.", options: [], example: "{}")
    let id: SourceID

    init(id: SourceID, options: Options, context: SourceContext) throws { self.id = id }
    init(id: SourceID) { self.id = id }

    func run(into sink: EventSink) async throws {
        await sink.started()
        await sink.items([FeedItem(id: "item")])
        await sink.checkpoint(SourceCheckpoint(["etag": "\"1\""]))
        await sink.finished()
    }
}

/// Succeeds with one item, then fails, then succeeds.
private struct CountingSource: Source {
    struct Options: Decodable, Sendable {}
    static let kind = "counting"
    static let documentation = SourceDocumentation(summary: "Test.", options: [], example: "{}")
    let id: SourceID
    let runs: Locked<Int>

    init(id: SourceID, options: Options, context: SourceContext) throws {
        self.id = id
        self.runs = Locked(0)
    }

    init(id: SourceID, runs: Locked<Int>) {
        self.id = id
        self.runs = runs
    }

    func run(into sink: EventSink) async throws {
        let run = runs.withLock {
            $0 += 1
            return $0
        }
        await sink.started()
        if run == 2 {
            await sink.failed(SourceError(sourceID: id, reason: .other("boom")))
            return
        }
        await sink.items([FeedItem(id: "item-\(run)")])
        await sink.finished()
    }
}
