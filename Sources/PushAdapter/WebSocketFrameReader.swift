/// Reads WebSocket frames (RFC 6455 section 5) from a server, in pieces as they arrive, and puts fragmented
/// messages together: the framing half of the push client's own WebSocket connection.
///
/// A message is kept up to `maxMessageSize` bytes. A larger one is read through to its end without being kept
/// (memory stays bounded whatever length a frame header claims) and comes out as ``PushMessage/oversized(size:seq:)``
/// with the `seq` of its outermost object, so the connection goes on and the cursor can move past it. Control
/// frames come out as they arrive, also between the fragments of a message.
struct WebSocketFrameReader: Sendable {
    /// What the reader found.
    enum Event: Sendable, Equatable {
        case message(PushMessage)
        /// A ping, to be answered with a pong carrying the same payload.
        case ping([UInt8])
        case pong
        /// The server is closing the connection, with its status code when it sent one.
        case close(code: UInt16?)
    }

    /// The largest message kept, in bytes.
    let maxMessageSize: Int

    private var header: [UInt8] = []
    /// Payload bytes left in the current frame; `nil` between frames.
    private var remaining: UInt64?
    private var opcode: UInt8 = 0
    private var isFinal = false
    private var maskKey: [UInt8]?
    private var maskOffset = 0
    private var controlPayload: [UInt8] = []
    /// The opcode of the data message being put together (text or binary), `nil` between messages.
    private var messageOpcode: UInt8?
    private var message: [UInt8] = []
    private var messageSize = 0
    /// Set once the message is too large to keep.
    private var oversized: TopLevelSeqScanner?

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// Reads the next bytes of the stream.
    /// - Returns: the messages and control frames they complete, in order.
    /// - Throws: ``PushConnectionError/protocolViolation(_:)`` when the server breaks the framing rules.
    mutating func read<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PushConnectionError) -> [Event] {
        var events: [Event] = []
        var index = bytes.startIndex
        while index != bytes.endIndex {
            guard let left = remaining else {
                header.append(bytes[index])
                index = bytes.index(after: index)
                if try beginFrame(), remaining == 0 { try endFrame(into: &events) }
                continue
            }
            let available = bytes.distance(from: index, to: bytes.endIndex)
            let count = Int(min(UInt64(available), left))
            let end = bytes.index(index, offsetBy: count)
            payload(bytes[index..<end])
            index = end
            remaining = left - UInt64(count)
            if remaining == 0 { try endFrame(into: &events) }
        }
        return events
    }

    // MARK: - Private

    /// Parses the header read so far; returns whether it was complete (and the frame begun).
    private mutating func beginFrame() throws(PushConnectionError) -> Bool {
        guard header.count >= 2 else { return false }
        let lengthCode = header[1] & 0x7F
        let masked = header[1] & 0x80 != 0
        let lengthBytes = lengthCode == 127 ? 8 : lengthCode == 126 ? 2 : 0
        guard header.count >= 2 + lengthBytes + (masked ? 4 : 0) else { return false }

        let final = header[0] & 0x80 != 0
        let code = header[0] & 0x0F
        guard header[0] & 0x70 == 0 else {
            throw .protocolViolation("a frame had reserved bits set, but no extension was agreed")
        }
        var length = UInt64(lengthCode)
        if lengthBytes > 0 {
            length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            guard length >> 63 == 0 else { throw .protocolViolation("a frame claimed a length beyond 2^63 bytes") }
        }
        switch code {
        case 0x8, 0x9, 0xA:
            guard final, length <= 125 else {
                throw .protocolViolation("a control frame was fragmented or longer than 125 bytes")
            }
            controlPayload.removeAll(keepingCapacity: true)
        case 0x1, 0x2:
            guard messageOpcode == nil else {
                throw .protocolViolation("a new message began before the last one ended")
            }
            messageOpcode = code
            messageSize = 0
            oversized = nil
        case 0x0:
            guard messageOpcode != nil else {
                throw .protocolViolation("a continuation frame came without a message to continue")
            }
        default:
            throw .protocolViolation("a frame had the unknown opcode \(code)")
        }
        opcode = code
        isFinal = final
        maskKey = masked ? Array(header[(2 + lengthBytes)...]) : nil
        maskOffset = 0
        remaining = length
        header.removeAll(keepingCapacity: true)
        return true
    }

    private mutating func payload(_ bytes: some Collection<UInt8>) {
        var chunk = Array(bytes)
        if let maskKey {
            // A server must not mask its frames (RFC 6455 5.1); one that does is read all the same.
            for position in chunk.indices {
                chunk[position] ^= maskKey[(maskOffset + position) & 3]
            }
            maskOffset = (maskOffset + chunk.count) & 3
        }
        if opcode >= 0x8 {
            controlPayload += chunk
            return
        }
        messageSize += chunk.count
        if oversized != nil {
            oversized?.feed(chunk)
        } else if messageSize > maxMessageSize {
            var scanner = TopLevelSeqScanner()
            if messageOpcode == 0x1 {
                scanner.feed(message)
                scanner.feed(chunk)
            }
            oversized = scanner
            message = []
        } else {
            message += chunk
        }
    }

    private mutating func endFrame(into events: inout [Event]) throws(PushConnectionError) {
        remaining = nil
        switch opcode {
        case 0x8:
            let code = controlPayload.count >= 2 ? UInt16(controlPayload[0]) << 8 | UInt16(controlPayload[1]) : nil
            events.append(.close(code: code))
        case 0x9:
            events.append(.ping(controlPayload))
        case 0xA:
            events.append(.pong)
        default:
            guard isFinal, let kind = messageOpcode else { return }
            if let scanner = oversized {
                events.append(.message(.oversized(size: messageSize, seq: kind == 0x1 ? scanner.seq : nil)))
            } else if kind == 0x1 {
                events.append(.message(.text(String(decoding: message, as: UTF8.self))))
            } else {
                events.append(.message(.binary))
            }
            messageOpcode = nil
            oversized = nil
            message = []
        }
    }
}
