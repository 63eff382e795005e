import Foundation

/// One way of reaching a push server: a WebSocket in production, the in-process simulator for `simulate`, a
/// scripted fake in unit tests. The client's reconnect logic sits above it and does not know which one it has.
protocol PushTransport: Sendable {
    /// Opens one connection and hands every message to `onMessage`, in order, until the connection closes.
    ///
    /// Returns when the server closes the connection. When the task is cancelled, the transport closes the
    /// connection (with a close frame where the transport has one) and returns or throws `CancellationError`,
    /// whatever it is waiting for (the TCP connect, the handshake, a frame).
    /// - Parameters:
    ///   - url: the server's URL, with `after=` when resuming.
    ///   - onMessage: receives each message.
    /// - Throws: a connection failure (refused, reset, handshake rejected, a protocol violation).
    func connect(to url: String, onMessage: @escaping @Sendable (PushMessage) async -> Void) async throws
}

/// One message from a push server, as the transport read it.
enum PushMessage: Sendable, Equatable {
    /// A text message (the protocol's frames are text).
    case text(String)
    /// A binary message, which the protocol does not use.
    case binary
    /// A message larger than `maxMessageSize`: read through to its end without being kept (the connection goes on),
    /// with the `seq` of its top-level object when one was found, so that the cursor can move past it.
    case oversized(size: Int, seq: Int64?)
}
