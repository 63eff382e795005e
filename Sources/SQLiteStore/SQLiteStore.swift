public import Foundation
import GRDB
import GRDBSQLite
public import TributaryCore

/// The persistent ``ItemStore``: one SQLite file (by default `.tributary/state.sqlite` beside feeds.json) holding
/// items with their first- and last-seen times, each source's checkpoint (HTTP validators, push cursors), each
/// source's health across runs, and the time of every digest.
///
/// - Schema versions: GRDB's `DatabaseMigrator` applies the migrations of ``StoreSchema`` on open. A file written
///   by a newer Tributary (migrations this version does not know, or a higher `user_version`) is refused with
///   ``SQLiteStoreError`` before anything is written.
/// - Durability: WAL journal, a busy timeout, and every write in one `BEGIN IMMEDIATE` transaction, so a crash
///   loses at most the write in flight and never corrupts the file.
/// - Runs: ``open(at:runLockTimeout:busyTimeout:)`` can take a ``RunLock`` so that two runs on one store take
///   turns. Each store instance is one run: items it saves are stamped with its run, and
///   ``recordOutcome(_:for:at:policy:)`` with `.succeeded` makes exactly those the source's current items (what
///   ``currentItems(from:)`` serves on `notModified`); a failed run leaves the previous set as it was. The items of
///   a source with no current items are saved current at once (a first run then marks nothing at its end) and
///   unmarked if it fails; a run that ends without recording outcomes (killed) leaves them current.
public actor SQLiteStore: StateStore {
    /// The database file.
    public nonisolated let url: URL
    private let database: DatabaseQueue
    private var lock: RunLock?
    private var runID: Int64?
    /// Whether each source this run saved items of had current items before: the items of a source that had none
    /// are saved current at once, since this run's success would make them so (marking 50,000 rows at the end of a
    /// first run rewrote the whole file in one transaction), and its failure takes them back.
    private var hadCurrentItems: [SourceID: Bool] = [:]

    private init(url: URL, database: DatabaseQueue, lock: RunLock?) {
        self.url = url
        self.database = database
        self.lock = lock
    }

    /// Opens (creating it and its directory when missing) and migrates the store at `url`.
    /// - Parameters:
    ///   - url: the SQLite file.
    ///   - runLockTimeout: when set, first takes the exclusive ``RunLock`` (`<file>.lock`), waiting this long for
    ///     another run to finish; `nil` takes no run lock (SQLite's own locking still keeps every write whole).
    ///   - busyTimeout: how long one statement waits for another process's write to finish.
    /// - Throws: ``SQLiteStoreError``: `.newerVersion` (nothing changed), `.busy`, `.cannotOpen`.
    public static func open(
        at url: URL,
        runLockTimeout: Duration? = nil,
        busyTimeout: Duration = .seconds(30)
    ) async throws -> SQLiteStore {
        let path = url.path
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
        } catch {
            throw SQLiteStoreError(path: path, reason: .cannotOpen(detail: "\(error.localizedDescription)"))
        }
        var lock: RunLock?
        if let runLockTimeout {
            lock = try await RunLock.acquire(
                url.appendingPathExtension("lock"),
                storePath: path,
                timeout: runLockTimeout
            )
        }
        if FileManager.default.fileExists(atPath: path) {
            try checkVersion(of: path, busyTimeout: busyTimeout)
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(busyTimeout.timeInterval)
        configuration.label = "tributary.state"
        // WAL with NORMAL sync: a crash of the process never loses a committed transaction; only a power loss may
        // lose the last ones, and never corrupts the file.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try StoreSchema.migrator.migrate(database)
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: path, reason: .cannotOpen(detail: Self.detail(of: error)))
        }
        return SQLiteStore(url: url, database: database, lock: lock)
    }

    /// Closes the database and lets go of the run lock. The store must not be used afterwards.
    public func close() throws {
        defer { lock = nil }
        try database.close()
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
        let known = hadCurrentItems
        let (changes, found) = try await write { db in
            var hadCurrent = known
            let anyCurrent = try db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM item WHERE source = ? AND is_current = 1)"
            )
            let changes = try batches.map { batch in
                if hadCurrent[batch.source] == nil {
                    hadCurrent[batch.source] =
                        try Bool.fetchOne(anyCurrent, arguments: [batch.source.rawValue]) ?? false
                }
                return try Self.save(batch, run: run, current: hadCurrent[batch.source] == false, in: db)
            }
            return (changes, hadCurrent)
        }
        hadCurrentItems.merge(found) { first, _ in first }
        return changes
    }

    /// Writes one batch: a new key is inserted (marked current when `current`), a known one keeps its first-seen
    /// time and gets the new content. The items of a source with no current items (`current`) are mostly new: each
    /// is inserted straight away and looked up only when its key was there (a cold run of 50,000 items looked every
    /// one up first for nothing).
    private static func save(_ batch: SaveBatch, run: Int64, current: Bool, in db: Database) throws -> StoreChanges {
        let (source, date) = (batch.source, batch.date)
        var changes = StoreChanges()
        // Prepared once for the batch (preparing each time cost more than the writes: GRDB authorises every
        // statement it prepares).
        let select = try db.cachedStatement(sql: "SELECT json, first_seen FROM item WHERE source = ? AND id = ?")
        let update = try db.cachedStatement(
            sql: "UPDATE item SET json = ?, last_seen = ?, last_run = ? WHERE source = ? AND id = ?"
        )
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO item (source, id, json, first_seen, last_seen, last_run, is_current)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, id) DO NOTHING
                """
        )
        // Inserts are bound and stepped through SQLite's own functions: GRDB's arguments (an array of existentials,
        // each asked for its conformances at run time) and its bookkeeping around each step cost a third as much as
        // SQLite's own insert into the table and its indexes.
        let statement = insert.sqliteStatement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        /// Inserts the item as first seen now (current when `current`); `false` when its key was there already.
        func insertNew(_ item: FeedItem) throws -> Bool {
            let stamped = StoredItem.stamped(item, firstSeen: date)
            let seconds = date.timeIntervalSince1970
            sqlite3_reset(statement)
            guard Self.bind(source.rawValue, at: 1, in: statement) == SQLITE_OK,
                Self.bind(item.id, at: 2, in: statement) == SQLITE_OK,
                Self.bind(StoredItem.storedJSON(stamped), at: 3, in: statement) == SQLITE_OK,
                sqlite3_bind_double(statement, 4, seconds) == SQLITE_OK,
                sqlite3_bind_double(statement, 5, seconds) == SQLITE_OK,
                sqlite3_bind_int64(statement, 6, run) == SQLITE_OK,
                sqlite3_bind_int(statement, 7, current ? 1 : 0) == SQLITE_OK,
                sqlite3_step(statement) == SQLITE_DONE
            else { throw Self.lastError(of: db, sql: insert.sql) }
            guard sqlite3_changes(db.sqliteConnection) == 1 else { return false }
            changes.inserted.append(StoredItem(item: stamped, sourceID: source, firstSeen: date, lastSeen: date))
            return true
        }
        for item in batch.items {
            if current, try insertNew(item) { continue }
            if let existing = try Row.fetchOne(select, arguments: [source.rawValue, item.id]) {
                // Columns by position: json, first_seen.
                let firstSeen = Date(timeIntervalSince1970: existing[1])
                let stamped = StoredItem.stamped(item, firstSeen: firstSeen)
                let json = StoredItem.storedJSON(stamped)
                let oldJSON: String = existing[0]
                try update.execute(arguments: [json, date.timeIntervalSince1970, run, source.rawValue, item.id])
                let stored = StoredItem(item: stamped, sourceID: source, firstSeen: firstSeen, lastSeen: date)
                if json == oldJSON {
                    changes.unchanged.append(stored)
                } else {
                    changes.updated.append(stored)
                }
            } else {
                _ = try insertNew(item)
            }
        }
        return changes
    }

    public func items() async throws -> [StoredItem] {
        try await storedItems(sql: "SELECT json, source, first_seen, last_seen FROM item ORDER BY seq", arguments: [])
    }

    /// The items the source's last successful run delivered, in the order first inserted; after a failed run the
    /// set is still that of the last success.
    public func items(_ keys: [ItemKey]) async throws -> [StoredItem] {
        let rows = try await read { db in
            // One prepared statement for the batch, each key looked up through the (source, id) index, stepped
            // through SQLite's own functions: GRDB's cursor and row for each key were most of the cost (23,000
            // instructions a row against SQLite's own 4,000; a 1,000-feed digest reads 50,000).
            let select = try db.cachedStatement(
                sql: "SELECT json, first_seen, last_seen FROM item WHERE source = ? AND id = ?"
            )
            let statement = select.sqliteStatement
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            var found: [StoredItem.Row] = []
            found.reserveCapacity(keys.count)
            for key in keys {
                sqlite3_reset(statement)
                guard Self.bind(key.source.rawValue, at: 1, in: statement) == SQLITE_OK,
                    Self.bind(key.id, at: 2, in: statement) == SQLITE_OK
                else { throw Self.lastError(of: db, sql: select.sql) }
                switch sqlite3_step(statement) {
                case SQLITE_ROW:
                    let bytes = sqlite3_column_text(statement, 0)
                    let count = Int(sqlite3_column_bytes(statement, 0))
                    found.append(
                        StoredItem.Row(
                            json: bytes.map {
                                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                            }
                                ?? "",
                            sourceID: key.source,
                            firstSeen: Date(timeIntervalSince1970: sqlite3_column_double(statement, 1)),
                            lastSeen: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2))
                        )
                    )
                case SQLITE_DONE:
                    continue
                default:
                    throw Self.lastError(of: db, sql: select.sql)
                }
            }
            return found
        }
        // Decoded once the database is free again (a digest reads its next batch while it draws this one).
        return try await StoredItem.decoded(rows)
    }

    /// Binds `text` to parameter `index` of `statement` (SQLite copies it).
    private static func bind(_ text: String, at index: Int32, in statement: SQLiteStatement) -> Int32 {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_bind_text(statement, index, characters.baseAddress, Int32(characters.count), transient)
            }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies what is bound.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// The connection's last error, as GRDB reports SQLite's errors.
    private static func lastError(of db: Database, sql: String) -> DatabaseError {
        let code = sqlite3_extended_errcode(db.sqliteConnection)
        return DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) },
            sql: sql
        )
    }

    public func currentItems(from source: SourceID) async throws -> [StoredItem] {
        try await storedItems(
            sql:
                "SELECT json, source, first_seen, last_seen FROM item WHERE source = ? AND is_current = 1 ORDER BY seq",
            arguments: [source.rawValue]
        )
    }

    public func checkpoint(for source: SourceID) async throws -> SourceCheckpoint {
        try await read { db in
            guard
                let json = try String.fetchOne(
                    db,
                    sql: "SELECT json FROM checkpoint WHERE source = ?",
                    arguments: [source.rawValue]
                )
            else { return SourceCheckpoint() }
            return try SourceCheckpoint(storedJSON: json)
        }
    }

    public func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) async throws {
        try await saveCheckpoints([(source, checkpoint)])
    }

    /// Every checkpoint in one transaction.
    public func saveCheckpoints(_ checkpoints: [(source: SourceID, checkpoint: SourceCheckpoint)]) async throws {
        guard !checkpoints.isEmpty else { return }
        let rows = try checkpoints.map { ($0.source.rawValue, try $0.checkpoint.storedJSON) }
        let now = Date().timeIntervalSince1970
        try await write { db in
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO checkpoint (source, json, saved_at) VALUES (?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at
                    """
            )
            for (source, json) in rows { try upsert.execute(arguments: [source, json, now]) }
        }
    }

    public func lastDigestDate() async throws -> Date? {
        try await read { db in
            try Double.fetchOne(db, sql: "SELECT MAX(made_at) FROM digest").map { Date(timeIntervalSince1970: $0) }
        }
    }

    public func recordDigest(at date: Date) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO digest (made_at) VALUES (?)", arguments: [date.timeIntervalSince1970])
        }
    }

    // MARK: - Runs, health, retention

    /// Every source's checkpoint, for handing to the sources before they are made.
    public func checkpoints() async throws -> [SourceID: SourceCheckpoint] {
        try await read { db in
            var result: [SourceID: SourceCheckpoint] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT source, json FROM checkpoint") {
                let json: String = row["json"]
                result[SourceID(row["source"] as String)] = try SourceCheckpoint(storedJSON: json)
            }
            return result
        }
    }

    /// The source's health; a source without history gets the default.
    public func health(for source: SourceID) async throws -> SourceHealth {
        // One row, not every source's (this runs once per source per run: reading them all was quadratic).
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM health WHERE source = ?", arguments: [source.rawValue])
                .map(Self.health(from:)) ?? SourceHealth()
        }
    }

    /// Every recorded source's health.
    public func allHealth() async throws -> [SourceID: SourceHealth] {
        try await read { db in
            var result: [SourceID: SourceHealth] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM health") {
                result[SourceID(row["source"] as String)] = Self.health(from: row)
            }
            return result
        }
    }

    private static func health(from row: Row) -> SourceHealth {
        SourceHealth(
            lastAttempt: (row["last_attempt"] as Double?).map(Date.init(timeIntervalSince1970:)),
            lastSuccess: (row["last_success"] as Double?).map(Date.init(timeIntervalSince1970:)),
            consecutiveFailures: row["consecutive_failures"],
            lastError: row["last_error"],
            nextRetry: (row["next_retry"] as Double?).map(Date.init(timeIntervalSince1970:)),
            entry: row["entry"]
        )
    }

    @discardableResult
    public func recordOutcomes(
        _ reports: [SourceHealth.Report],
        at date: Date,
        policy: RetryPolicy = RetryPolicy()
    ) async throws -> [SourceID: SourceHealth] {
        guard !reports.isEmpty else { return [:] }
        let run = try await currentRun(at: date)
        let current =
            reports.count == 1
            ? [reports[0].source: try await health(for: reports[0].source)] : try await allHealth()
        let (health, writes) = Self.recording(reports, over: current, at: date, policy: policy)
        guard !writes.isEmpty else { return health }
        let savedCurrent = Set(hadCurrentItems.filter { !$0.value }.keys)
        try await write { db in
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO health (source, last_attempt, last_success, consecutive_failures, last_error, next_retry,
                        entry)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET last_attempt = excluded.last_attempt,
                        last_success = excluded.last_success, consecutive_failures = excluded.consecutive_failures,
                        last_error = excluded.last_error, next_retry = excluded.next_retry, entry = excluded.entry
                    """
            )
            // Only the rows whose mark changes are written.
            let markCurrent = try db.cachedStatement(
                sql: "UPDATE item SET is_current = (last_run = ?) WHERE source = ? AND is_current <> (last_run = ?)"
            )
            // A source that had no current items, whose items this run saved current, goes back to none.
            let unmark = try db.cachedStatement(
                sql: "UPDATE item SET is_current = 0 WHERE source = ? AND is_current = 1 AND last_run = ?"
            )
            for (report, record) in writes {
                try upsert.execute(arguments: [
                    report.source.rawValue, record.lastAttempt?.timeIntervalSince1970,
                    record.lastSuccess?.timeIntervalSince1970, record.consecutiveFailures, record.lastError,
                    record.nextRetry?.timeIntervalSince1970, record.entry,
                ])
                if report.outcome == .succeeded {
                    try markCurrent.execute(arguments: [run, report.source.rawValue, run])
                } else if case .failed = report.outcome, savedCurrent.contains(report.source) {
                    try unmark.execute(arguments: [report.source.rawValue, run])
                }
            }
        }
        return health
    }

    /// Deletes items no run has seen since `cutoff`, except each source's current items (a `notModified` may still
    /// serve them), and digest records older than `cutoff` except the newest.
    /// - Returns: how many items were deleted.
    @discardableResult
    public func prune(notSeenSince cutoff: Date) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM item WHERE last_seen < ? AND is_current = 0",
                arguments: [cutoff.timeIntervalSince1970]
            )
            let deleted = db.changesCount
            try db.execute(
                sql: "DELETE FROM digest WHERE made_at < ? AND id <> (SELECT MAX(id) FROM digest)",
                arguments: [cutoff.timeIntervalSince1970]
            )
            return deleted
        }
    }

    /// Runs `PRAGMA integrity_check` and returns its lines (`["ok"]` for a sound file).
    public func integrityCheck() async throws -> [String] {
        try await read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    // MARK: - Private

    /// This store's run, recorded on first use.
    private func currentRun(at date: Date) async throws -> Int64 {
        if let runID { return runID }
        let id = try await write { db in
            try db.execute(sql: "INSERT INTO run (started_at) VALUES (?)", arguments: [date.timeIntervalSince1970])
            return db.lastInsertedRowID
        }
        runID = id
        return id
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: it waits for other writers (the busy timeout) up front
    /// instead of failing half-way, and commits all of `body` or nothing.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw RolledBack() }
                return result
            }
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: url.path, reason: .storage(detail: Self.detail(of: error)))
        } catch is RolledBack {
            throw SQLiteStoreError(path: url.path, reason: .storage(detail: "the transaction was rolled back"))
        }
    }

    /// A transaction that ended without its result (it cannot: every transaction here commits).
    private struct RolledBack: Error {}

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(body)
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: url.path, reason: .storage(detail: Self.detail(of: error)))
        }
    }

    /// Refuses a file written by a newer version, reading it without changing anything.
    private static func checkVersion(of path: String, busyTimeout: Duration) throws {
        // Not `readonly`: a read-only connection to a WAL file leaves `-wal` and `-shm` files behind. A writable
        // connection that SQLite forbids to write (`query_only`) removes them when it closes, as the last one.
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        configuration.busyMode = .timeout(busyTimeout.timeInterval)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            let (unknown, userVersion) = try database.read { db in
                let migrator = StoreSchema.migrator
                let known = Set(migrator.migrations)
                let applied = try migrator.appliedIdentifiers(db)
                let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                return (applied.subtracting(known).sorted(), userVersion)
            }
            if !unknown.isEmpty || userVersion > StoreSchema.userVersion {
                throw SQLiteStoreError(
                    path: path,
                    reason: .newerVersion(
                        unknownMigrations: unknown,
                        userVersion: userVersion,
                        supportedVersion: StoreSchema.userVersion
                    )
                )
            }
        } catch let error as DatabaseError {
            throw SQLiteStoreError(path: path, reason: .cannotOpen(detail: detail(of: error)))
        }
    }

    /// The items a query selects, decoded once the database is free again.
    /// The items a query selects (`json, source, first_seen, last_seen`, in that order), decoded once the database
    /// is free again. Columns are read by position: GRDB matches a name case-insensitively against every column, for
    /// every row (a warm run reads every stored item).
    private func storedItems(sql: String, arguments: StatementArguments) async throws -> [StoredItem] {
        let rows = try await read { db in
            var rows: [StoredItem.Row] = []
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try cursor.next() {
                rows.append(
                    StoredItem.Row(
                        json: row[0],
                        sourceID: SourceID(row[1] as String),
                        firstSeen: Date(timeIntervalSince1970: row[2]),
                        lastSeen: Date(timeIntervalSince1970: row[3])
                    )
                )
            }
            return rows
        }
        return try await StoredItem.decoded(rows)
    }

    private static func detail(of error: DatabaseError) -> String {
        error.message ?? "SQLite error \(error.resultCode.rawValue)"
    }

}
