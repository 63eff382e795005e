import HTTPTypes
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NetworkFailure
import TributaryCore

/// The WebSocket transport: a client of our own on SwiftNIO (TCP, and TLS for `wss://`), with the handshake and
/// the framing in ``WebSocketHandshake`` and ``WebSocketFrameReader``.
///
/// Why not a ready-made client: the connection must end when the task is cancelled whatever it is waiting for (the
/// TCP connect, a server that never answers the upgrade, half a `101`), frames that arrive in the same packet as the
/// `101` must never be lost (the upgrade stall of swift-nio's client upgrade handler, issue 5), and a message too
/// large to keep must be skipped without closing the connection. Here every byte goes through one loop that
/// cancellation ends: the handshake answer, then the frames, with nothing in between.
struct WebSocketPushTransport: PushTransport {
    /// Extra headers for the upgrade request.
    let headers: HTTPFields
    /// Messages up to this size are kept; larger ones are read through and reported as oversized.
    let maxMessageSize: Int
    let logger: Logger
    /// Pings the server this often and ends the connection when a pong has not come back by the next ping (`nil`:
    /// no pings; the protocol's heartbeats are how the client notices a dead server). Tests use it to check that
    /// the simulator answers pings.
    let autoPing: Duration?
    /// How long the TCP connect (name lookup included) may take.
    var connectTimeout: Duration = .seconds(10)

    init(headers: HTTPFields = HTTPFields(), maxMessageSize: Int, logger: Logger, autoPing: Duration? = nil) {
        self.headers = headers
        self.maxMessageSize = maxMessageSize
        self.logger = logger
        self.autoPing = autoPing
    }

    func connect(to url: String, onMessage: @escaping @Sendable (PushMessage) async -> Void) async throws {
        let endpoint = try WebSocketEndpoint(url)
        let channel = try await open(endpoint)
        let handshake = WebSocketHandshake(endpoint: endpoint, headers: headers)
        do {
            try await exchange(over: channel, handshake: handshake, onMessage: onMessage)
        } catch let error as NIOSSLError {
            try Task.checkCancellation()
            throw PushConnectionError.cannotConnect(
                host: endpoint.host,
                port: endpoint.port,
                detail: Self.connectFailure(error, endpoint)
            )
        }
        try Task.checkCancellation()
    }

    // MARK: - Private

    /// The upgrade request, then the answer and the frames, until the server closes or the task is cancelled.
    private func exchange(
        over channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        handshake: WebSocketHandshake,
        onMessage: @escaping @Sendable (PushMessage) async -> Void
    ) async throws {
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: handshake.request))
            try await withThrowingTaskGroup(of: Void.self) { group in
                let pongs = LockedValue(0)
                group.addTask {
                    try await read(inbound, outbound, handshake: handshake, pongs: pongs, onMessage: onMessage)
                }
                if let autoPing {
                    group.addTask { try await ping(every: autoPing, outbound, pongs: pongs) }
                }
                // The first to end (the reader at the end of the stream, or the pinger on a missing pong) ends both.
                try await group.next()
                group.cancelAll()
            }
            if Task.isCancelled {
                // Leaving: say so with a close frame (1000, normal closure); the socket closes right after.
                try? await outbound.write(ByteBuffer(bytes: Self.frame(opcode: 0x8, payload: [0x03, 0xE8])))
            }
        }
    }

    /// A TLS failure in words: a server that is not TLS on that port, or a certificate that was not accepted.
    private func open(_ endpoint: WebSocketEndpoint) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let tls = endpoint.secure ? try NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        let serverName =
            endpoint.host.contains(":") || endpoint.host.allSatisfy({ $0.isNumber || $0 == "." })
            ? nil : endpoint.host
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(connectTimeout))
                .connect(host: endpoint.host, port: endpoint.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            let handler = try NIOSSLClientHandler(context: tls, serverHostname: serverName)
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            try Task.checkCancellation()
            throw PushConnectionError.cannotConnect(
                host: endpoint.host,
                port: endpoint.port,
                detail: Self.connectFailure(error, endpoint)
            )
        }
    }

    /// Reads the handshake answer, then frames, until the server closes or the task is cancelled.
    private func read(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        handshake: WebSocketHandshake,
        pongs: LockedValue<Int>,
        onMessage: @Sendable (PushMessage) async -> Void
    ) async throws {
        var handshake = handshake
        var reader = WebSocketFrameReader(maxMessageSize: maxMessageSize)
        var upgraded = false
        for try await buffer in inbound {
            let events: [WebSocketFrameReader.Event]
            if upgraded {
                events = try reader.read(buffer.readableBytesView)
            } else {
                guard let rest = try handshake.read(buffer.readableBytesView) else { continue }
                upgraded = true
                logger.debug("push: upgraded", metadata: ["bytes after the head": "\(rest.count)"])
                events = try reader.read(rest)
            }
            for event in events {
                switch event {
                case .message(let message):
                    await onMessage(message)
                case .ping(let payload):
                    try await outbound.write(ByteBuffer(bytes: Self.frame(opcode: 0xA, payload: payload)))
                case .pong:
                    pongs.withLock { $0 += 1 }
                case .close(let code):
                    logger.debug("push: the server closed", metadata: ["code": "\(code.map(String.init) ?? "none")"])
                    // Answer with a close frame carrying the same code (RFC 6455 5.5.1), then end.
                    let payload = code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []
                    try? await outbound.write(ByteBuffer(bytes: Self.frame(opcode: 0x8, payload: payload)))
                    return
                }
            }
        }
        if !upgraded, !Task.isCancelled { throw PushConnectionError.closedDuringHandshake }
    }

    private func ping(
        every period: Duration,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        pongs: LockedValue<Int>
    ) async throws {
        var sent = 0
        while true {
            try await Task.sleep(for: period)
            guard pongs.value >= sent else { throw PushConnectionError.pingUnanswered }
            try await outbound.write(ByteBuffer(bytes: Self.frame(opcode: 0x9, payload: [])))
            sent += 1
        }
    }

    /// One client frame: final, masked with a random key as RFC 6455 5.3 requires of a client.
    static func frame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126:
            bytes.append(0x80 | UInt8(payload.count))
        case ..<65536:
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * $0)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: .min ... .max) }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        return bytes
    }

    /// A connect failure in words: refused, timed out, a name that does not resolve.
    private static func connectFailure(_ error: any Error, _ endpoint: WebSocketEndpoint) -> String {
        NetworkFailure.describe(error, host: endpoint.host, port: endpoint.port)
            ?? "could not connect to \(endpoint.host):\(endpoint.port) (\(error))"
    }
}
