/// Why a WebSocket connection to a push server failed, in words for the person who configured the source.
enum PushConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not a `ws://` or `wss://` URL with a host.
    case invalidURL(String)
    /// The TCP (or TLS) connection could not be made.
    case cannotConnect(host: String, port: Int, detail: String)
    /// The server closed the connection before it finished its answer to the upgrade request.
    case closedDuringHandshake
    /// The server answered the upgrade request with something other than `101 Switching Protocols`.
    case upgradeRefused(status: String)
    /// The server's answer to the upgrade request is not a valid WebSocket handshake.
    case invalidHandshake(String)
    /// The server broke the WebSocket framing rules.
    case protocolViolation(String)
    /// The client's pings went unanswered.
    case pingUnanswered

    var description: String {
        switch self {
        case .invalidURL(let url):
            "\"\(url)\" is not a ws:// or wss:// URL with a host"
        case .cannotConnect(_, _, let detail):
            // The detail names the host and port (NetworkFailure's words).
            detail
        case .closedDuringHandshake:
            "the server closed the connection during the WebSocket handshake; check that the URL is the push endpoint"
        case .upgradeRefused(let status):
            "the server answered the WebSocket upgrade with HTTP \(status), not 101; check the URL and any headers it needs"
        case .invalidHandshake(let detail):
            "the server's WebSocket handshake is invalid: \(detail)"
        case .protocolViolation(let detail):
            "the server broke the WebSocket protocol: \(detail)"
        case .pingUnanswered:
            "the server did not answer a ping in time"
        }
    }
}
