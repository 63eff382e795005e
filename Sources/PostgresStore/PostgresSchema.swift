import Logging
import PostgresNIO

/// The shared store's tables and their versions: one migration per schema change, never edited once released,
/// recorded in `tributary_migration`. Times are `double precision` seconds since 1970 (exact `Date`s), as the
/// SQLite store's `REAL`.
enum PostgresSchema {
    /// Every migration, oldest first: an id and its statements.
    static let migrations: [(id: String, statements: [String])] = [
        (
            "v1-items-checkpoints-health-digests",
            [
                """
                CREATE TABLE item (
                    seq bigserial PRIMARY KEY,
                    source text NOT NULL,
                    id text NOT NULL,
                    json text NOT NULL,
                    first_seen double precision NOT NULL,
                    last_seen double precision NOT NULL,
                    last_run bigint NOT NULL,
                    is_current boolean NOT NULL DEFAULT false,
                    UNIQUE (source, id)
                )
                """,
                "CREATE INDEX item_last_seen ON item (last_seen)",
                "CREATE TABLE run (id bigserial PRIMARY KEY, started_at double precision NOT NULL)",
                """
                CREATE TABLE checkpoint (
                    source text PRIMARY KEY,
                    json text NOT NULL,
                    saved_at double precision NOT NULL
                )
                """,
                """
                CREATE TABLE health (
                    source text PRIMARY KEY,
                    last_attempt double precision,
                    last_success double precision,
                    consecutive_failures integer NOT NULL DEFAULT 0,
                    last_error text,
                    next_retry double precision,
                    entry text
                )
                """,
                "CREATE TABLE digest (id bigserial PRIMARY KEY, made_at double precision NOT NULL)",
            ]
        ),
        // The fleet's work queue: the feed list `sync` loaded, each source's next due time and lease, hosts that
        // asked to wait, and a log of fetches.
        (
            "v2-fleet",
            [
                """
                CREATE TABLE fleet_config (
                    id integer PRIMARY KEY CHECK (id = 1),
                    feeds_json text NOT NULL,
                    file text NOT NULL,
                    version bigint NOT NULL,
                    synced_at double precision NOT NULL
                )
                """,
                """
                CREATE TABLE fleet_source (
                    id text PRIMARY KEY,
                    fingerprint text NOT NULL,
                    host text,
                    enabled boolean NOT NULL,
                    next_due double precision NOT NULL,
                    lease_owner text,
                    lease_until double precision
                )
                """,
                "CREATE INDEX fleet_source_due ON fleet_source (next_due) WHERE enabled",
                "CREATE TABLE fleet_host (host text PRIMARY KEY, not_before double precision NOT NULL)",
                """
                CREATE TABLE fleet_fetch (
                    seq bigserial PRIMARY KEY,
                    source text NOT NULL,
                    worker text NOT NULL,
                    started double precision NOT NULL,
                    ended double precision NOT NULL,
                    outcome text NOT NULL
                )
                """,
            ]
        ),
        // Claims read the due sources in index order (no sort of every due row) and count the leases per host
        // from the leased rows alone (no scan of every source): measured by scripts/bench/fleet-scaling.sh.
        (
            "v3-fleet-claim-indexes",
            [
                "DROP INDEX fleet_source_due",
                "CREATE INDEX fleet_source_due ON fleet_source (next_due, id) WHERE enabled",
                "CREATE INDEX fleet_source_leased ON fleet_source (host) WHERE lease_until IS NOT NULL",
            ]
        ),
    ]

    /// Applies the migrations the database lacks, in one transaction under an advisory lock; refuses, changing
    /// nothing, a database with a migration this version does not know.
    static func migrate(on connection: PostgresConnection, location: PostgresLocation, logger: Logger) async throws {
        do {
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(PostgresStore.migrationLockKey))",
                    logger: logger
                )
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS tributary_migration (
                        id text PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """,
                    logger: logger
                )
                var applied: Set<String> = []
                let rows = try await connection.query("SELECT id FROM tributary_migration", logger: logger)
                for try await id in rows.decode(String.self) { applied.insert(id) }
                let known = Set(migrations.map(\.id))
                let unknown = applied.subtracting(known).sorted()
                guard unknown.isEmpty else {
                    throw PostgresStoreError(
                        database: "\(location)",
                        reason: .newerVersion(unknownMigrations: unknown)
                    )
                }
                for migration in migrations where !applied.contains(migration.id) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO tributary_migration (id) VALUES (\(migration.id))",
                        logger: logger
                    )
                }
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw PostgresStoreError(
                database: "\(location)",
                reason: .storage(detail: "setting up its tables failed: \(PostgresStore.words(for: error, location))")
            )
        }
    }
}
