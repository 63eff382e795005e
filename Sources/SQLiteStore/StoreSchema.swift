import GRDB

/// The store's tables and their versions: one GRDB migration per schema change, never edited once released.
///
/// Every migration ends by setting `PRAGMA user_version` to its number, so that a reader that does not know
/// GRDB's migration table still sees how new a file is. Times are `REAL` seconds since 1970 (exact `Date`s).
enum StoreSchema {
    /// The `user_version` the newest migration sets.
    static let userVersion = 2

    /// The migrator with every migration, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-items-checkpoints-health-digests") { db in
            // `seq` keeps the order items were first inserted; `last_run` is the run that last saved the item and
            // `is_current` marks the items the source's last successful run delivered (what a 304 serves).
            try db.execute(
                sql: """
                    CREATE TABLE item (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        source TEXT NOT NULL,
                        id TEXT NOT NULL,
                        json TEXT NOT NULL,
                        first_seen REAL NOT NULL,
                        last_seen REAL NOT NULL,
                        last_run INTEGER NOT NULL,
                        is_current INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (source, id)
                    );
                    CREATE INDEX item_last_seen ON item (last_seen);
                    CREATE TABLE run (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        started_at REAL NOT NULL
                    );
                    CREATE TABLE checkpoint (
                        source TEXT PRIMARY KEY NOT NULL,
                        json TEXT NOT NULL,
                        saved_at REAL NOT NULL
                    );
                    CREATE TABLE health (
                        source TEXT PRIMARY KEY NOT NULL,
                        last_attempt REAL,
                        last_success REAL,
                        consecutive_failures INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        next_retry REAL
                    );
                    CREATE TABLE digest (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        made_at REAL NOT NULL
                    );
                    PRAGMA user_version = 1;
                    """
            )
        }
        // The feeds.json entry (its fingerprint) each health record was made under: a source whose entry changed
        // since its failures starts with a clean slate instead of backing off.
        migrator.registerMigration("v2-health-entry") { db in
            try db.execute(sql: "ALTER TABLE health ADD COLUMN entry TEXT; PRAGMA user_version = 2;")
        }
        return migrator
    }
}
