public import Foundation

/// The work queue a fleet of `tributary worker` processes shares: the feed list `sync` loaded, and each source's
/// next due time and lease. The PostgreSQL store implements it with `SELECT … FOR UPDATE SKIP LOCKED` and leases
/// that expire, in the way the established PostgreSQL job queues do; a worker that dies loses its leases when they
/// expire, and another worker takes its sources.
public protocol FleetQueue: Sendable {
    /// The feed list as `sync` stored it: feeds.json's text, the path it was read from (relative paths resolve
    /// against its directory) and a version that changes with every sync that changed it; `nil` before the first
    /// sync, and when its version is still `version` (workers look often; the list is large and rarely changes).
    func fleetConfiguration(changedSince version: Int64?) async throws -> FleetConfiguration?

    /// Claims up to `limit` enabled sources that are due at `now`, for `worker`, each under a lease until
    /// `now + lease`; never more than `maxPerHost` leases at once on one host (across the fleet) and nothing on a
    /// host that asked to wait (``holdHost(_:until:)``).
    func claim(limit: Int, worker: String, now: Date, lease: Duration, maxPerHost: Int) async throws -> [SourceID]

    /// Ends `worker`'s lease on `source`: the source is due again at `nextDue`. The fetch is logged.
    func release(_ source: SourceID, worker: String, nextDue: Date, fetch: FleetFetch) async throws

    /// Asks every worker to leave `host` alone until `date` (a `Retry-After` it sent).
    func holdHost(_ host: String, until date: Date) async throws

    /// A store for one fetch: one run, in the sense of ``StateStore``, on the shared store.
    func storeForRun() async -> any StateStore

    /// When the next source is due, for a worker with nothing to do; `nil` when none is enabled.
    func nextDue() async throws -> Date?
}

/// The feed list a fleet runs.
public struct FleetConfiguration: Sendable, Equatable {
    /// feeds.json, as `sync` read it.
    public var text: String
    /// The path it was read from.
    public var file: String
    /// Changes with every `sync` that changed the list.
    public var version: Int64

    public init(text: String, file: String, version: Int64) {
        self.text = text
        self.file = file
        self.version = version
    }
}

/// One fetch a worker made, as the queue logs it.
public struct FleetFetch: Sendable, Equatable {
    public var started: Date
    public var ended: Date
    /// `ok`, `not modified`, `failed: …`.
    public var outcome: String

    public init(started: Date, ended: Date, outcome: String) {
        self.started = started
        self.ended = ended
        self.outcome = outcome
    }
}

/// What `sync` changed.
public struct FleetSyncReport: Sendable, Equatable {
    public var added: [SourceID] = []
    public var updated: [SourceID] = []
    public var disabled: [SourceID] = []
    public var unchanged: Int = 0

    public init() {}
}

extension SourceConfiguration {
    /// The host (`host` or `host:port`) a source fetches from, for per-host limits across a fleet: the host of its
    /// `url` (http, https, ws, wss), `news.google.com` for Google News; `nil` for sources that fetch nothing over
    /// the network (files, programs, the simulator).
    public var fetchHost: String? {
        if kind == "google-news" { return "news.google.com" }
        guard let text = entry["url"]?.stringValue, let url = URLComponents(string: text),
            let scheme = url.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme),
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
