import Foundation
import Logging
import Synchronization
import Testing
import TributaryCore

@testable import PushAdapter

/// A scripted transport: each connection sends its frames, then closes, fails or hangs.
private final class ScriptedTransport: PushTransport {
    enum Ending: Sendable { case close, fail(String), hang }
    struct Script: Sendable {
        var messages: [PushMessage]
        var ending: Ending

        init(frames: [String], ending: Ending) {
            self.init(messages: frames.map { .text($0) }, ending: ending)
        }

        init(messages: [PushMessage], ending: Ending) {
            self.messages = messages
            self.ending = ending
        }
    }

    private let scripts: Locked<[Script]>
    private let urls = Locked<[String]>([])

    init(_ scripts: [Script]) {
        self.scripts = Locked(scripts)
    }

    var connectedURLs: [String] { urls.withLock { $0 } }

    func connect(to url: String, onMessage: @escaping @Sendable (PushMessage) async -> Void) async throws {
        urls.withLock { $0.append(url) }
        let script = scripts.withLock { $0.isEmpty ? Script(frames: [], ending: .fail("refused")) : $0.removeFirst() }
        for message in script.messages { await onMessage(message) }
        switch script.ending {
        case .close: return
        case .fail(let message): throw TestTransportError(message: message)
        case .hang: try await Task.sleep(for: .seconds(3600))
        }
    }
}

private struct TestTransportError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

private actor Recorder {
    var events: [SourceEvent] = []
    func append(_ event: SourceEvent) { events.append(event) }
    var items: [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            guard case .items(let items) = event else { return [] }
            return items
        }
    }

    var warnings: [SourceWarning] {
        events.compactMap { event -> SourceWarning? in
            guard case .warning(let warning) = event else { return nil }
            return warning
        }
    }
}

@Suite struct PushClientTests {
    private func frame(_ seq: Int64) -> String { PushFrame.item(seq: seq, item: FeedItem(id: "i\(seq)")).encoded() }
    private func ready(_ seq: Int64) -> String { PushFrame.ready(seq: seq).encoded() }
    private func heartbeat(_ seq: Int64) -> String { PushFrame.heartbeat(seq: seq).encoded() }

    private func client(
        _ transport: ScriptedTransport,
        mode: SourceContext.Mode,
        listen: Duration = .seconds(30),
        heartbeatTimeout: Duration = .seconds(30),
        maxAttempts: Int? = nil,
        delays: Locked<[Duration]>
    ) -> PushClient {
        var client = PushClient(
            sourceID: "wire",
            url: "ws://127.0.0.1:1/feed",
            transport: transport,
            heartbeatTimeout: heartbeatTimeout,
            listen: listen,
            maxMessageSize: 4096,
            reconnect: .init(initialDelay: .milliseconds(500), maxDelay: .seconds(30), maxAttempts: maxAttempts),
            mode: mode,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        client.sleep = { delay in delays.withLock { $0.append(delay) } }
        client.jitter = { 1 }
        return client
    }

    @Test func resumesWithAfterAndNeverRepeatsAnItem() async throws {
        let transport = ScriptedTransport([
            .init(frames: [frame(1), frame(2)], ending: .close),
            .init(frames: [frame(2), frame(3), ready(3), frame(4)], ending: .fail("reset")),
            .init(frames: [ready(4), frame(5)], ending: .close),
        ])
        let delays = Locked<[Duration]>([])
        let recorder = Recorder()
        let client = client(transport, mode: .live, maxAttempts: 1, delays: delays)
        try await client.run(into: EventSink { await recorder.append($0) })

        #expect(await recorder.items.map(\.id) == ["i1", "i2", "i3", "i4", "i5"])
        #expect(await recorder.items.allSatisfy { $0.sourceID == "wire" })
        #expect(await recorder.events.first == .started)
        #expect(
            transport.connectedURLs == [
                "ws://127.0.0.1:1/feed", "ws://127.0.0.1:1/feed?after=2", "ws://127.0.0.1:1/feed?after=4",
                "ws://127.0.0.1:1/feed?after=5",
            ]
        )
        // Every connection but the last delivered frames, so each reconnect waited only the shortest delay; the
        // last one (refused) used up the single fruitless attempt allowed.
        #expect(delays.value == [.milliseconds(500), .milliseconds(500), .milliseconds(500)])
        guard case .failed = await recorder.events.last else {
            Issue.record("expected failed, got \(await recorder.events)")
            return
        }
    }

    @Test func backsOffExponentiallyWhileConnectionsDeliverNothing() async throws {
        let transport = ScriptedTransport([
            .init(frames: [], ending: .fail("refused")),
            .init(frames: [], ending: .fail("refused")),
            .init(frames: [], ending: .close),
            .init(frames: [ready(0)], ending: .fail("reset")),
            .init(frames: [], ending: .fail("refused")),
        ])
        let delays = Locked<[Duration]>([])
        let recorder = Recorder()
        let client = client(transport, mode: .live, maxAttempts: 3, delays: delays)
        try await client.run(into: EventSink { await recorder.append($0) })

        let expected: [Duration] = [
            .milliseconds(500), .seconds(1), .seconds(2), .milliseconds(500), .seconds(1), .seconds(2),
        ]
        #expect(delays.withLock { $0 } == expected)
        #expect(transport.connectedURLs.count == 7)
        guard case .failed(let error) = await recorder.events.last else {
            Issue.record("expected failed, got \(await recorder.events)")
            return
        }
        #expect(error.description.contains("refused"))
        #expect(error.description.contains("maxAttempts"))
    }

    @Test func aSilentConnectionIsDeadAfterTheHeartbeatTimeout() async throws {
        let transport = ScriptedTransport([
            .init(frames: [frame(1)], ending: .hang),
            .init(frames: [frame(1), frame(2)], ending: .hang),
        ])
        let delays = Locked<[Duration]>([])
        let recorder = Recorder()
        let client = client(
            transport,
            mode: .live,
            heartbeatTimeout: .milliseconds(100),
            maxAttempts: 1,
            delays: delays
        )
        let started = ContinuousClock.now
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(transport.connectedURLs.count == 3)
        #expect(transport.connectedURLs.dropFirst().first == "ws://127.0.0.1:1/feed?after=1")
        #expect(await recorder.items.map(\.id) == ["i1", "i2"])
        #expect(await recorder.warnings.filter { $0.message.contains("heartbeatTimeout") }.count == 2)
    }

    @Test func malformedFramesBecomeWarningsAndTheStreamGoesOn() async throws {
        let transport = ScriptedTransport([
            .init(frames: ["nope", frame(1), #"{"type":"x","seq":2}"#, ready(1), frame(2)], ending: .hang)
        ])
        let delays = Locked<[Duration]>([])
        let recorder = Recorder()
        let client = client(transport, mode: .oneShot, listen: .milliseconds(200), delays: delays)
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(await recorder.items.map(\.id) == ["i1", "i2"])
        #expect(await recorder.warnings.count == 2)
        #expect(await recorder.events.last == .finished)
    }

    @Test func oneShotWithoutReadyKeepsItsItemsButIsReportedIncomplete() async throws {
        let transport = ScriptedTransport([.init(frames: [frame(1)], ending: .hang)])
        let recorder = Recorder()
        let client = client(transport, mode: .oneShot, listen: .milliseconds(200), delays: Locked([]))
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(await recorder.items.map(\.id) == ["i1"])
        guard case .failed(let error) = await recorder.events.last, case .incomplete(let detail) = error.reason else {
            Issue.record("expected an incomplete failure, got \(await recorder.events)")
            return
        }
        #expect(detail.contains("no 'ready'"))
        #expect(detail.contains("listen"))
    }

    @Test func anOversizedMessageIsSkippedWithAWarningAndTheCursorMovesPastIt() async throws {
        let transport = ScriptedTransport([
            .init(
                messages: [.text(frame(1)), .oversized(size: 5_000_000, seq: 2), .text(frame(3)), .text(ready(3))],
                ending: .hang
            )
        ])
        let recorder = Recorder()
        var client = client(transport, mode: .oneShot, listen: .milliseconds(200), delays: Locked([]))
        client.sendsCheckpoints = true
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(await recorder.items.map(\.id) == ["i1", "i3"])
        let warnings = await recorder.warnings.map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("5000000-byte") == true)
        #expect(warnings.first?.contains("seq 2") == true)
        #expect(warnings.first?.contains("maxMessageSize") == true)
        #expect(await recorder.events.contains(.checkpoint(SourceCheckpoint(["seq": "3"]))))
        #expect(await recorder.events.last == .finished)
    }

    @Test func anOversizedMessageThatIsTheLastOneStillMovesTheCursor() async throws {
        // The next run must not ask for the same message again: the checkpoint holds its seq.
        let transport = ScriptedTransport([
            .init(messages: [.oversized(size: 9_000_000, seq: 7), .text(ready(7))], ending: .hang)
        ])
        let recorder = Recorder()
        var client = client(transport, mode: .oneShot, listen: .milliseconds(200), delays: Locked([]))
        client.savedCursor = "6"
        client.sendsCheckpoints = true
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(transport.connectedURLs == ["ws://127.0.0.1:1/feed?after=6"])
        #expect(await recorder.events.contains(.checkpoint(SourceCheckpoint(["seq": "7"]))))
        #expect(await recorder.events.last == .finished)
    }

    @Test func aServerWhoseSeqWentBackIsReadAgainFromItsBacklog() async throws {
        // The saved cursor says 20; the restarted server has only reached 2. The first connection (after=20) gets
        // nothing but a ready at 2: a reset, warned about, and the next connection asks for the whole backlog.
        let transport = ScriptedTransport([
            .init(frames: [ready(2)], ending: .hang),
            .init(frames: [frame(1), frame(2), ready(2)], ending: .hang),
        ])
        let recorder = Recorder()
        var client = client(transport, mode: .oneShot, listen: .milliseconds(300), delays: Locked([]))
        client.savedCursor = "20"
        client.sendsCheckpoints = true
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(transport.connectedURLs == ["ws://127.0.0.1:1/feed?after=20", "ws://127.0.0.1:1/feed"])
        #expect(await recorder.items.map(\.id) == ["i1", "i2"])
        let warnings = await recorder.warnings.map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("went back from 20 to 2") == true)
        #expect(await recorder.events.contains(.checkpoint(SourceCheckpoint(["seq": "2"]))))
        #expect(await recorder.events.last == .finished)
    }

    @Test func aHeartbeatBelowTheCursorIsAResetToo() async throws {
        let transport = ScriptedTransport([
            .init(frames: [frame(5), ready(5), heartbeat(1)], ending: .close),
            .init(frames: [ready(0)], ending: .hang),
        ])
        let recorder = Recorder()
        var client = client(transport, mode: .oneShot, listen: .milliseconds(300), delays: Locked([]))
        client.sendsCheckpoints = true
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(transport.connectedURLs == ["ws://127.0.0.1:1/feed", "ws://127.0.0.1:1/feed"])
        #expect(await recorder.items.map(\.id) == ["i5"])
        #expect(await recorder.warnings.map(\.message).contains { $0.contains("went back from 5 to 1") })
        // Nothing since the reset: the saved cursor is cleared, so the next run does not meet the reset again.
        #expect(await recorder.events.contains(.checkpoint(SourceCheckpoint([:]))))
    }

    @Test func oneShotThatNeverConnectsFails() async throws {
        let transport = ScriptedTransport([])
        let recorder = Recorder()
        let client = client(transport, mode: .oneShot, listen: .milliseconds(200), delays: Locked([]))
        try await client.run(into: EventSink { await recorder.append($0) })
        guard case .failed(let error) = await recorder.events.last else {
            Issue.record("expected failed, got \(await recorder.events)")
            return
        }
        guard case .connection(let url, let detail) = error.reason else {
            Issue.record("expected a connection failure, got \(error)")
            return
        }
        #expect(url == "ws://127.0.0.1:1/feed")
        #expect(detail.contains("refused"))
        #expect(detail.contains("listen window"))
    }

    @Test func cancellationEndsALiveRunPromptly() async throws {
        let transport = ScriptedTransport([.init(frames: [ready(0)], ending: .hang)])
        let client = client(transport, mode: .live, delays: Locked([]))
        let started = ContinuousClock.now
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run(into: EventSink { _ in }) }
            try? await Task.sleep(for: .milliseconds(100))
            group.cancelAll()
            await #expect(throws: CancellationError.self) { try await group.next() }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
