import HTTPTypes
import Logging
import WSClient

/// The WebSocket transport, on swift-websocket's `WebSocketClient`.
struct WebSocketPushTransport: PushTransport {
    /// Extra headers for the upgrade request.
    let headers: HTTPFields
    /// Messages up to this size are read whole; anything larger ends the connection (the protocol limit is
    /// enforced, with a warning, at ``PushFrame/decode(_:maxSize:)``, well below this).
    let hardLimit: Int
    let logger: Logger
    /// Pings the server this often and closes the connection when a pong does not come back in time (`nil`: no
    /// pings; the protocol's heartbeats are how the client notices a dead server). Tests use it to check that the
    /// simulator answers pings.
    let autoPing: Duration?

    init(headers: HTTPFields = HTTPFields(), maxMessageSize: Int, logger: Logger, autoPing: Duration? = nil) {
        self.headers = headers
        self.autoPing = autoPing
        let (scaled, overflow) = maxMessageSize.multipliedReportingOverflow(by: 4)
        self.hardLimit = overflow ? Int.max / 2 : max(scaled, 1 << 16)
        self.logger = logger
    }

    func connect(to url: String, onMessage: @escaping @Sendable (String?) async -> Void) async throws {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: min(hardLimit, Int(UInt32.max >> 1)),
            additionalHeaders: headers,
            closeTimeout: .seconds(1),
            autoPing: autoPing.map { .enabled(timePeriod: $0) } ?? .disabled
        )
        let limit = hardLimit
        try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, _, _ in
            for try await message in inbound.messages(maxSize: limit) {
                switch message {
                case .text(let text): await onMessage(text)
                case .binary: await onMessage(nil)
                }
            }
        }
    }
}
