import Foundation
import Testing
import TributaryCore

@testable import PushAdapter

/// The push cursor across one-shot runs: a run ends with a checkpoint holding its last `seq`, and a run given that
/// checkpoint as its saved state resumes with `after=`, so it gets only newer items.
@Suite struct PushCheckpointTests {
    private func source(
        port: Int,
        savedState: SourceCheckpoint = SourceCheckpoint(),
        mode: SourceContext.Mode = .oneShot,
        listen: Duration = .milliseconds(1200)
    ) throws -> PushSource {
        var context = testContext(mode: mode)
        context.savedState = savedState
        return try PushSource(
            id: "wire",
            options: PushOptions(url: "ws://127.0.0.1:\(port)/feed", listen: listen),
            context: context
        )
    }

    private func checkpoints(_ events: [SourceEvent]) -> [SourceCheckpoint] {
        events.compactMap { event in
            guard case .checkpoint(let checkpoint) = event else { return nil }
            return checkpoint
        }
    }

    @Test func aSecondRunWithTheFirstRunsCheckpointGetsOnlyNewerItems() async throws {
        let configuration = PushSimulatorConfiguration(seed: 21, rate: 20, backlog: 10, epoch: testEpoch)
        let afters = Locked<[Int64?]>([])
        let (first, second) = try await withSimulator(
            configuration,
            onConnection: { after in afters.withLock { $0.append(after) } }
        ) { port in
            let first = EventRecorder()
            try await source(port: port).run(into: EventSink { await first.append($0) })
            let saved = try #require(checkpoints(await first.events).last)
            let second = EventRecorder()
            try await source(port: port, savedState: saved).run(into: EventSink { await second.append($0) })
            return (first, second)
        }
        let firstSeqs = await first.items.compactMap(seq(of:))
        let firstEvents = await first.events
        // The first run: the last 10 items when it connected (the backlog) and live items, then one checkpoint with
        // the last seq, after every item and before `finished`.
        let firstFirst = try #require(firstSeqs.first)
        let firstLast = try #require(firstSeqs.last)
        #expect(firstSeqs == Array(firstFirst...firstLast))
        #expect(firstSeqs.count > 10, "backlog and live items: \(firstSeqs)")
        #expect(checkpoints(firstEvents) == [SourceCheckpoint(["seq": String(firstLast)])])
        #expect(Array(firstEvents.suffix(2)) == [.checkpoint(SourceCheckpoint(["seq": String(firstLast)])), .finished])

        // The second run resumes after it: only newer items, none missing in between, and its own checkpoint.
        let secondSeqs = await second.items.compactMap(seq(of:))
        #expect(afters.value == [nil, firstLast])
        let secondFirst = try #require(secondSeqs.first)
        #expect(secondFirst == firstLast + 1)
        #expect(secondSeqs == Array(secondFirst...(secondSeqs.last ?? 0)))
        let secondLast = try #require(secondSeqs.last)
        #expect(checkpoints(await second.events) == [SourceCheckpoint(["seq": String(secondLast)])])
        #expect(await second.warnings.isEmpty)
        #expect(await second.events.last == .finished)
    }

    @Test func repeatedRunsAgainstAServerThatDropsEveryFewFramesGetEveryItemExactlyOnce() async throws {
        // A flaky server: the connection drops after every 3 frames. Six one-shot runs in a row, each resuming from
        // the last one's checkpoint, must together hold every item the server published up to the last one, each
        // once, and every run must reach `ready` (no silent loss behind an "ok").
        let configuration = PushSimulatorConfiguration(seed: 31, rate: 15, backlog: 40, dropEvery: 3, epoch: testEpoch)
        let runs = try await withSimulator(configuration) { port in
            var saved = SourceCheckpoint()
            var runs: [[SourceEvent]] = []
            for _ in 0..<6 {
                var context = testContext(mode: .oneShot)
                context.savedState = saved
                var options = PushOptions(url: "ws://127.0.0.1:\(port)/feed", listen: .milliseconds(700))
                options.reconnect.initialDelay = .milliseconds(20)
                let recorder = EventRecorder()
                try await PushSource(id: "wire", options: options, context: context)
                    .run(into: EventSink { await recorder.append($0) })
                let events = await recorder.events
                saved = checkpoints(events).last ?? saved
                runs.append(events)
            }
            return runs
        }
        var all: [Int64] = []
        for events in runs {
            #expect(events.last == .finished, "a run did not finish cleanly: \(String(describing: events.last))")
            all += events.flatMap { event -> [FeedItem] in
                guard case .items(let items) = event else { return [] }
                return items
            }.compactMap(seq(of:))
        }
        // The backlog is the last 40 items when the first run connects (live items may have begun by then).
        let first = try #require(all.first)
        #expect(first <= 2)
        #expect(all == Array(first...(all.last ?? 0)), "every item once, in order, none missing: \(all)")
        #expect(all.count > 40, "the backlog and live items: \(all.count)")
    }

    @Test func aRestartedServerIsReadAgainFromItsBacklogWithAWarning() async throws {
        // The saved cursor is from a server's earlier life (seq 500); this one has published 5 items since it
        // started again. Its `ready` at 5 is below the cursor: a reset, not "nothing new".
        let configuration = PushSimulatorConfiguration(seed: 4, rate: 0, backlog: 5, epoch: testEpoch)
        let afters = Locked<[Int64?]>([])
        let recorder = EventRecorder()
        try await withSimulator(configuration, onConnection: { after in afters.withLock { $0.append(after) } }) {
            port in
            try await source(port: port, savedState: SourceCheckpoint(["seq": "500"]), listen: .milliseconds(800))
                .run(into: EventSink { await recorder.append($0) })
        }
        #expect(afters.value == [500, nil])
        #expect(await recorder.items.compactMap(seq(of:)) == [1, 2, 3, 4, 5])
        let warnings = await recorder.warnings.map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("went back from 500 to 5") == true, "\(warnings)")
        #expect(checkpoints(await recorder.events) == [SourceCheckpoint(["seq": "5"])])
        #expect(await recorder.events.last == .finished)
    }

    @Test func aRunWithNothingNewSendsNoItemsAndNoNewCheckpoint() async throws {
        let configuration = PushSimulatorConfiguration(seed: 2, rate: 0, backlog: 8, epoch: testEpoch)
        let recorder = EventRecorder()
        try await withSimulator(configuration) { port in
            try await source(port: port, savedState: SourceCheckpoint(["seq": "8"]), listen: .milliseconds(500))
                .run(into: EventSink { await recorder.append($0) })
        }
        // `ready` arrived (no warning about a missing one), nothing after seq 8, and the saved state stands.
        #expect(await recorder.events == [.started, .finished])
    }

    @Test func anUnusableSavedCursorIsIgnoredWithAWarning() async throws {
        let configuration = PushSimulatorConfiguration(seed: 2, rate: 0, backlog: 5, epoch: testEpoch)
        let recorder = EventRecorder()
        try await withSimulator(configuration) { port in
            try await source(port: port, savedState: SourceCheckpoint(["seq": "latest"]), listen: .milliseconds(500))
                .run(into: EventSink { await recorder.append($0) })
        }
        #expect(await recorder.items.compactMap(seq(of:)) == Array(1...5))
        let warnings = await recorder.warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("\"latest\"") == true, "\(warnings)")
        #expect(checkpoints(await recorder.events) == [SourceCheckpoint(["seq": "5"])])
    }

    @Test func liveRunsAndSimulatedSourcesKeepNoCursor() async throws {
        // A simulated source's timeline starts again every run, so a saved seq means nothing to it.
        let simulated = try PushSource(
            id: "wire",
            options: PushOptions(simulate: .init(seed: 3, rate: 0, backlog: 6), listen: .milliseconds(300)),
            context: {
                var context = testContext(mode: .oneShot)
                context.savedState = SourceCheckpoint(["seq": "4"])
                return context
            }()
        )
        let recorder = EventRecorder()
        try await simulated.run(into: EventSink { await recorder.append($0) })
        #expect(await recorder.items.compactMap(seq(of:)) == Array(1...6))
        #expect(checkpoints(await recorder.events).isEmpty)

        // `watch` keeps its cursor in memory for the whole session; it neither reads nor sends checkpoints.
        let configuration = PushSimulatorConfiguration(seed: 3, rate: 0, backlog: 6, epoch: testEpoch)
        let live = EventRecorder()
        let satisfied = try await withSimulator(configuration) { port in
            await runLive(
                try source(port: port, savedState: SourceCheckpoint(["seq": "4"]), mode: .live),
                recorder: live
            ) { await $0.items.count >= 6 }
        }
        #expect(satisfied)
        #expect(await live.items.compactMap(seq(of:)) == Array(1...6))
        #expect(checkpoints(await live.events).isEmpty)
    }
}
