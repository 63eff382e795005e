import Foundation
import Synchronization
import Testing
import TributaryCore

@testable import PushAdapter

/// The push source against the real simulator on 127.0.0.1, port 0. Time bounds are generous: they detect hangs,
/// they do not measure speed.
@Suite struct PushSimulatorServerTests {
    private func options(port: Int, _ configure: (inout PushOptions) -> Void = { _ in }) -> PushOptions {
        var options = PushOptions(url: "ws://127.0.0.1:\(port)/feed")
        options.reconnect = .init(initialDelay: .milliseconds(20), maxDelay: .milliseconds(200))
        configure(&options)
        return options
    }

    @Test func backlogReadyAndLiveItemsArriveExactlyOnceInSeqOrder() async throws {
        let configuration = PushSimulatorConfiguration(seed: 11, rate: 20, backlog: 10, epoch: testEpoch)
        let recorder = EventRecorder()
        try await withSimulator(configuration) { port in
            let source = try PushSource(
                id: "wire",
                options: options(port: port) { $0.listen = .milliseconds(1500) },
                context: testContext(mode: .oneShot)
            )
            try await source.run(into: EventSink { await recorder.append($0) })
        }
        let items = await recorder.items
        let seqs = items.compactMap(seq(of:))
        #expect(seqs.count == items.count)
        let first = try #require(seqs.first)
        #expect(seqs == Array(first..<(first + Int64(seqs.count))), "not contiguous, in order, once each: \(seqs)")
        #expect(seqs.count > 15, "backlog plus live items: \(seqs.count)")
        let generator = configuration.generator
        for item in items {
            var expected = generator.item(seq: seq(of: item) ?? 0)
            expected.tributary?.source = "wire"
            #expect(item == expected)
        }
        #expect(await recorder.warnings.isEmpty)
        #expect(await recorder.events.last == .finished)
    }

    @Test func reconnectsWithAfterWhenDroppedAndLosesAndRepeatsNothing() async throws {
        // The simulator heartbeats every second and the source gives up on a silent connection after 4 s, so a
        // connection that delivers nothing (the upstream stall below) is recovered from within the time bound.
        var configuration = PushSimulatorConfiguration(seed: 5, rate: 0, backlog: 60, dropEvery: 7, epoch: testEpoch)
        configuration.heartbeatInterval = .seconds(1)
        let afters = Locked<[Int64?]>([])
        let recorder = EventRecorder()
        let started = ContinuousClock.now
        let satisfied = try await withSimulator(
            configuration,
            onConnection: { after in afters.withLock { $0.append(after) } }
        ) { port in
            let source = try PushSource(
                id: "wire",
                options: options(port: port) { $0.heartbeatTimeout = .seconds(4) },
                context: testContext(mode: .live)
            )
            return await runLive(source, recorder: recorder) { await $0.items.count >= 60 }
        }
        #expect(satisfied)
        #expect(ContinuousClock.now - started < .seconds(30))
        let generator = configuration.generator
        let expected = (Int64(1)...60).map { seq in
            var item = generator.item(seq: seq)
            item.tributary?.source = "wire"
            return item
        }
        // The final item set is the server's exactly: no duplicate, no gap, in order.
        #expect(await recorder.items == expected)
        // Every reconnect resumed after the last item it had: each drop's resume point appears, in order, and a
        // repeated one only ever follows a connection that delivered nothing.
        let resumed = afters.value
        #expect(resumed.first == .some(nil))
        #expect(
            resumed.compactMap { $0 }.reduce(into: [Int64]()) { if $0.last != $1 { $0.append($1) } }
                == [7, 14, 21, 28, 35, 42, 49, 56]
        )
        // Every connection delivered its frames (our own client loses nothing that arrives with the 101), so no
        // connection was repeated and no heartbeat timeout was needed.
        #expect(resumed == [nil, 7, 14, 21, 28, 35, 42, 49, 56])
        let warnings = await recorder.warnings
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func everyValidItemArrivesThroughGarbageAndTheWarningsAreCounted() async throws {
        let configuration = PushSimulatorConfiguration(seed: 9, rate: 0, backlog: 40, garbageEvery: 5, epoch: testEpoch)
        let garbageSent = Locked(0)
        let recorder = EventRecorder()
        try await withSimulator(
            configuration,
            onEvent: { event in if event == .garbageSent { garbageSent.withLock { $0 += 1 } } }
        ) { port in
            let source = try PushSource(
                id: "wire",
                options: options(port: port) { $0.listen = .seconds(3) },
                context: testContext(mode: .oneShot)
            )
            try await source.run(into: EventSink { await recorder.append($0) })
        }
        #expect(await recorder.items.compactMap(seq(of:)) == Array(1...40))
        // Every malformed frame the server sent is one warning, and there is no other warning (no missing `ready`,
        // no heartbeat timeout). 41 good frames (40 items, `ready`) with every fifth frame garbage: 10 of them
        // before the first heartbeat is due (5 s, after the listen window).
        let warnings = await recorder.warnings
        #expect(warnings.count == garbageSent.value)
        #expect(garbageSent.value == 10)
        #expect(warnings.allSatisfy { $0.message.hasPrefix("skipped") }, "\(warnings)")
        #expect(await recorder.events.last == .finished)
    }

    @Test func aServerThatStopsSendingIsDetectedAndReconnected() async throws {
        let configuration = PushSimulatorConfiguration(
            seed: 3,
            rate: 0,
            backlog: 40,
            heartbeatInterval: .milliseconds(50),
            silentAfter: 15,
            epoch: testEpoch
        )
        let afters = Locked<[Int64?]>([])
        let recorder = EventRecorder()
        let started = ContinuousClock.now
        let satisfied = try await withSimulator(
            configuration,
            onConnection: { after in afters.withLock { $0.append(after) } }
        ) {
            port in
            let source = try PushSource(
                id: "wire",
                options: options(port: port) { $0.heartbeatTimeout = .milliseconds(300) },
                context: testContext(mode: .live)
            )
            return await runLive(source, recorder: recorder) { await $0.items.count >= 40 }
        }
        #expect(satisfied)
        // Three connections of 15 frames; two silences of 300 ms plus backoff. Bound: hang detection only.
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(await recorder.items.compactMap(seq(of:)) == Array(1...40))
        #expect(afters.withLock { Array($0.prefix(3)) } == [nil, 15, 30])
        #expect(await recorder.warnings.filter { $0.message.contains("heartbeatTimeout") }.count >= 2)
    }

    @Test func anUnreachableServerFailsItsSourceWhileTheOthersRender() async throws {
        // A port that was just free: start a server on port 0, note the port, stop it.
        let closedPort = try await withSimulator(PushSimulatorConfiguration(epoch: testEpoch)) { $0 }
        let unreachable = try PushSource(
            id: "newsroom",
            options: options(port: closedPort) { $0.listen = .seconds(1) },
            context: testContext(mode: .oneShot)
        )
        let simulated = try PushSource(
            id: "wire",
            options: PushOptions(simulate: .init(seed: 7, rate: 0, backlog: 5), listen: .milliseconds(300)),
            context: testContext(mode: .oneShot)
        )
        let pipeline = Pipeline(
            sources: [
                PipelineSource(source: unreachable, kind: "push"), PipelineSource(source: simulated, kind: "push"),
            ],
            settings: PipelineSettings(defaultTimeout: .seconds(30)),
            store: InMemoryItemStore()
        )
        let result = try await pipeline.run()
        let failed = try #require(result.statuses.first { $0.sourceID == "newsroom" })
        let error = try #require(failed.error)
        guard case .connection(let url, let detail) = error.reason else {
            Issue.record("expected a connection failure, got \(error)")
            return
        }
        #expect(url == "ws://127.0.0.1:\(closedPort)/feed")
        #expect(detail.contains("refused"), "\(detail)")
        #expect(result.items.count == 5)
        let digest = DigestBuilder(
            title: "t",
            timeZone: TimeZone(identifier: "UTC") ?? .current,
            generatedAt: testEpoch
        )
        .build(items: result.items, statuses: result.statuses)
        #expect(digest.itemCount == 5)
        #expect(digest.failedSources.map(\.id) == ["newsroom"])
    }
}
