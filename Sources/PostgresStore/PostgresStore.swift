public import Foundation
public import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NetworkFailure
import PostgresNIO
public import TributaryCore

/// The shared ``StateStore`` on PostgreSQL: the same tables as the SQLite store (items with their first- and
/// last-seen times, checkpoints, health, digests, runs), so that several machines share one view.
///
/// - Schema versions: ``PostgresSchema``'s migrations are applied on open, under a transaction-scoped advisory
///   lock (two processes opening a new database at once take turns). A database that records a migration this
///   version does not know was set up by a newer Tributary: it is refused before anything is written.
/// - Transactions: every write is one transaction; a failed statement rolls the whole write back.
/// - Connections: a pool (postgres-nio's `PostgresClient`); the run lock, when taken, holds one more connection
///   for the run: a session advisory lock, which the server releases when that connection ends, however the
///   process ends.
/// - Runs: each store value is one run, as in ``StateStore``.
public actor PostgresStore: StateStore {
    /// The database.
    public nonisolated let location: PostgresLocation
    let client: PostgresClient
    /// The task running the pool; `nil` for a run that shares another store's pool (``storeForRun()``).
    private let clientRun: Task<Void, Never>?
    private var lockConnection: PostgresConnection?
    private var runID: Int64?
    let logger: Logger

    /// The advisory lock key of the run lock (any fixed 64-bit number, the same for every Tributary).
    static let runLockKey: Int64 = 0x7472_6962_7275_6e31
    /// The advisory lock key migrations take.
    static let migrationLockKey: Int64 = 0x7472_6962_6d69_6731

    private init(
        location: PostgresLocation,
        client: PostgresClient,
        clientRun: Task<Void, Never>?,
        lockConnection: PostgresConnection?,
        logger: Logger
    ) {
        self.location = location
        self.client = client
        self.clientRun = clientRun
        self.lockConnection = lockConnection
        self.logger = logger
    }

    /// Connects, takes the run lock when `runLockTimeout` is set (waiting that long for another run) and
    /// migrates the database.
    /// - Throws: ``PostgresStoreError``: `.cannotConnect`, `.busy`, `.newerVersion` (nothing changed), `.storage`.
    public static func open(
        _ location: PostgresLocation,
        runLockTimeout: Duration? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "tributary.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> PostgresStore {
        let password = location.password(environment: environment)
        let connection = try await connect(location, password: password, logger: logger)
        do {
            if let runLockTimeout {
                try await takeRunLock(on: connection, location: location, timeout: runLockTimeout, logger: logger)
            }
            try await PostgresSchema.migrate(on: connection, location: location, logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        var lockConnection: PostgresConnection? = connection
        if runLockTimeout == nil {
            try? await connection.close()
            lockConnection = nil
        }
        let client = PostgresClient(
            configuration: clientConfiguration(location, password: password),
            backgroundLogger: logger
        )
        let clientRun = Task { await client.run() }
        return PostgresStore(
            location: location,
            client: client,
            clientRun: clientRun,
            lockConnection: lockConnection,
            logger: logger
        )
    }

    /// Lets go of the run lock and closes every connection. The store must not be used afterwards.
    ///
    /// The pool closes once every connection in use is given back; a call that never returned (its connection lost
    /// mid-query, abandoned by a fleet worker) would keep it open for good, so the wait lasts at most
    /// ``closeLimit``: the process is ending, and the server drops what it left.
    public func close() async throws {
        if let lockConnection {
            self.lockConnection = nil
            try? await lockConnection.close()
        }
        if let clientRun {
            clientRun.cancel()
            _ = await AbandonableTask.run(
                grace: .zero,
                expiry: { try await Task.sleep(for: Self.closeLimit) },
                { await clientRun.value }
            )
        }
    }

    /// How long ``close()`` waits for connections in use to be given back.
    static let closeLimit: Duration = .seconds(5)

    /// Another run on the same database and connection pool: what a worker uses for each fetch. Closing it
    /// leaves the pool to this store.
    public func storeForRun() -> any StateStore {
        PostgresStore(location: location, client: client, clientRun: nil, lockConnection: nil, logger: logger)
    }

    public nonisolated var keepsHistory: Bool { true }

    // MARK: - ItemStore

    public func save(_ items: [FeedItem], from source: SourceID, at date: Date) async throws -> StoreChanges {
        try await save([SaveBatch(source: source, items: items, date: date)])[0]
    }

    /// Every batch in one transaction.
    public func save(_ batches: [SaveBatch]) async throws -> [StoreChanges] {
        guard let first = batches.first else { return [] }
        let run = try await currentRun(at: first.date)
        return try await write { connection, logger in
            var changes: [StoreChanges] = []
            for batch in batches {
                changes.append(try await Self.save(batch, run: run, on: connection, logger: logger))
            }
            return changes
        }
    }

    /// Writes one batch: a new key is inserted, a known one keeps its first-seen time and gets the new content.
    private static func save(
        _ batch: SaveBatch,
        run: Int64,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> StoreChanges {
        let (items, source, date) = (batch.items, batch.source, batch.date)
        let seen = date.timeIntervalSince1970
        var existing: [String: (json: String, firstSeen: Double)] = [:]
        let ids = items.map(\.id)
        let rows = try await connection.query(
            "SELECT id, json, first_seen FROM item WHERE source = \(source.rawValue) AND id = ANY(\(ids))",
            logger: logger
        )
        for try await (id, json, firstSeen) in rows.decode((String, String, Double).self) {
            existing[id] = (json, firstSeen)
        }
        var changes = StoreChanges()
        // One INSERT and one UPDATE per batch (arrays unnested by the server), not a statement per item.
        var inserts: (ids: [String], json: [String]) = ([], [])
        var updates: [String: String] = [:]
        var updateOrder: [String] = []
        for item in items {
            if let (oldJSON, firstSeenSeconds) = existing[item.id] {
                let firstSeen = Date(timeIntervalSince1970: firstSeenSeconds)
                let stamped = StoredItem.stamped(item, firstSeen: firstSeen)
                let json = StoredItem.storedJSON(stamped)
                // The same id twice in a batch: the last one is what is stored, as when saved one by one.
                if updates.updateValue(json, forKey: item.id) == nil { updateOrder.append(item.id) }
                existing[item.id] = (json, firstSeenSeconds)
                let stored = StoredItem(item: stamped, sourceID: source, firstSeen: firstSeen, lastSeen: date)
                if json == oldJSON {
                    changes.unchanged.append(stored)
                } else {
                    changes.updated.append(stored)
                }
            } else {
                let stamped = StoredItem.stamped(item, firstSeen: date)
                let json = StoredItem.storedJSON(stamped)
                inserts.ids.append(item.id)
                inserts.json.append(json)
                existing[item.id] = (json, seen)
                changes.inserted.append(
                    StoredItem(item: stamped, sourceID: source, firstSeen: date, lastSeen: date)
                )
            }
        }
        if !inserts.ids.isEmpty {
            try await connection.query(
                """
                INSERT INTO item (source, id, json, first_seen, last_seen, last_run)
                SELECT \(source.rawValue), batch.id, batch.json, \(seen), \(seen), \(run)
                FROM unnest(\(inserts.ids)::text[], \(inserts.json)::text[]) WITH ORDINALITY
                    AS batch(id, json, position)
                ORDER BY batch.position
                """,
                logger: logger
            )
        }
        if !updateOrder.isEmpty {
            let json = updateOrder.map { updates[$0] ?? "" }
            try await connection.query(
                """
                UPDATE item SET json = batch.json, last_seen = \(seen), last_run = \(run)
                FROM unnest(\(updateOrder)::text[], \(json)::text[]) AS batch(id, json)
                WHERE item.source = \(source.rawValue) AND item.id = batch.id
                """,
                logger: logger
            )
        }
        return changes
    }

    public func items() async throws -> [StoredItem] {
        try await storedItems("SELECT source, json, first_seen, last_seen FROM item ORDER BY seq")
    }

    public func items(_ keys: [ItemKey]) async throws -> [StoredItem] {
        guard !keys.isEmpty else { return [] }
        let sources = keys.map(\.source.rawValue)
        let ids = keys.map(\.id)
        // One query for the batch, joined on the (source, id) key and returned in the order asked.
        return try await storedItems(
            """
            SELECT item.source, item.json, item.first_seen, item.last_seen
            FROM unnest(\(sources)::text[], \(ids)::text[]) WITH ORDINALITY AS wanted(source, id, place)
            JOIN item ON item.source = wanted.source AND item.id = wanted.id
            ORDER BY wanted.place
            """
        )
    }

    public func currentItems(from source: SourceID) async throws -> [StoredItem] {
        try await storedItems(
            """
            SELECT source, json, first_seen, last_seen FROM item
            WHERE source = \(source.rawValue) AND is_current ORDER BY seq
            """
        )
    }

    public func checkpoint(for source: SourceID) async throws -> SourceCheckpoint {
        try await read { connection, logger in
            let rows = try await connection.query(
                "SELECT json FROM checkpoint WHERE source = \(source.rawValue)",
                logger: logger
            )
            for try await json in rows.decode(String.self) { return try SourceCheckpoint(storedJSON: json) }
            return SourceCheckpoint()
        }
    }

    public func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) async throws {
        let json = try checkpoint.storedJSON
        let now = Date().timeIntervalSince1970
        try await write { connection, logger in
            _ = try await connection.query(
                """
                INSERT INTO checkpoint (source, json, saved_at) VALUES (\(source.rawValue), \(json), \(now))
                ON CONFLICT (source) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at
                """,
                logger: logger
            )
        }
    }

    public func lastDigestDate() async throws -> Date? {
        try await read { connection, logger in
            let rows = try await connection.query("SELECT MAX(made_at) FROM digest", logger: logger)
            for try await madeAt in rows.decode(Double?.self) {
                return madeAt.map(Date.init(timeIntervalSince1970:))
            }
            return nil
        }
    }

    public func recordDigest(at date: Date) async throws {
        let madeAt = date.timeIntervalSince1970
        try await write { connection, logger in
            _ = try await connection.query("INSERT INTO digest (made_at) VALUES (\(madeAt))", logger: logger)
        }
    }

    // MARK: - StateStore

    public func checkpoints() async throws -> [SourceID: SourceCheckpoint] {
        try await read { connection, logger in
            var result: [SourceID: SourceCheckpoint] = [:]
            let rows = try await connection.query("SELECT source, json FROM checkpoint", logger: logger)
            for try await (source, json) in rows.decode((String, String).self) {
                result[SourceID(source)] = try SourceCheckpoint(storedJSON: json)
            }
            return result
        }
    }

    public func health(for source: SourceID) async throws -> SourceHealth {
        try await healthRecords(of: source)[source] ?? SourceHealth()
    }

    public func allHealth() async throws -> [SourceID: SourceHealth] {
        try await healthRecords(of: nil)
    }

    @discardableResult
    public func recordOutcomes(
        _ reports: [SourceHealth.Report],
        at date: Date,
        policy: RetryPolicy = RetryPolicy()
    ) async throws -> [SourceID: SourceHealth] {
        guard !reports.isEmpty else { return [:] }
        let run = try await currentRun(at: date)
        let current = try await healthRecords(of: reports.count == 1 ? reports[0].source : nil)
        let (health, writes) = Self.recording(reports, over: current, at: date, policy: policy)
        guard !writes.isEmpty else { return health }
        try await write { connection, logger in
            for (report, record) in writes {
                let source = report.source.rawValue
                try await connection.query(
                    """
                    INSERT INTO health (source, last_attempt, last_success, consecutive_failures, last_error, next_retry,
                        entry)
                    VALUES (\(source), \(record.lastAttempt?.timeIntervalSince1970),
                        \(record.lastSuccess?.timeIntervalSince1970), \(record.consecutiveFailures), \(record.lastError),
                        \(record.nextRetry?.timeIntervalSince1970), \(record.entry))
                    ON CONFLICT (source) DO UPDATE SET last_attempt = excluded.last_attempt,
                        last_success = excluded.last_success, consecutive_failures = excluded.consecutive_failures,
                        last_error = excluded.last_error, next_retry = excluded.next_retry, entry = excluded.entry
                    """,
                    logger: logger
                )
                if report.outcome == .succeeded {
                    try await connection.query(
                        """
                        UPDATE item SET is_current = (last_run = \(run))
                        WHERE source = \(source) AND is_current <> (last_run = \(run))
                        """,
                        logger: logger
                    )
                }
            }
        }
        return health
    }

    @discardableResult
    public func prune(notSeenSince cutoff: Date) async throws -> Int {
        let seconds = cutoff.timeIntervalSince1970
        return try await write { connection, logger in
            let rows = try await connection.query(
                "DELETE FROM item WHERE last_seen < \(seconds) AND NOT is_current RETURNING seq",
                logger: logger
            )
            var deleted = 0
            for try await _ in rows.decode(Int64.self) { deleted += 1 }
            try await connection.query(
                "DELETE FROM digest WHERE made_at < \(seconds) AND id <> (SELECT MAX(id) FROM digest)",
                logger: logger
            )
            return deleted
        }
    }

    // MARK: - Private

    /// This store's run, recorded on first use.
    private func currentRun(at date: Date) async throws -> Int64 {
        if let runID { return runID }
        let startedAt = date.timeIntervalSince1970
        let id = try await write { connection, logger in
            let rows = try await connection.query(
                "INSERT INTO run (started_at) VALUES (\(startedAt)) RETURNING id",
                logger: logger
            )
            for try await id in rows.decode(Int64.self) { return id }
            throw PostgresStoreError(database: "\(location)", reason: .storage(detail: "a new run got no id"))
        }
        runID = id
        return id
    }

    private func healthRecords(of source: SourceID?) async throws -> [SourceID: SourceHealth] {
        try await read { connection, logger in
            let query: PostgresQuery =
                if let source {
                    """
                    SELECT source, last_attempt, last_success, consecutive_failures, last_error, next_retry, entry
                    FROM health WHERE source = \(source.rawValue)
                    """
                } else {
                    """
                    SELECT source, last_attempt, last_success, consecutive_failures, last_error, next_retry, entry
                    FROM health
                    """
                }
            var result: [SourceID: SourceHealth] = [:]
            let rows = try await connection.query(query, logger: logger)
            for try await (source, lastAttempt, lastSuccess, failures, lastError, nextRetry, entry) in rows.decode(
                (String, Double?, Double?, Int, String?, Double?, String?).self
            ) {
                result[SourceID(source)] = SourceHealth(
                    lastAttempt: lastAttempt.map(Date.init(timeIntervalSince1970:)),
                    lastSuccess: lastSuccess.map(Date.init(timeIntervalSince1970:)),
                    consecutiveFailures: failures,
                    lastError: lastError,
                    nextRetry: nextRetry.map(Date.init(timeIntervalSince1970:)),
                    entry: entry
                )
            }
            return result
        }
    }

    /// The items a query selects, decoded once the connection is back in the pool.
    private func storedItems(_ query: PostgresQuery) async throws -> [StoredItem] {
        let rows = try await read { connection, logger in
            var result: [StoredItem.Row] = []
            let rows = try await connection.query(query, logger: logger)
            for try await (source, json, firstSeen, lastSeen) in rows.decode((String, String, Double, Double).self) {
                result.append(
                    StoredItem.Row(
                        json: json,
                        sourceID: SourceID(source),
                        firstSeen: Date(timeIntervalSince1970: firstSeen),
                        lastSeen: Date(timeIntervalSince1970: lastSeen)
                    )
                )
            }
            return result
        }
        return try await StoredItem.decoded(rows)
    }

    /// Runs `body` in one transaction: all of it is committed, or none.
    func write<T: Sendable>(
        _ body: (PostgresConnection, Logger) async throws -> sending T
    ) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(connection, logger)
            }
        } catch let error as PostgresStoreError {
            throw error
        } catch let error as PostgresTransactionError {
            throw failure(error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error)
        } catch {
            throw failure(error)
        }
    }

    func read<T: Sendable>(_ body: (PostgresConnection, Logger) async throws -> sending T) async throws -> T {
        do {
            return try await client.withConnection { connection in try await body(connection, logger) }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> PostgresStoreError {
        PostgresStoreError(database: "\(location)", reason: .storage(detail: Self.words(for: error, location)))
    }

    // MARK: - Connecting

    private static func connect(
        _ location: PostgresLocation,
        password: String?,
        logger: Logger
    ) async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(
                configuration: connectionConfiguration(location, password: password),
                id: 0,
                logger: logger
            )
        } catch {
            throw PostgresStoreError(
                database: "\(location)",
                reason: .cannotConnect(detail: words(for: error, location, password: password))
            )
        }
    }

    private static func takeRunLock(
        on connection: PostgresConnection,
        location: PostgresLocation,
        timeout: Duration,
        logger: Logger
    ) async throws {
        let clock = ContinuousClock()
        let giveUp = clock.now + timeout
        while true {
            let rows = try await connection.query("SELECT pg_try_advisory_lock(\(runLockKey))", logger: logger)
            var taken = false
            for try await granted in rows.decode(Bool.self) { taken = granted }
            if taken { return }
            guard clock.now < giveUp else {
                throw PostgresStoreError(database: "\(location)", reason: .busy(waited: timeout))
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    private static func tls(_ location: PostgresLocation) throws -> PostgresConnection.Configuration.TLS {
        switch location.tls {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    private static func connectionConfiguration(
        _ location: PostgresLocation,
        password: String?
    ) throws -> PostgresConnection.Configuration {
        if let directory = location.socketDirectory {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(directory)/.s.PGSQL.\(location.port)",
                username: location.user,
                password: password,
                database: location.database
            )
        }
        return PostgresConnection.Configuration(
            host: location.host,
            port: location.port,
            username: location.user,
            password: password,
            database: location.database,
            tls: try tls(location)
        )
    }

    private static func clientConfiguration(
        _ location: PostgresLocation,
        password: String?
    ) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let directory = location.socketDirectory {
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(directory)/.s.PGSQL.\(location.port)",
                username: location.user,
                password: password,
                database: location.database
            )
        } else {
            let tls: PostgresClient.Configuration.TLS =
                switch location.tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            configuration = PostgresClient.Configuration(
                host: location.host,
                port: location.port,
                username: location.user,
                password: password,
                database: location.database,
                tls: tls
            )
        }
        configuration.options.maximumConnections = 8
        return configuration
    }

    /// An error of postgres-nio or the network, in words: the server's own message for what the server said, the
    /// network failure for what never reached it.
    static func words(for error: any Error, _ location: PostgresLocation, password: String? = nil) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState]
                if state == "28P01" || state == "28000" {
                    return "the server refused the login of \(location.user): \(message); "
                        + (password == nil
                            ? "set PGPASSWORD or add a line to ~/.pgpass"
                            : "check the password in PGPASSWORD or ~/.pgpass")
                }
                if state == "3D000" {
                    return "\(message); create it (createdb \(location.database)) or name another in the URL"
                }
                return message
            }
            if let underlying = error.underlying {
                // A connection closed by the server carries the server's own error (its reason) underneath.
                if underlying is PSQLError { return words(for: underlying, location, password: password) }
                return NetworkFailure.describe(underlying, host: location.host, port: location.port)
                    ?? "\(underlying)"
            }
            switch error.code {
            case .authMechanismRequiresPassword:
                return "the server wants a password for \(location.user); set PGPASSWORD or add a line to ~/.pgpass"
            case .sslUnsupported:
                return "the server does not offer TLS; add ?sslmode=prefer or ?sslmode=disable to the URL"
            case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
                return "the connection to the server was lost"
            default:
                return "PostgreSQL error (\(error.code))"
            }
        }
        if let described = NetworkFailure.describe(error, host: location.host, port: location.port) {
            return described
        }
        return "\(error)"
    }
}
