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
                try? await transport.connect(to: url) { text in received.withLock { $0.append(text ?? "") } }
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

    /// The stall of issue 5: now and then a connection delivered nothing after the upgrade, and only the heartbeat
    /// timeout (30 s by default) replaced it. Many connect/receive cycles, each of which must deliver its backlog
    /// and `ready` well within a heartbeat interval; the server sends nothing else (its heartbeat is 5 s away).
    @Test func everyConnectionDeliversItsBacklogAtOnce() async throws {
        let configuration = PushSimulatorConfiguration(seed: 1, rate: 0, backlog: 3, epoch: testEpoch)
        let cycles = 300
        let stalls = try await withSimulator(configuration) { port in
            var stalls: [Int] = []
            for cycle in 0..<cycles {
                let messages = await receive(
                    4,
                    from: "ws://127.0.0.1:\(port)/feed",
                    within: .seconds(2),
                    transport: transport()
                )
                if messages.count < 4 { stalls.append(cycle) }
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
