import UnixSignals

/// Runs work until it ends or the process receives SIGINT or SIGTERM (Ctrl-C), then cancels it: the structured
/// way for long-running commands to stop cleanly, closing their sockets.
enum SignalTrap {
    /// Runs `body`; on SIGINT or SIGTERM cancels it and returns `true`.
    /// - Returns: whether a signal ended the run.
    /// - Throws: what `body` throws, unless a signal cancelled it.
    static func runUntilInterrupted(_ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return false
            }
            group.addTask {
                for await _ in signals { return true }
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            if first {
                // Let the body finish its cancellation (close frames, flushed lines); its error is the signal's.
                while (try? await group.next()) != nil {}
            }
            return first
        }
    }
}
