import Crypto
import Foundation
import HTTPTypes

/// Where a WebSocket URL points: host, port, TLS, and the request target.
struct WebSocketEndpoint: Sendable, Equatable {
    let host: String
    let port: Int
    let secure: Bool
    /// The path and query, as sent in the request line.
    let target: String
    /// The `Host` header: the host (in brackets when it is an IPv6 address) and a port that is not the default.
    let hostHeader: String

    /// - Throws: ``PushConnectionError/invalidURL(_:)``.
    init(_ url: String) throws(PushConnectionError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "ws" || scheme == "wss", var host = components.host, !host.isEmpty
        else { throw .invalidURL(url) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        secure = scheme == "wss"
        let defaultPort = secure ? 443 : 80
        port = components.port ?? defaultPort
        self.host = host
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        let shownHost = host.contains(":") ? "[\(host)]" : host
        hostHeader = port == defaultPort ? shownHost : "\(shownHost):\(port)"
    }
}

/// The client's opening handshake (RFC 6455 section 4.1): the upgrade request, and the checks on the server's
/// answer, read in pieces as it arrives. Bytes that follow the answer's head are the first frames.
struct WebSocketHandshake: Sendable {
    /// The request to send.
    let request: [UInt8]
    /// The `Sec-WebSocket-Accept` value a server must send back for this request's key.
    let expectedAccept: String
    private var response: [UInt8] = []

    /// The longest answer head read before giving up.
    static let maxResponseHead = 16 * 1024

    /// - Parameters:
    ///   - endpoint: where the request goes.
    ///   - headers: extra headers from the source's options; they cannot replace the handshake's own.
    ///   - key: the `Sec-WebSocket-Key` (16 random bytes in base64); fixed only in tests.
    init(endpoint: WebSocketEndpoint, headers: HTTPFields, key: String = Self.randomKey()) {
        let reserved: Set<String> = [
            "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        ]
        var lines = [
            "GET \(endpoint.target) HTTP/1.1",
            "Host: \(endpoint.hostHeader)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        var hasUserAgent = false
        for field in headers where !reserved.contains(field.name.canonicalName) {
            hasUserAgent = hasUserAgent || field.name == .userAgent
            lines.append("\(field.name): \(field.value)")
        }
        if !hasUserAgent { lines.append("User-Agent: Tributary") }
        request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        let digest = Insecure.SHA1.hash(data: Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        expectedAccept = Data(digest).base64EncodedString()
    }

    /// A new random key.
    static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    /// Reads the next bytes of the server's answer.
    /// - Returns: `nil` while the head is incomplete; then the bytes after it (the first frames, possibly none).
    /// - Throws: ``PushConnectionError`` when the answer is not a WebSocket upgrade.
    mutating func read<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PushConnectionError) -> [UInt8]? {
        let scanFrom = max(0, response.count - 3)
        response += bytes
        guard let end = Self.endOfHead(response, from: scanFrom) else {
            guard response.count <= Self.maxResponseHead else {
                throw .invalidHandshake("its answer's head is longer than \(Self.maxResponseHead / 1024) KiB")
            }
            return nil
        }
        try check(head: response[..<end])
        return Array(response[(end + 4)...])
    }

    private static func endOfHead(_ bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private func check(head: ArraySlice<UInt8>) throws(PushConnectionError) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1.") else {
            throw .invalidHandshake("its answer does not begin with an HTTP/1.1 status line")
        }
        guard statusParts[1] == "101" else {
            throw .upgradeRefused(status: statusParts.dropFirst().joined(separator: " "))
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        guard fields["upgrade"]?.lowercased() == "websocket" else {
            throw .invalidHandshake("no \"Upgrade: websocket\" header")
        }
        let connection = (fields["connection"] ?? "").lowercased().split(separator: ",")
        guard connection.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }) else {
            throw .invalidHandshake("no \"Connection: Upgrade\" header")
        }
        guard fields["sec-websocket-accept"] == expectedAccept else {
            throw .invalidHandshake("its Sec-WebSocket-Accept does not match the key sent")
        }
        if let extensions = fields["sec-websocket-extensions"], !extensions.isEmpty {
            throw .invalidHandshake("it turned on extensions (\(extensions)) the client did not ask for")
        }
    }
}
