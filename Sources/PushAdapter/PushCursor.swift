import TributaryCore

/// What a push client knows about the stream: the last accepted item `seq`, whether the backlog is complete, and
/// the items waiting to be emitted. A pure state machine; the client feeds it one decoded frame at a time.
struct PushCursor: Sendable {
    /// What to do after a frame.
    enum Action: Sendable, Equatable {
        /// Nothing to emit yet (an item held for the backlog batch, a heartbeat, a repeat).
        case none
        /// Emit these items now.
        case emit([FeedItem])
        /// The server's `seq` went back below the cursor: it was restarted. The cursor is cleared; the connection
        /// must end, and the next one reads the server's whole backlog.
        case reset(from: Int64, to: Int64)
    }

    /// How many backlog items are held before they are emitted as one batch.
    static let backlogBatchSize = 50

    /// The last item `seq` accepted; the resume point (`after=`).
    private(set) var lastSeq: Int64?
    /// Whether a `ready` frame arrived (on any connection).
    private(set) var readySeen = false
    /// Item frames at or below ``lastSeq``, ignored.
    private(set) var repeatsIgnored = 0
    /// How many times the server's `seq` went back below the cursor (see ``Action/reset(from:to:)``).
    private(set) var resets = 0
    /// Whether the server's `seq` ever went back below the cursor.
    var wasReset: Bool { resets > 0 }
    /// Frames (of any type) received on the current connection.
    private(set) var framesOnConnection = 0
    /// Whether the current connection has sent `ready`.
    private var readyOnConnection = false
    private var pending: [FeedItem] = []

    /// Creates a cursor, resuming after `lastSeq` (a checkpoint of an earlier run) when given.
    init(lastSeq: Int64? = nil) {
        self.lastSeq = lastSeq
    }

    /// Starts counting a new connection; items of the backlog are batched again until its `ready`.
    mutating func connectionStarted() {
        framesOnConnection = 0
        readyOnConnection = false
    }

    /// Takes one frame. Items at or below ``lastSeq`` are ignored; `ready` and `heartbeat` carry the server's
    /// current `seq` and are never ignored (a resumed connection may repeat the last number in its `ready`).
    mutating func receive(_ frame: PushFrame) -> Action {
        framesOnConnection += 1
        switch frame {
        case .item(let seq, let item):
            if let lastSeq, seq <= lastSeq {
                repeatsIgnored += 1
                return .none
            }
            lastSeq = seq
            pending.append(item)
            if readyOnConnection || pending.count >= Self.backlogBatchSize { return .emit(takePending()) }
            return .none
        case .ready(let seq):
            if let reset = resetIfBehind(seq) { return reset }
            readySeen = true
            readyOnConnection = true
            return pending.isEmpty ? .none : .emit(takePending())
        case .heartbeat(let seq):
            return resetIfBehind(seq) ?? .none
        }
    }

    /// Moves the cursor past a message that was too large to read, when its `seq` is known and ahead of the cursor.
    /// - Returns: whether the cursor moved.
    mutating func skip(seq: Int64?) -> Bool {
        framesOnConnection += 1
        guard let seq, seq > (lastSeq ?? -1) else { return false }
        lastSeq = seq
        return true
    }

    /// A `ready` or `heartbeat` carries the server's current `seq`, which never goes below an item it sent: when it
    /// does, the server started again, and the cursor is cleared.
    private mutating func resetIfBehind(_ seq: Int64) -> Action? {
        guard let last = lastSeq, seq < last else { return nil }
        lastSeq = nil
        resets += 1
        return .reset(from: last, to: seq)
    }

    /// Counts a malformed frame (it still shows the connection is alive).
    mutating func receiveMalformed() {
        framesOnConnection += 1
    }

    /// The items held back, emptied.
    mutating func takePending() -> [FeedItem] {
        defer { pending = [] }
        return pending
    }
}
