import Foundation
import Logging
import Testing
import TributaryCore

@testable import PushAdapter

/// Single WebSocket connections between ``WebSocketPushTransport`` and the real simulator on 127.0.0.1: every one
/// delivers its frames at once, and the server reads what the client sends (pings, the close frame).
@Suite struct PushConnectionTests {
    private func transport(autoPing: Duration? = nil) -> WebSocketPushTransport {
        WebSocketPushTransport(
            maxMessageSize: 1 << 20,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            autoPing: autoPing
        )
    }

    /// Connects, waits until `count` messages arrived or `limit` passed, then closes the connection.
    /// - Returns: the messages received by then.
    private func receive(
        _ count: Int,
        from url: String,
        within limit: Duration,
        transport: WebSocketPushTransport
    ) async -> [String] {
        let received = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await transport.connect(to: url) { message in
                    guard case .text(let text) = message else { return }
                    received.withLock { $0.append(text) }
                }
            }
            group.addTask {
                let deadline = ContinuousClock.now + limit
                while !Task.isCancelled, ContinuousClock.now < deadline, received.value.count < count {
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            await group.next()
            group.cancelAll()
        }
        return received.value
    }

    /// The stall of issue 5: a server that sends its frames and closes at once after the upgrade (here a drop after 4
    /// frames, about 1 ms after the 101 response). With swift-websocket's client, now and then (5 of 150 connections
    /// on a loaded 2-core machine) the client saw neither the frames nor the close nor the end of the TCP stream and
    /// waited until the heartbeat timeout: NIOTypedHTTPClientUpgradeHandler let an end of stream that arrived with
    /// the 101 pass before the WebSocket handlers existed. Our own client reads the answer's head and the frames
    /// after it in one loop, so every connection must deliver its 4 frames and end at once.
    @Test func everyConnectionDeliversItsFramesAndItsEndAtOnce() async throws {
        let configuration = PushSimulatorConfiguration(seed: 1, rate: 0, backlog: 10, dropEvery: 4, epoch: testEpoch)
        let cycles = 150
        let stalls = try await withSimulator(configuration) { port in
            var stalls: [Int] = []
            for cycle in 0..<cycles {
                let started = ContinuousClock.now
                let messages = await receive(
                    10,
                    from: "ws://127.0.0.1:\(port)/feed",
                    within: .seconds(2),
                    transport: transport()
                )
                if messages.count != 4 || ContinuousClock.now - started >= .seconds(2) { stalls.append(cycle) }
            }
            return stalls
        }
        #expect(stalls.isEmpty, "\(stalls.count) of \(cycles) connections stalled: cycles \(stalls)")
    }

    @Test func theServerNoticesAClientThatLeavesWhileItIsSilent() async throws {
        // Backlog and `ready`, then the simulator says nothing at all: only reading shows that the client left.
        let configuration = PushSimulatorConfiguration(seed: 1, rate: 0, backlog: 2, silentAfter: 3, epoch: testEpoch)
        let events = Locked<[PushSimulatorServer.ConnectionEvent]>([])
        let noticed = try await withSimulator(configuration, onEvent: { event in events.withLock { $0.append(event) } })
        {
            port in
            let messages = await receive(
                3,
                from: "ws://127.0.0.1:\(port)/feed",
                within: .seconds(5),
                transport: transport()
            )
            #expect(messages.count == 3)
            // The client has closed (with a close frame); the server must see it while it is still running.
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline {
                if events.value.contains(.closed(.clientLeft)) { return true }
                try await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
        #expect(noticed, "\(events.value)")
        #expect(events.value.first == .opened(after: nil))
    }

    @Test func theServerAnswersPings() async throws {
        // The client pings every 100 ms and closes the connection when a pong is missing; the simulator is silent
        // after `ready`, so only its pongs keep the connection open.
        let configuration = PushSimulatorConfiguration(seed: 1, rate: 0, backlog: 1, silentAfter: 2, epoch: testEpoch)
        let events = Locked<[PushSimulatorServer.ConnectionEvent]>([])
        let closedEarly = try await withSimulator(
            configuration,
            onEvent: { event in events.withLock { $0.append(event) } }
        ) {
            port in
            let pinging = transport(autoPing: .milliseconds(100))
            return await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try? await pinging.connect(to: "ws://127.0.0.1:\(port)/feed") { _ in }
                    return true
                }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(1500))
                    return false
                }
                let first = await group.next() ?? true
                group.cancelAll()
                return first
            }
        }
        #expect(!closedEarly, "the connection closed before the client left: \(events.value)")
        #expect(events.value.prefix(1) == [.opened(after: nil)])
    }

    @Test func aDropIsReportedAsDropped() async throws {
        let configuration = PushSimulatorConfiguration(seed: 1, rate: 0, backlog: 10, dropEvery: 4, epoch: testEpoch)
        let events = Locked<[PushSimulatorServer.ConnectionEvent]>([])
        let messages = try await withSimulator(
            configuration,
            onEvent: { event in events.withLock { $0.append(event) } }
        ) {
            port in
            await receive(10, from: "ws://127.0.0.1:\(port)/feed", within: .seconds(5), transport: transport())
        }
        // Four frames, then the server closes: the connection ends by itself.
        #expect(messages.count == 4)
        #expect(events.value == [.opened(after: nil), .closed(.dropped)])
    }
}
