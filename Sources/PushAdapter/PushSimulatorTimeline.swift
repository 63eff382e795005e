import Foundation
import TributaryCore

/// The simulator's one timeline: item `seq` (1-based) exists from the start for `seq <= backlog`, and later ones
/// appear at `rate` per second. `seq` is global for the timeline's lifetime, whatever the connections do.
///
/// ``serve(after:send:)`` runs one connection: it replays the items after `after` (or the last `backlog` items),
/// sends `ready`, then sends new items as they appear and heartbeats when idle, injecting faults as configured.
/// Items are regenerated from ``PushSimulator`` on demand, so a replay needs no stored history.
struct PushSimulatorTimeline: Sendable {
    /// Why a connection ended on the simulator's side.
    enum Ending: Sendable, Equatable {
        /// `dropEvery` frames were sent: the simulator drops the connection.
        case dropped
    }

    let configuration: PushSimulatorConfiguration
    let generator: PushSimulator
    let start: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(configuration: PushSimulatorConfiguration, start: ContinuousClock.Instant = ContinuousClock.now) {
        self.configuration = configuration
        self.generator = configuration.generator
        self.start = start
    }

    /// The newest item's `seq` at `instant`.
    func latestSeq(at instant: ContinuousClock.Instant) -> Int64 {
        let backlog = Int64(configuration.backlog)
        guard configuration.rate > 0 else { return backlog }
        let elapsed = max(0, (instant - start).timeInterval)
        let live = (elapsed * configuration.rate).rounded(.down)
        return backlog + (live >= Double(Int64.max / 2) ? Int64.max / 2 : Int64(live))
    }

    /// When item `seq` appears (`seq` beyond the backlog, `rate` > 0).
    func appearance(of seq: Int64) -> ContinuousClock.Instant {
        let offset = Double(seq - Int64(configuration.backlog)) / configuration.rate
        return start + .seconds(offset)
    }

    /// The frame for item `seq`, encoded.
    func itemFrame(_ seq: Int64) -> String {
        PushFrame.item(seq: seq, item: generator.item(seq: seq)).encoded()
    }

    /// Serves one connection until it is dropped (a fault) or the task is cancelled.
    /// - Parameters:
    ///   - after: the client's resume point, or `nil` for a new client.
    ///   - onGarbage: called after each malformed frame (an injected fault) went out.
    ///   - send: writes one text frame to the client.
    /// - Returns: how the connection ended.
    /// - Throws: what `send` throws, or `CancellationError`.
    func serve(
        after: Int64?,
        onGarbage: @escaping @Sendable () -> Void = {},
        send: (String) async throws -> Void
    ) async throws -> Ending {
        var connection = Connection(configuration: configuration, onGarbage: onGarbage)
        let now = clock.now
        let latest = latestSeq(at: now)
        var next = (after.map { $0 + 1 } ?? latest - Int64(configuration.backlog) + 1)
        next = max(next, 1)
        var lastSent = now
        // Replay.
        while next <= latest {
            if try await connection.emit(itemFrame(next), send: send) { return .dropped }
            next += 1
        }
        if try await connection.emit(PushFrame.ready(seq: latest).encoded(), send: send) { return .dropped }
        lastSent = clock.now
        // Live.
        while true {
            try Task.checkCancellation()
            if connection.isSilent {
                try await clock.sleep(for: .seconds(3600))
                continue
            }
            let heartbeatDue = lastSent + configuration.heartbeatInterval
            let itemDue = configuration.rate > 0 ? appearance(of: next) : heartbeatDue
            try await clock.sleep(until: min(heartbeatDue, itemDue))
            let now = clock.now
            let newest = latestSeq(at: now)
            var sentSomething = false
            while next <= newest {
                if try await connection.emit(itemFrame(next), send: send) { return .dropped }
                next += 1
                sentSomething = true
            }
            if !sentSomething, now >= heartbeatDue {
                if try await connection.emit(PushFrame.heartbeat(seq: newest).encoded(), send: send) {
                    return .dropped
                }
                sentSomething = true
            }
            if sentSomething { lastSent = clock.now }
        }
    }

    // MARK: - Private

    /// One connection's frame counter and fault injection.
    private struct Connection {
        let configuration: PushSimulatorConfiguration
        let onGarbage: @Sendable () -> Void
        var frames = 0
        var garbageSent = 0

        var isSilent: Bool {
            configuration.silentAfter.map { frames >= $0 } ?? false
        }

        /// Sends `frame`, preceded by a malformed frame when one is due. Returns `true` when the connection must
        /// now be dropped.
        mutating func emit(_ frame: String, send: (String) async throws -> Void) async throws -> Bool {
            while true {
                if isSilent { return false }
                if let garbageEvery = configuration.garbageEvery, (frames + 1) % garbageEvery == 0 {
                    try await send(Self.garbage(garbageSent))
                    garbageSent += 1
                    onGarbage()
                } else {
                    try await send(frame)
                    frames += 1
                    return configuration.dropEvery.map { frames % $0 == 0 } ?? false
                }
                frames += 1
                if let dropEvery = configuration.dropEvery, frames % dropEvery == 0 { return true }
            }
        }

        /// The malformed frames, in turn: not JSON, an unknown type, no seq, an item without id, not an object.
        static func garbage(_ index: Int) -> String {
            switch index % 5 {
            case 0: #"{"type":"item","seq": this is not JSON"#
            case 1: #"{"type":"gossip","seq":1}"#
            case 2: #"{"type":"item","item":{"id":"no-seq","title":"Missing seq"}}"#
            case 3: #"{"type":"item","seq":1,"item":{"title":"An item without an id"}}"#
            default: #"["an","array"]"#
            }
        }
    }

}
