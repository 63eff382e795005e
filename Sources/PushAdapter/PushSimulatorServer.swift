import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
public import Logging
import NIOCore

/// The push simulator as a WebSocket server: serves the push wire protocol at `ws://HOST:PORT/feed` with the
/// deterministic items of ``PushSimulator`` (Hummingbird + hummingbird-websocket).
///
/// `seq` is global for the server's lifetime: one timeline starts when ``run(onListening:)`` starts, and every
/// connection sees the same items under the same numbers. A client without `after=` is sent the last `backlog`
/// items; a client with `after=SEQ` is sent every item after `SEQ`. Then `ready`, then new items at `rate` per
/// second and a heartbeat whenever nothing else went out for `heartbeatInterval`. Faults are injected per
/// connection as configured (``PushSimulatorConfiguration``). Tests start it in-process on port 0.
///
/// Every connection reads as well as writes. Reading is what answers the client's pings and its close frame
/// (hummingbird-websocket's inbound iterator does both), so a client that leaves is noticed at once, even while the
/// simulator has nothing to send.
public struct PushSimulatorServer: Sendable {
    /// Something that happened on a WebSocket connection, for tests and logs.
    public enum ConnectionEvent: Sendable, Hashable {
        /// A client connected, resuming after `after` when it gave one.
        case opened(after: Int64?)
        /// A malformed frame, an injected fault (`garbageEvery`), went out.
        case garbageSent
        /// The connection ended.
        case closed(ConnectionEnd)
    }

    /// Why a connection ended.
    public enum ConnectionEnd: Sendable, Hashable {
        /// The simulator dropped it, an injected fault (`dropEvery`): a close frame, then the socket closes.
        case dropped
        /// The client left: it sent a close frame, or its connection went away.
        case clientLeft
        /// The server stopped.
        case serverStopped
    }

    /// What the server serves.
    public let configuration: PushSimulatorConfiguration
    /// The address to listen on.
    public let host: String
    /// The port to listen on; 0 picks a free one.
    public let port: Int
    private let logger: Logger
    private let onConnection: @Sendable (_ after: Int64?) -> Void
    private let onEvent: @Sendable (ConnectionEvent) -> Void

    /// Creates a server; nothing listens until ``run(onListening:)``.
    /// - Parameters:
    ///   - configuration: items, rate, heartbeats and faults.
    ///   - host: the address to listen on, `127.0.0.1` by default.
    ///   - port: the port; 0 picks a free one.
    ///   - logger: where the server logs.
    ///   - onConnection: called for every accepted WebSocket connection with its `after=` value.
    ///   - onEvent: called for everything that happens on a connection: opened, garbage sent, closed and why.
    public init(
        configuration: PushSimulatorConfiguration,
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger = Logger(label: "tributary.simulate", factory: { _ in SwiftLogNoOpLogHandler() }),
        onConnection: @escaping @Sendable (_ after: Int64?) -> Void = { _ in },
        onEvent: @escaping @Sendable (ConnectionEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.host = host
        self.port = port
        self.logger = logger
        self.onConnection = onConnection
        self.onEvent = onEvent
    }

    /// Serves until the task is cancelled.
    /// - Parameter onListening: called once the server is bound, with the port it listens on.
    /// - Throws: when the address cannot be bound, or the configuration is unusable.
    public func run(onListening: @escaping @Sendable (_ port: Int) async -> Void = { _ in }) async throws {
        if let problem = configuration.problem {
            throw PushSimulatorError(problem)
        }
        let timeline = PushSimulatorTimeline(configuration: configuration)
        let onConnection = onConnection
        let onEvent = onEvent
        let router = Router()
        router.get("/") { _, _ in "Tributary push simulator: connect a WebSocket client to /feed\n" }
        let requestedPort = port
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade { request, _, _ in
                let path = request.path ?? "/"
                guard path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/feed"
                else { return .dontUpgrade }
                let after = PushURL.after(in: path)
                return .upgrade([:]) { inbound, outbound, _ in
                    onConnection(after)
                    onEvent(.opened(after: after))
                    let end = await Self.serve(
                        timeline: timeline,
                        after: after,
                        inbound: inbound,
                        outbound: outbound,
                        onGarbage: { onEvent(.garbageSent) }
                    )
                    onEvent(.closed(end))
                }
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                await onListening(channel.localAddress?.port ?? requestedPort)
            },
            logger: logger
        )
        try await app.run()
    }

    /// Serves one connection: the timeline writes while the inbound side is read, until either ends.
    ///
    /// The reader does what reading a hummingbird-websocket inbound stream does: it answers pings with pongs and a
    /// close frame with a close frame, and ends when the client has closed or its connection has gone. Clients
    /// send nothing else in this protocol; a data message is read and ignored. When the reader ends, the writer is
    /// cancelled. When the writer ends (a `dropEvery` fault, or a failed write), the reader is cancelled and the
    /// handler returns, and hummingbird-websocket sends the close frame and closes the socket.
    private static func serve(
        timeline: PushSimulatorTimeline,
        after: Int64?,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        onGarbage: @escaping @Sendable () -> Void
    ) async -> ConnectionEnd {
        await withTaskGroup(of: ConnectionEnd.self) { group in
            group.addTask {
                do {
                    _ = try await timeline.serve(after: after, onGarbage: onGarbage) { frame in
                        try await outbound.write(.text(frame))
                    }
                    return .dropped
                } catch {
                    return .clientLeft
                }
            }
            group.addTask {
                do {
                    for try await _ in inbound.messages(maxSize: 1 << 16) {}
                } catch {}
                return .clientLeft
            }
            let first = await group.next() ?? .serverStopped
            group.cancelAll()
            return Task.isCancelled ? .serverStopped : first
        }
    }
}

/// The simulator server could not start.
public struct PushSimulatorError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "push simulator: \(message)" }
}
