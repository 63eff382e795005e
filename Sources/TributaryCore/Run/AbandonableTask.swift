/// Work that must not hold up what waits for it past a deadline, even when it is stuck where cancellation does not
/// reach (a C call, a blocking read, a connection pool or a server that never answers): it runs in a task of its
/// own; at its deadline, or when the caller is cancelled, it is cancelled and given a grace period to end; if it is
/// still running then, it is left behind and the caller goes on.
///
/// A source under the pipeline's timeout, a fleet worker's fetch under its lease and its calls to the shared store
/// while it drains all run this way.
public enum AbandonableTask {
    /// How the wait for the work ended.
    public enum Ending<Value: Sendable>: Sendable {
        /// The work finished before its deadline, with its value.
        case finished(Value)
        /// The deadline came first.
        case expired
        /// The calling task was cancelled first.
        case cancelled
    }

    /// Runs `work` until it finishes, `expiry` returns, or the calling task is cancelled, whichever comes first.
    ///
    /// When the work does not finish first, it is cancelled and this waits at most `grace` more for it to end;
    /// `afterGrace` is the work's own value when it ended within the grace period, `nil` when it was left behind.
    /// - Parameters:
    ///   - grace: how long work that was cancelled may take to end before it is left behind.
    ///   - expiry: returns at the deadline; throwing (cancelled) means no deadline came.
    ///   - work: what to run.
    public static func run<Value: Sendable>(
        grace: Duration,
        expiry: @escaping @Sendable () async throws -> Void,
        _ work: @escaping @Sendable () async -> Value
    ) async -> (ending: Ending<Value>, afterGrace: Value?) {
        // Everything that can end the wait, in the order it happens.
        let (signals, signal) = AsyncStream<Signal<Value>>.makeStream()
        let task = Task { signal.yield(.finished(await work())) }
        let timer = Task {
            guard (try? await expiry()) != nil else { return }
            signal.yield(.expired)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            var pending = signals.makeAsyncIterator()
            let ending: Ending<Value>
            switch await pending.next() ?? .cancelled {
            case .finished(let value): return (.finished(value), value)
            case .expired: ending = .expired
            case .cancelled, .graceOver: ending = .cancelled
            }
            task.cancel()
            let graceTimer = Task {
                try? await Task.sleep(for: grace)
                signal.yield(.graceOver)
            }
            defer { graceTimer.cancel() }
            while let next = await pending.next() {
                switch next {
                case .finished(let value): return (ending, value)
                case .graceOver: return (ending, nil)
                case .expired, .cancelled: continue
                }
            }
            return (ending, nil)
        } onCancel: {
            signal.yield(.cancelled)
        }
    }

    private enum Signal<Value: Sendable>: Sendable {
        case finished(Value)
        case expired
        case cancelled
        case graceOver
    }
}
