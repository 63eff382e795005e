import FeedParser
import Foundation
import Logging
import TributaryCore

/// The push client: connects through a ``PushTransport``, turns frames into events, watches for dead connections
/// and reconnects with ``ReconnectBackoff``, resuming with `after=`.
///
/// Each connection runs in a task group beside a watchdog. The watchdog ends the connection when no frame has
/// arrived within `heartbeatTimeout` (a dead connection: reconnect) or, in one-shot mode, when the `listen` window
/// closes (finish). Cancelling the calling task cancels both, and the transport closes its socket.
struct PushClient: Sendable {
    let sourceID: SourceID
    let url: String
    let transport: any PushTransport
    let heartbeatTimeout: Duration
    let listen: Duration
    let maxMessageSize: Int
    let reconnect: PushOptions.Reconnect
    let mode: SourceContext.Mode
    let logger: Logger
    /// Where an earlier run stopped: the `seq` of its checkpoint, as saved. The first connection asks for the items
    /// after it; a value that is not a `seq` is ignored with a warning.
    var savedCursor: String?
    /// Whether to send a ``SourceCheckpoint`` with the last accepted `seq` (under ``checkpointKey``) before the
    /// terminal event of a one-shot run, after every item it covers.
    var sendsCheckpoints = false
    /// Waits between attempts; replaced in tests to record the delays.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// A number in `0...1` for the backoff's jitter.
    var jitter: @Sendable () -> Double = { Double.random(in: 0...1) }

    /// The key of the last accepted `seq` in the source's checkpoint.
    static let checkpointKey = "seq"

    /// How one connection ended.
    enum ConnectionEnd: Sendable, Equatable {
        /// The server closed it.
        case closed
        /// No frame within `heartbeatTimeout`.
        case idle
        /// The one-shot `listen` window closed.
        case listenWindowClosed
        /// Connecting or reading failed.
        case failed(String)
        /// The server's `seq` went below the cursor (a `ready` or `heartbeat` under the last accepted item): it was
        /// restarted or its history reset. The cursor is cleared and the next connection reads the whole backlog.
        case serverReset(from: Int64, to: Int64)
        /// The task was cancelled.
        case cancelled
    }

    /// Runs the client until the one-shot window closes, the attempts run out, or the task is cancelled.
    /// - Throws: `CancellationError` when cancelled.
    func run(into sink: EventSink) async throws {
        await sink.started()
        var resumeAfter: Int64?
        if let savedCursor {
            if let seq = Int64(savedCursor), seq >= 0 {
                resumeAfter = seq
            } else {
                await sink.warning(
                    "ignored the saved push cursor \"\(savedCursor)\" (not a seq number); reading the server's backlog instead"
                )
            }
        }
        let state = LockedValue(PushCursor(lastSeq: resumeAfter))
        let clock = ContinuousClock()
        let deadline = mode == .oneShot ? clock.now + listen : nil
        var backoff = ReconnectBackoff(reconnect)
        var everConnected = false
        var lastFailure: String?
        var connections = 0

        while true {
            try Task.checkCancellation()
            let resumeAt = state.withLock { cursor in
                cursor.connectionStarted()
                return cursor.lastSeq
            }
            let target = PushURL.resuming(url, after: resumeAt)
            connections += 1
            logger.debug("push: connecting", metadata: ["url": "\(target)", "attempt": "\(connections)"])
            let resetsBefore = state.withLock(\.resets)
            let end = await connectOnce(to: target, state: state, sink: sink, deadline: deadline)
            let (frames, pending, resets) = state.withLock { ($0.framesOnConnection, $0.takePending(), $0.resets) }
            await sink.items(pending)
            if frames > 0 { everConnected = true }

            switch end {
            case .cancelled:
                throw CancellationError()
            case _ where resets > resetsBefore && resets == 1:
                // The server went back on this connection (however the connection then ended): the first reset is
                // followed at once, without `after=`; a server that keeps going back waits like any other drop.
                continue
            case .listenWindowClosed:
                await finishOneShot(
                    state: state,
                    startedAfter: resumeAfter,
                    sink: sink,
                    everConnected: everConnected,
                    lastFailure: lastFailure
                )
                return
            case .idle:
                await sink.warning(
                    "no frame for \(DurationFormat.string(heartbeatTimeout)) (heartbeatTimeout): the connection is presumed dead; reconnecting",
                    location: target
                )
            case .serverReset:
                break
            case .closed:
                logger.debug("push: server closed the connection", metadata: ["frames": "\(frames)"])
            case .failed(let detail):
                lastFailure = detail
                logger.debug("push: connection failed", metadata: ["error": "\(detail)"])
            }

            guard let delay = backoff.nextDelay(deliveredFrames: frames > 0, jitter: jitter()) else {
                await sendCheckpoint(state: state, startedAfter: resumeAfter, sink: sink)
                let detail = lastFailure ?? "the server closed every connection without sending a frame"
                await sink.failed(
                    SourceError(
                        sourceID: sourceID,
                        reason: .connection(
                            url: url,
                            detail:
                                "\(detail); gave up after \(backoff.maxAttempts ?? 0) reconnect attempts (reconnect.maxAttempts)"
                        )
                    )
                )
                return
            }
            if let deadline, clock.now + delay >= deadline {
                try await sleep(max(.zero, deadline - clock.now))
                await finishOneShot(
                    state: state,
                    startedAfter: resumeAfter,
                    sink: sink,
                    everConnected: everConnected,
                    lastFailure: lastFailure
                )
                return
            }
            try await sleep(delay)
        }
    }

    // MARK: - Private

    /// Ends a one-shot run: `finished` (with a warning when no `ready` came), or `failed` when no connection ever
    /// delivered a frame.
    private func finishOneShot(
        state: LockedValue<PushCursor>,
        startedAfter: Int64?,
        sink: EventSink,
        everConnected: Bool,
        lastFailure: String?
    ) async {
        await sendCheckpoint(state: state, startedAfter: startedAfter, sink: sink)
        if !everConnected {
            await sink.failed(
                SourceError(
                    sourceID: sourceID,
                    reason: .connection(
                        url: url,
                        detail: "no frame arrived within the listen window of \(DurationFormat.string(listen)); "
                            + (lastFailure.map { "the last connection failed: \($0)" }
                                ?? "check that the server is running and the URL is right")
                    )
                )
            )
            return
        }
        if !state.withLock(\.readySeen) {
            // Items may be missing, and nothing says how many: a failure (exit 1) that keeps what did arrive, never
            // a quiet "ok".
            await sink.failed(
                SourceError(
                    sourceID: sourceID,
                    reason: .incomplete(
                        "the server sent no 'ready' frame within the listen window of \(DurationFormat.string(listen)), so its backlog may be incomplete\(lastFailure.map { " (last connection: \($0))" } ?? ""); raise \"listen\" or check the server"
                    )
                )
            )
            return
        }
        await sink.finished()
    }

    /// Sends the last accepted `seq` as the source's checkpoint, when this client sends checkpoints and the cursor
    /// moved past where the run started. Called after every item was handed to the sink.
    private func sendCheckpoint(state: LockedValue<PushCursor>, startedAfter: Int64?, sink: EventSink) async {
        guard sendsCheckpoints else { return }
        let (seq, wasReset) = state.withLock { ($0.lastSeq, $0.wasReset) }
        if let seq {
            guard seq != startedAfter || wasReset else { return }
            await sink.checkpoint(SourceCheckpoint([Self.checkpointKey: String(seq)]))
        } else if wasReset {
            // The server went back and has sent nothing since: forget the old cursor, so the next run does not
            // find the reset again.
            await sink.checkpoint(SourceCheckpoint([:]))
        }
    }

    /// One connection raced against the watchdog.
    private func connectOnce(
        to target: String,
        state: LockedValue<PushCursor>,
        sink: EventSink,
        deadline: ContinuousClock.Instant?
    ) async -> ConnectionEnd {
        let clock = ContinuousClock()
        let lastActivity = LockedValue(clock.now)
        let heartbeatTimeout = heartbeatTimeout
        let maxMessageSize = maxMessageSize
        let sourceID = sourceID
        // A frame that ends the connection from inside (a server reset) says so here.
        let (endings, ending) = AsyncStream<ConnectionEnd>.makeStream()
        return await withTaskGroup(of: ConnectionEnd.self) { group in
            group.addTask {
                do {
                    try await transport.connect(to: target) { message in
                        lastActivity.withLock { $0 = clock.now }
                        if let end = await Self.handle(
                            message,
                            sourceID: sourceID,
                            maxMessageSize: maxMessageSize,
                            state: state,
                            sink: sink
                        ) {
                            ending.yield(end)
                        }
                    }
                    return Task.isCancelled ? .cancelled : .closed
                } catch {
                    return Task.isCancelled ? .cancelled : .failed(String(describing: error))
                }
            }
            group.addTask {
                for await end in endings { return end }
                return .cancelled
            }
            group.addTask {
                while true {
                    let idleAt = lastActivity.withLock { $0 } + heartbeatTimeout
                    let wake = deadline.map { min($0, idleAt) } ?? idleAt
                    do {
                        try await clock.sleep(until: wake)
                    } catch {
                        return .cancelled
                    }
                    let now = clock.now
                    if let deadline, now >= deadline { return .listenWindowClosed }
                    if now >= lastActivity.withLock({ $0 }) + heartbeatTimeout { return .idle }
                }
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            ending.finish()
            while await group.next() != nil {}
            return Task.isCancelled ? .cancelled : first
        }
    }

    /// Decodes one message and emits what it yields.
    /// - Returns: how the connection must end, when this message ends it (a server reset).
    private static func handle(
        _ message: PushMessage,
        sourceID: SourceID,
        maxMessageSize: Int,
        state: LockedValue<PushCursor>,
        sink: EventSink
    ) async -> ConnectionEnd? {
        let text: String
        switch message {
        case .binary:
            state.withLock { $0.receiveMalformed() }
            await sink.warning("skipped a binary message; the push protocol uses text frames")
            return nil
        case .oversized(let size, let seq):
            let moved = state.withLock { $0.skip(seq: seq) }
            let error = PushFrameError.oversized(size: size, limit: maxMessageSize)
            let place = seq.map { " (seq \($0))" } ?? ""
            let cursor = moved ? "; the cursor moved past it" : ""
            await sink.warning("\(error.description)\(place)\(cursor); raise maxMessageSize to read such messages")
            return nil
        case .text(let received):
            text = received
        }
        switch PushFrame.decodeReporting(text, maxSize: maxMessageSize) {
        case .failure(let error):
            state.withLock { $0.receiveMalformed() }
            await sink.warning(error.description)
        case .success(let (decoded, problems)):
            var frame = decoded
            if case .item(let seq, let item) = frame {
                // SRC-3: the source's id on every item, whatever the server wrote; HTML sanitized as for every
                // JSON Feed item.
                frame = .item(seq: seq, item: JSONFeedDocumentReader.prepared(item, sourceID: sourceID, base: nil))
                for problem in problems { await sink.warning("item \(seq): \(problem)") }
            }
            switch state.withLock({ $0.receive(frame) }) {
            case .none: break
            case .emit(let items): await sink.items(items)
            case .reset(let from, let to):
                await sink.items(state.withLock { $0.takePending() })
                await sink.warning(
                    "the server's seq went back from \(from) to \(to) (it was restarted or its history was reset); reading its backlog again from the start"
                )
                return .serverReset(from: from, to: to)
            }
        }
        return nil
    }
}
