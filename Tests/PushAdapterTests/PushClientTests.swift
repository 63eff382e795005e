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
        var frames: [String]
        var ending: Ending
    }

    private let scripts: Locked<[Script]>
    private let urls = Locked<[String]>([])

    init(_ scripts: [Script]) {
        self.scripts = Locked(scripts)
    }

    var connectedURLs: [String] { urls.withLock { $0 } }

    func connect(to url: String, onMessage: @escaping @Sendable (String?) async -> Void) async throws {
        urls.withLock { $0.append(url) }
        let script = scripts.withLock { $0.isEmpty ? Script(frames: [], ending: .fail("refused")) : $0.removeFirst() }
        for frame in script.frames { await onMessage(frame) }
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

    @Test func oneShotWithoutReadyFinishesAtTheListenWindowWithAWarning() async throws {
        let transport = ScriptedTransport([.init(frames: [frame(1)], ending: .hang)])
        let recorder = Recorder()
        let client = client(transport, mode: .oneShot, listen: .milliseconds(200), delays: Locked([]))
        try await client.run(into: EventSink { await recorder.append($0) })
        #expect(await recorder.items.map(\.id) == ["i1"])
        #expect(await recorder.warnings.contains { $0.message.contains("no 'ready'") })
        #expect(await recorder.events.last == .finished)
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
