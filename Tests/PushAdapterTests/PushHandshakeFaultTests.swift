import Foundation
import HTTPTypes
import NIOCore
import Testing
import TributaryCore

@testable import PushAdapter

/// A push source against servers that break the handshake or the framing, on raw TCP on 127.0.0.1: every one-shot
/// run ends with its listen window, whatever the server does, and reports what went wrong.
@Suite struct PushHandshakeFaultTests {
    private func runOneShot(
        port: Int,
        listen: Duration = .seconds(1),
        maxMessageSize: Int = 1 << 20,
        savedState: SourceCheckpoint = SourceCheckpoint()
    ) async throws -> (events: [SourceEvent], elapsed: Duration) {
        var context = testContext(mode: .oneShot)
        context.savedState = savedState
        var options = PushOptions(url: "ws://127.0.0.1:\(port)/feed", listen: listen)
        options.maxMessageSize = maxMessageSize
        options.reconnect.initialDelay = .milliseconds(50)
        let source = try PushSource(id: "wire", options: options, context: context)
        let recorder = EventRecorder()
        let started = ContinuousClock.now
        try await source.run(into: EventSink { await recorder.append($0) })
        return (await recorder.events, ContinuousClock.now - started)
    }

    private func failure(_ events: [SourceEvent]) -> String? {
        guard case .failed(let error) = events.last else { return nil }
        return error.description
    }

    @Test(arguments: ["close after the request", "never answer", "half a 101", "404"])
    func aBrokenHandshakeEndsWithTheListenWindowAndSaysWhy(fault: String) async throws {
        let (events, elapsed) = try await withRawServer(script: { (connection: inout RawConnection) in
            switch fault {
            case "close after the request":
                _ = try await connection.readRequest()
            case "never answer":
                _ = try await connection.readRequest()
                await connection.hold()
            case "half a 101":
                _ = try await connection.readRequest()
                try await connection.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n")
                await connection.hold()
            default:
                _ = try await connection.readRequest()
                try await connection.write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            }
        }) { port in
            try await runOneShot(port: port)
        }
        #expect(elapsed < .seconds(3), "the run took \(elapsed) with a 1 s listen window")
        let reason = try #require(failure(events), "\(events)")
        #expect(reason.contains("within the listen window"), "\(reason)")
        switch fault {
        case "close after the request": #expect(reason.contains("closed the connection during the WebSocket handshake"))
        case "404": #expect(reason.contains("HTTP 404 Not Found"))
        default: #expect(reason.contains("no frame arrived"))
        }
        #expect(!reason.contains("Error("), "no Swift type names: \(reason)")
    }

    @Test func aWSSURLToAServerWithoutTLSSaysSoInWords() async throws {
        // The server reads the TLS client hello and closes, as a plain server on a TLS URL would.
        let (events, elapsed) = try await withRawServer(script: { (connection: inout RawConnection) in
            _ = try await connection.inbound.next()
        }) { port in
            var context = testContext(mode: .oneShot)
            context.savedState = SourceCheckpoint()
            var options = PushOptions(url: "wss://127.0.0.1:\(port)/feed", listen: .seconds(1))
            options.reconnect.initialDelay = .milliseconds(50)
            let recorder = EventRecorder()
            let started = ContinuousClock.now
            try await PushSource(id: "wire", options: options, context: context)
                .run(into: EventSink { await recorder.append($0) })
            return (await recorder.events, ContinuousClock.now - started)
        }
        #expect(elapsed < .seconds(3))
        let reason = try #require(failure(events), "\(events)")
        #expect(reason.contains("does not speak TLS on this port"), "\(reason)")
        #expect(!reason.contains("NIOSSL"), "\(reason)")
    }

    @Test func framesThatArriveInTheSamePacketAsThe101AreRead() async throws {
        let (events, _) = try await withRawServer(script: { (connection: inout RawConnection) in
            guard let request = try await connection.readRequest() else { return }
            let key =
                request.split(separator: "\r\n").first { $0.hasPrefix("Sec-WebSocket-Key:") }
                .map { String($0.dropFirst(18)).trimmingCharacters(in: .whitespaces) } ?? ""
            let accept = WebSocketHandshake(endpoint: try WebSocketEndpoint("ws://h/"), headers: [:], key: key)
                .expectedAccept
            let head =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
            // The answer, two items, `ready` and a close frame in one write, then the socket closes.
            let frames =
                serverFrame(Array(itemFrame(1).utf8)) + serverFrame(Array(itemFrame(2).utf8))
                + serverFrame(Array(#"{"type":"ready","seq":2}"#.utf8)) + serverFrame([0x03, 0xE8], opcode: 0x8)
            try await connection.outbound.write(.init(bytes: Array(head.utf8) + frames))
        }) { port in
            try await runOneShot(port: port, listen: .milliseconds(500))
        }
        #expect(items(events).map(\.id) == ["one-1", "one-2"])
        #expect(events.last == .finished)
    }

    @Test func aFrameLargerThanFourTimesTheLimitIsSkippedAndTheCursorMovesPastIt() async throws {
        // maxMessageSize 10,000 and a 200 KB item in one frame (the old client closed with 1009 at 4x the limit and
        // asked for the same item again, for ever); the items after it and `ready` must still arrive.
        let connections = Locked(0)
        let (events, _) = try await withRawServer(script: { (connection: inout RawConnection) in
            connections.withLock { $0 += 1 }
            try await connection.upgrade()
            try await connection.send(Array(itemFrame(1).utf8))
            try await connection.send(Array(itemFrame(2, padding: 200_000).utf8))
            try await connection.send(Array(itemFrame(3).utf8))
            try await connection.send(Array(#"{"type":"ready","seq":3}"#.utf8))
            await connection.hold()
        }) { port in
            try await runOneShot(port: port, listen: .milliseconds(800), maxMessageSize: 10_000)
        }
        #expect(items(events).map(\.id) == ["one-1", "one-3"])
        #expect(connections.value == 1, "the connection must go on after an oversized message")
        let warnings = events.compactMap { event -> String? in
            guard case .warning(let warning) = event else { return nil }
            return warning.message
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("(seq 2)") == true, "\(warnings)")
        #expect(events.contains(.checkpoint(SourceCheckpoint(["seq": "3"]))))
        #expect(events.last == .finished)
    }

    @Test func aServerThatNeverSaysReadyMakesTheRunIncomplete() async throws {
        let (events, _) = try await withRawServer(script: { (connection: inout RawConnection) in
            try await connection.upgrade()
            try await connection.send(Array(itemFrame(1).utf8))
            await connection.hold()
        }) { port in
            try await runOneShot(port: port, listen: .milliseconds(500))
        }
        #expect(items(events).map(\.id) == ["one-1"])
        let reason = try #require(failure(events))
        #expect(reason.contains("incomplete") && reason.contains("no 'ready'"), "\(reason)")
    }

    private func itemFrame(_ seq: Int, padding: Int = 0) -> String {
        let title = String(repeating: "p", count: padding)
        return
            #"{"type":"item","seq":\#(seq),"item":{"id":"one-\#(seq)","title":"t\#(title)","url":"https://example.com/\#(seq)"}}"#
    }

    private func items(_ events: [SourceEvent]) -> [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            guard case .items(let items) = event else { return [] }
            return items
        }
    }
}
