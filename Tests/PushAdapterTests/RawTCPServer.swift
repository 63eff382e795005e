import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Testing

@testable import PushAdapter

/// A TCP server on 127.0.0.1 (port 0) whose every connection runs `script`: for the handshake and framing cases no
/// real WebSocket server produces (no answer, half a `101`, a frame larger than any limit).
func withRawServer<T: Sendable>(
    script: @escaping @Sendable (inout RawConnection) async throws -> Void,
    _ body: @Sendable (_ port: Int) async throws -> T
) async throws -> T {
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .bind(host: "127.0.0.1", port: 0) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    let port = try #require(server.channel.localAddress?.port)
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { connectionGroup in
                    for try await connection in connections {
                        connectionGroup.addTask {
                            try? await connection.executeThenClose { inbound, outbound in
                                var connection = RawConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                                try await script(&connection)
                            }
                        }
                    }
                }
            }
            return nil
        }
        let result = try await body(port)
        group.cancelAll()
        return result
    }
}

/// One connection of a ``withRawServer(script:_:)`` server (an inbound stream has one iterator, kept here).
struct RawConnection {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Reads the client's request head; returns it, or `nil` when the client left first.
    mutating func readRequest() async throws -> String? {
        var received: [UInt8] = []
        while let buffer = try await inbound.next() {
            received += buffer.readableBytesView
            if let text = String(validating: received, as: UTF8.self), text.contains("\r\n\r\n") { return text }
        }
        return nil
    }

    /// Reads the request and answers with a valid `101`.
    mutating func upgrade() async throws {
        guard let request = try await readRequest() else { return }
        let key =
            request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { String($0.dropFirst("sec-websocket-key:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
        let accept = WebSocketHandshake(
            endpoint: try WebSocketEndpoint("ws://127.0.0.1/"),
            headers: [:],
            key: key
        ).expectedAccept
        try await write(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
        )
    }

    func write(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Sends one unmasked server frame (a text frame by default) in a single write.
    func send(_ payload: [UInt8], opcode: UInt8 = 0x1, final: Bool = true) async throws {
        try await outbound.write(ByteBuffer(bytes: serverFrame(payload, opcode: opcode, final: final)))
    }

    /// Waits until the client goes away (or the test ends).
    mutating func hold() async {
        do {
            while try await inbound.next() != nil {}
        } catch {}
    }
}

/// A server frame (unmasked), as RFC 6455 5.2 lays it out.
func serverFrame(_ payload: [UInt8], opcode: UInt8 = 0x1, final: Bool = true, mask: [UInt8]? = nil) -> [UInt8] {
    var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
    let maskBit: UInt8 = mask == nil ? 0 : 0x80
    switch payload.count {
    case ..<126: bytes.append(maskBit | UInt8(payload.count))
    case ..<65536: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
        bytes.append(maskBit | 127)
        bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * $0)) }
    }
    if let mask {
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    } else {
        bytes += payload
    }
    return bytes
}
