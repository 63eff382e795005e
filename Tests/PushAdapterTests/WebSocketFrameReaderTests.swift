import Foundation
import HTTPTypes
import Testing

@testable import PushAdapter

/// The framing half of the push client's WebSocket connection, byte by byte: every read split, fragments,
/// control frames between them, masks, oversized messages read through, and the protocol errors that end it.
@Suite struct WebSocketFrameReaderTests {
    private func readAll(
        _ bytes: [UInt8],
        maxMessageSize: Int = 1 << 20,
        pieces: Int = 1
    ) throws -> [WebSocketFrameReader.Event] {
        var reader = WebSocketFrameReader(maxMessageSize: maxMessageSize)
        var events: [WebSocketFrameReader.Event] = []
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        var start = 0
        while start < bytes.count {
            events += try reader.read(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        return events
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func messagesComeOutWholeHoweverTheBytesAreSplit(pieces: Int) throws {
        let long = String(repeating: "x", count: 70_000)  // a 64-bit length
        let medium = String(repeating: "m", count: 300)  // a 16-bit length
        let bytes =
            serverFrame(Array("hello".utf8)) + serverFrame(Array(medium.utf8)) + serverFrame(Array(long.utf8))
            + serverFrame([], opcode: 0x1)
        let events = try readAll(bytes, pieces: pieces)
        #expect(
            events == [
                .message(.text("hello")), .message(.text(medium)), .message(.text(long)), .message(.text("")),
            ]
        )
    }

    @Test func fragmentsAreJoinedAndControlFramesBetweenThemComeOutAtOnce() throws {
        let bytes =
            serverFrame(Array("{\"a\":".utf8), final: false) + serverFrame([1, 2], opcode: 0x9)
            + serverFrame(Array("1}".utf8), opcode: 0x0) + serverFrame([0x03, 0xE8], opcode: 0x8)
        #expect(
            try readAll(bytes) == [.ping([1, 2]), .message(.text("{\"a\":1}")), .close(code: 1000)]
        )
    }

    @Test func aMaskedServerFrameIsUnmasked() throws {
        let bytes = serverFrame(Array("masked text".utf8), mask: [0x37, 0xFA, 0x21, 0x3D])
        #expect(try readAll(bytes, pieces: 5) == [.message(.text("masked text"))])
    }

    @Test func binaryMessagesAndPongsAreReported() throws {
        let bytes = serverFrame([0, 1, 2], opcode: 0x2) + serverFrame([], opcode: 0xA) + serverFrame([], opcode: 0x8)
        #expect(try readAll(bytes) == [.message(.binary), .pong, .close(code: nil)])
    }

    @Test(arguments: [1, 13, 4096])
    func anOversizedMessageIsReadThroughWithItsSeqAndTheNextOneIsRead(pieces: Int) throws {
        let body = String(repeating: "y", count: 50_000)
        let big = #"{"type":"item","seq":42,"item":{"id":"x","seq":7,"title":"\#(body)"}}"#
        // In one frame, and in fragments, each larger than the limit.
        let fragmented =
            serverFrame(Array(big.utf8.prefix(30_000)), final: false)
            + serverFrame(Array(big.utf8.dropFirst(30_000)), opcode: 0x0)
        let bytes = serverFrame(Array(big.utf8)) + fragmented + serverFrame(Array("after".utf8))
        let events = try readAll(bytes, maxMessageSize: 1000, pieces: pieces)
        let size = big.utf8.count
        #expect(
            events == [
                .message(.oversized(size: size, seq: 42)), .message(.oversized(size: size, seq: 42)),
                .message(.text("after")),
            ]
        )
    }

    @Test func aMessageExactlyAtTheLimitIsKept() throws {
        let text = String(repeating: "z", count: 1000)
        #expect(try readAll(serverFrame(Array(text.utf8)), maxMessageSize: 1000) == [.message(.text(text))])
        #expect(
            try readAll(serverFrame(Array((text + "z").utf8)), maxMessageSize: 1000)
                == [.message(.oversized(size: 1001, seq: nil))]
        )
    }

    @Test(arguments: [
        ([0xC1, 0x00] as [UInt8], "reserved bits"),
        ([0x83, 0x00], "unknown opcode 3"),
        ([0x80, 0x00], "continuation frame came without a message"),
        ([0x09, 0x00], "control frame was fragmented"),
        ([0x89, 0x7E, 0x00, 0x7E], "control frame was fragmented or longer than 125"),
        ([0x01, 0x01, 0x61, 0x81, 0x00], "new message began before the last one ended"),
        ([0x81, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], "beyond 2^63"),
    ])
    func protocolViolationsEndTheConnectionWithAReason(bytes: [UInt8], reason: String) {
        #expect {
            _ = try readAll(bytes)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}

/// The `seq` of a message too large to keep, found without keeping it.
@Suite struct TopLevelSeqScannerTests {
    private func scan(_ text: String, pieces: Int = 1) -> Int64? {
        var scanner = TopLevelSeqScanner()
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        var start = 0
        while start < bytes.count {
            scanner.feed(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        return scanner.seq
    }

    @Test(arguments: [
        (#"{"type":"item","seq":42,"item":{}}"#, 42 as Int64?),
        (#"{"item":{"seq":7,"title":"\"seq\":9"},"type":"item","seq": 43 }"#, 43),
        (#"{ "seq" : 0 }"#, 0),
        (#"{"title":"{\"seq\":5}","seq":6}"#, 6),
        (#"{"list":[{"seq":1}],"seq":2}"#, 2),
        (#"{"seq":"12"}"#, nil),
        (#"{"seq":-3}"#, nil),
        (#"{"seq":4.5}"#, nil),
        (#"{"seq":12"#, nil),
        (#"{"sequence":12}"#, nil),
        (#"{"se\"q":12}"#, nil),
        (#"[{"seq":1}]"#, nil),
        (#"{"seq":99999999999999999999}"#, nil),
    ])
    func findsOnlyTheOutermostIntegerSeq(text: String, expected: Int64?) {
        #expect(scan(text) == expected)
        #expect(scan(text, pieces: text.utf8.count) == expected)
    }
}

/// The client's opening handshake, and how it reads the server's answer.
@Suite struct WebSocketHandshakeTests {
    @Test func theRequestCarriesTheKeyTheTargetAndTheUsersHeaders() throws {
        let endpoint = try WebSocketEndpoint("ws://127.0.0.1:8765/feed?after=3")
        let handshake = WebSocketHandshake(
            endpoint: endpoint,
            headers: [.authorization: "Bearer t", .init("Upgrade")!: "h2c"],
            key: "dGhlIHNhbXBsZSBub25jZQ=="
        )
        let request = String(decoding: handshake.request, as: UTF8.self)
        #expect(request.hasPrefix("GET /feed?after=3 HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n"))
        #expect(request.contains("\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        #expect(request.contains("\r\nAuthorization: Bearer t\r\n"))
        #expect(!request.contains("h2c"), "a user's header cannot replace the handshake's own")
        #expect(request.hasSuffix("\r\n\r\n"))
        // RFC 6455 section 1.3's example key and answer.
        #expect(handshake.expectedAccept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func endpointsAreReadFromTheURL() throws {
        let secure = try WebSocketEndpoint("wss://example.com/live")
        #expect(secure.host == "example.com" && secure.port == 443 && secure.secure)
        #expect(secure.target == "/live" && secure.hostHeader == "example.com")
        let v6 = try WebSocketEndpoint("ws://[::1]:9000")
        #expect(v6.host == "::1" && v6.port == 9000 && v6.target == "/" && v6.hostHeader == "[::1]:9000")
        #expect(throws: PushConnectionError.self) { try WebSocketEndpoint("http://example.com/") }
    }

    @Test func theAnswerIsCheckedAndTheBytesAfterItAreTheFirstFrames() throws {
        var handshake = WebSocketHandshake(
            endpoint: try WebSocketEndpoint("ws://h/"),
            headers: [:],
            key: "dGhlIHNhbXBsZSBub25jZQ=="
        )
        let answer =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        let bytes = Array(answer.utf8) + [0x81, 0x00]
        // One byte at a time: nothing until the head is complete, then what followed it.
        var rest: [UInt8]?
        for byte in bytes.dropLast(2) {
            #expect(rest == nil)
            rest = try handshake.read([byte])
        }
        #expect(rest == [])
        var again = WebSocketHandshake(
            endpoint: try WebSocketEndpoint("ws://h/"),
            headers: [:],
            key: "dGhlIHNhbXBsZSBub25jZQ=="
        )
        #expect(try again.read(bytes) == [0x81, 0x00])
    }

    @Test(arguments: [
        ("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", "HTTP 404 Not Found"),
        (
            "HTTP/1.1 101 OK\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
            "Upgrade: websocket"
        ),
        (
            "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: nope\r\n\r\n",
            "does not match"
        ),
        ("SSH-2.0-OpenSSH\r\n\r\n", "status line"),
    ])
    func aWrongAnswerIsRefusedWithAReason(answer: String, reason: String) throws {
        var handshake = WebSocketHandshake(
            endpoint: try WebSocketEndpoint("ws://h/"),
            headers: [:],
            key: "dGhlIHNhbXBsZSBub25jZQ=="
        )
        #expect {
            _ = try handshake.read(Array(answer.utf8))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func anEndlessAnswerHeadIsRefused() throws {
        var handshake = WebSocketHandshake(endpoint: try WebSocketEndpoint("ws://h/"), headers: [:])
        let line = Array("X-Filler: \(String(repeating: "a", count: 1000))\r\n".utf8)
        #expect(throws: PushConnectionError.self) {
            for _ in 0..<20 { _ = try handshake.read(line) }
        }
    }
}
