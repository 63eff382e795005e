public import Foundation
import Logging
import PostgresNIO
public import TributaryCore

extension PostgresStore: FleetQueue {
    /// The advisory lock key every claim takes for its transaction: claims are short, and taking them in turn
    /// keeps the per-host count of leases exact while `FOR UPDATE SKIP LOCKED` keeps workers off each other's rows.
    static let claimLockKey: Int64 = 0x7472_6962_636c_6d31

    /// Loads a feed list into the fleet (`tributary sync`): new sources are due at once, a source whose entry
    /// changed is due at once with its lease kept, sources no longer listed or switched off are disabled. One
    /// transaction.
    /// - Parameters:
    ///   - text: feeds.json as read (workers load it from the store).
    ///   - file: its path, against which relative paths resolve.
    public func sync(_ configuration: FeedsConfiguration, text: String, file: String, at date: Date) async throws
        -> FleetSyncReport
    {
        let now = date.timeIntervalSince1970
        return try await write { connection, logger in
            var known: [String: (fingerprint: String, enabled: Bool)] = [:]
            let rows = try await connection.query("SELECT id, fingerprint, enabled FROM fleet_source", logger: logger)
            for try await (id, fingerprint, enabled) in rows.decode((String, String, Bool).self) {
                known[id] = (fingerprint, enabled)
            }
            var report = FleetSyncReport()
            var listed: Set<String> = []
            for source in configuration.sources {
                let id = source.id.rawValue
                listed.insert(id)
                let fingerprint = source.fingerprint
                let host = source.fetchHost
                switch known[id] {
                case nil:
                    _ = try await connection.query(
                        """
                        INSERT INTO fleet_source (id, fingerprint, host, enabled, next_due)
                        VALUES (\(id), \(fingerprint), \(host), \(source.enabled), \(now))
                        """,
                        logger: logger
                    )
                    if source.enabled { report.added.append(source.id) } else { report.disabled.append(source.id) }
                case let (oldFingerprint, wasEnabled)?:
                    if oldFingerprint == fingerprint, wasEnabled == source.enabled {
                        report.unchanged += 1
                        continue
                    }
                    _ = try await connection.query(
                        """
                        UPDATE fleet_source SET fingerprint = \(fingerprint), host = \(host),
                            enabled = \(source.enabled), next_due = \(now)
                        WHERE id = \(id)
                        """,
                        logger: logger
                    )
                    if !source.enabled {
                        report.disabled.append(source.id)
                    } else {
                        report.updated.append(source.id)
                    }
                }
            }
            for (id, state) in known where !listed.contains(id) && state.enabled {
                _ = try await connection.query(
                    "UPDATE fleet_source SET enabled = false WHERE id = \(id)",
                    logger: logger
                )
                report.disabled.append(SourceID(id))
            }
            let changed = !report.added.isEmpty || !report.updated.isEmpty || !report.disabled.isEmpty
            var current: (text: String, file: String)?
            let config = try await connection.query("SELECT feeds_json, file FROM fleet_config", logger: logger)
            for try await (storedText, storedFile) in config.decode((String, String).self) {
                current = (storedText, storedFile)
            }
            if changed || current?.text != text || current?.file != file {
                _ = try await connection.query(
                    """
                    INSERT INTO fleet_config (id, feeds_json, file, version, synced_at)
                    VALUES (1, \(text), \(file), 1, \(now))
                    ON CONFLICT (id) DO UPDATE SET feeds_json = excluded.feeds_json, file = excluded.file,
                        version = fleet_config.version + 1, synced_at = excluded.synced_at
                    """,
                    logger: logger
                )
            }
            report.added.sort { $0.rawValue < $1.rawValue }
            report.updated.sort { $0.rawValue < $1.rawValue }
            report.disabled.sort { $0.rawValue < $1.rawValue }
            return report
        }
    }

    public func fleetConfiguration(changedSince version: Int64?) async throws -> FleetConfiguration? {
        try await read { connection, logger in
            let rows = try await connection.query(
                "SELECT feeds_json, file, version FROM fleet_config WHERE version IS DISTINCT FROM \(version)",
                logger: logger
            )
            for try await (text, file, version) in rows.decode((String, String, Int64).self) {
                return FleetConfiguration(text: text, file: file, version: version)
            }
            return nil
        }
    }

    public func claim(limit: Int, worker: String, now: Date, lease: Duration, maxPerHost: Int) async throws
        -> [SourceID]
    {
        guard limit > 0 else { return [] }
        let nowSeconds = now.timeIntervalSince1970
        let until = nowSeconds + lease.timeInterval
        return try await write { connection, logger in
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(Self.claimLockKey))", logger: logger)
            // Leases held now, per host, by every worker.
            var held: [String: Int] = [:]
            let leases = try await connection.query(
                """
                SELECT host, count(*)::int FROM fleet_source
                WHERE host IS NOT NULL AND lease_until IS NOT NULL AND lease_until >= \(nowSeconds) GROUP BY host
                """,
                logger: logger
            )
            for try await (host, count) in leases.decode((String, Int).self) { held[host] = count }
            // Due, unleased (or lease expired), on a host that is not waiting; oldest due first.
            let candidates = try await connection.query(
                """
                SELECT s.id, s.host FROM fleet_source s
                WHERE s.enabled AND s.next_due <= \(nowSeconds)
                    AND (s.lease_until IS NULL OR s.lease_until < \(nowSeconds))
                    AND NOT EXISTS (
                        SELECT 1 FROM fleet_host h WHERE h.host = s.host AND h.not_before > \(nowSeconds)
                    )
                ORDER BY s.next_due, s.id
                LIMIT \(limit * 8)
                FOR UPDATE OF s SKIP LOCKED
                """,
                logger: logger
            )
            var chosen: [String] = []
            for try await (id, host) in candidates.decode((String, String?).self) where chosen.count < limit {
                if let host {
                    guard held[host, default: 0] < maxPerHost else { continue }
                    held[host, default: 0] += 1
                }
                chosen.append(id)
            }
            if !chosen.isEmpty {
                _ = try await connection.query(
                    """
                    UPDATE fleet_source SET lease_owner = \(worker), lease_until = \(until)
                    WHERE id = ANY(\(chosen))
                    """,
                    logger: logger
                )
            }
            return chosen.map { SourceID($0) }
        }
    }

    public func release(_ source: SourceID, worker: String, nextDue: Date, fetch: FleetFetch) async throws {
        try await write { connection, logger in
            _ = try await connection.query(
                """
                UPDATE fleet_source SET lease_owner = NULL, lease_until = NULL,
                    next_due = \(nextDue.timeIntervalSince1970)
                WHERE id = \(source.rawValue) AND lease_owner = \(worker)
                """,
                logger: logger
            )
            _ = try await connection.query(
                """
                INSERT INTO fleet_fetch (source, worker, started, ended, outcome)
                VALUES (\(source.rawValue), \(worker), \(fetch.started.timeIntervalSince1970),
                    \(fetch.ended.timeIntervalSince1970), \(fetch.outcome))
                """,
                logger: logger
            )
        }
    }

    public func holdHost(_ host: String, until date: Date) async throws {
        try await write { connection, logger in
            _ = try await connection.query(
                """
                INSERT INTO fleet_host (host, not_before) VALUES (\(host), \(date.timeIntervalSince1970))
                ON CONFLICT (host) DO UPDATE SET not_before = GREATEST(fleet_host.not_before, excluded.not_before)
                """,
                logger: logger
            )
        }
    }

    public func nextDue() async throws -> Date? {
        try await read { connection, logger in
            let rows = try await connection.query(
                "SELECT MIN(next_due) FROM fleet_source WHERE enabled",
                logger: logger
            )
            for try await due in rows.decode(Double?.self) { return due.map(Date.init(timeIntervalSince1970:)) }
            return nil
        }
    }
}
