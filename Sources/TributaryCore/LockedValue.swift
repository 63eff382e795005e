import Synchronization

/// A value behind a lock, shareable between tasks and closures (a `Mutex` cannot be copied into them): the push
/// source's cursor, the exec source's stderr tail.
public final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result: Sendable>(
        _ body: (inout sending Value) throws -> sending Result
    ) rethrows -> sending Result {
        try mutex.withLock(body)
    }

    /// The current value.
    public var value: Value { mutex.withLock { $0 } }
}
