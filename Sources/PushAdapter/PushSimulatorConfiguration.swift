public import Foundation

/// What the push simulator serves: items of one seed, a backlog, a rate, heartbeats and injected faults.
///
/// `tributary simulate`, ``PushSimulatorServer`` and the in-process `"simulate": {...}` source share it.
public struct PushSimulatorConfiguration: Sendable, Hashable {
    /// Equal seeds give equal items.
    public var seed: UInt64
    /// New items per second after the backlog (zero: no new items).
    public var rate: Double
    /// How many items exist when the simulator starts; also how many a client that does not resume is sent.
    public var backlog: Int
    /// Drop each connection after this many frames (`nil`: never).
    public var dropEvery: Int?
    /// Make every this-many-th frame of a connection a malformed one (`nil`: never).
    public var garbageEvery: Int?
    /// Send a heartbeat when no frame went out for this long.
    public var heartbeatInterval: Duration
    /// Stop sending anything (heartbeats included) after this many frames of each connection, keeping the
    /// connection open: a server that has hung (`nil`: never).
    public var silentAfter: Int?
    /// When the simulator starts: the newest backlog item is published then (see
    /// ``PushSimulator/publicationTime(of:)``).
    public var epoch: Date

    /// Creates a configuration.
    public init(
        seed: UInt64 = 0,
        rate: Double = 1,
        backlog: Int = 20,
        dropEvery: Int? = nil,
        garbageEvery: Int? = nil,
        heartbeatInterval: Duration = .seconds(5),
        silentAfter: Int? = nil,
        epoch: Date
    ) {
        self.seed = seed
        self.rate = rate
        self.backlog = backlog
        self.dropEvery = dropEvery
        self.garbageEvery = garbageEvery
        self.heartbeatInterval = heartbeatInterval
        self.silentAfter = silentAfter
        self.epoch = epoch
    }

    /// The item generator of this configuration: its seed and its schedule.
    public var generator: PushSimulator {
        PushSimulator(seed: seed, epoch: epoch, backlog: backlog, rate: rate)
    }

    /// What is wrong with the configuration, as a message naming the setting, or `nil` when it is usable.
    public var problem: String? {
        if !rate.isFinite || rate < 0 { return "rate must be a number of items per second, 0 or more" }
        if backlog < 0 { return "backlog must be 0 or more" }
        if let dropEvery, dropEvery < 2 {
            return "dropEvery must be 2 or more (a connection needs a frame to progress)"
        }
        if let garbageEvery, garbageEvery < 2 { return "garbageEvery must be 2 or more" }
        if heartbeatInterval <= .zero { return "the heartbeat interval must be positive" }
        if let silentAfter, silentAfter < 1 { return "silentAfter must be 1 or more" }
        return nil
    }
}
