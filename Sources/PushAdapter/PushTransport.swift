import Foundation

/// One way of reaching a push server: a WebSocket in production, the in-process simulator for `simulate`, a
/// scripted fake in unit tests. The client's reconnect logic sits above it and does not know which one it has.
protocol PushTransport: Sendable {
    /// Opens one connection and hands every text message to `onMessage`, in order, until the connection closes.
    ///
    /// Returns when the server closes the connection. When the task is cancelled, the transport closes the
    /// connection (with a close frame where the transport has one) and returns or throws `CancellationError`.
    /// - Parameters:
    ///   - url: the server's URL, with `after=` when resuming.
    ///   - onMessage: receives each message; a binary message arrives as `nil`.
    /// - Throws: a connection failure (refused, reset, handshake rejected).
    func connect(to url: String, onMessage: @escaping @Sendable (String?) async -> Void) async throws
}
