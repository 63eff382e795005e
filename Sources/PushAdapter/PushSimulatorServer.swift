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
public struct PushSimulatorServer: Sendable {
    /// What the server serves.
    public let configuration: PushSimulatorConfiguration
    /// The address to listen on.
    public let host: String
    /// The port to listen on; 0 picks a free one.
    public let port: Int
    private let logger: Logger
    private let onConnection: @Sendable (_ after: Int64?) -> Void

    /// Creates a server; nothing listens until ``run(onListening:)``.
    /// - Parameters:
    ///   - configuration: items, rate, heartbeats and faults.
    ///   - host: the address to listen on, `127.0.0.1` by default.
    ///   - port: the port; 0 picks a free one.
    ///   - logger: where the server logs.
    ///   - onConnection: called for every accepted WebSocket connection with its `after=` value.
    public init(
        configuration: PushSimulatorConfiguration,
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger = Logger(label: "tributary.simulate", factory: { _ in SwiftLogNoOpLogHandler() }),
        onConnection: @escaping @Sendable (_ after: Int64?) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.host = host
        self.port = port
        self.logger = logger
        self.onConnection = onConnection
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
                return .upgrade([:]) { _, outbound, _ in
                    onConnection(after)
                    // Only the timeline writes; the inbound side is left to hummingbird-websocket, which answers
                    // pings and the close handshake. A client that goes away shows as a failed write, or, while
                    // the simulator is silent, as the server's shutdown cancelling this task.
                    _ = try await timeline.serve(after: after) { frame in
                        try await outbound.write(.text(frame))
                    }
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
