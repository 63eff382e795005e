public import TributaryCore

/// Why a ``PostgresStore`` could not be opened or used. The description names the database (never a password),
/// what is wrong and the fix.
public struct PostgresStoreError: StateStoreError, Sendable, Equatable {
    /// The database, as `postgres://user@host:port/database`.
    public var database: String
    /// What is wrong.
    public var reason: Reason

    public enum Reason: Sendable, Equatable {
        /// The `--store` or feeds.json `store` URL cannot be used.
        case invalidURL(String)
        /// No connection could be made, or the server refused the login.
        case cannotConnect(detail: String)
        /// The database was set up by a newer Tributary: it records migrations this version does not know.
        case newerVersion(unknownMigrations: [String])
        /// Another run holds the store and did not finish within the wait.
        case busy(waited: Duration)
        /// A read or write failed.
        case storage(detail: String)
    }

    public init(database: String, reason: Reason) {
        self.database = database
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .invalidURL(let problem):
            return "the store \(database) \(problem)"
        case .cannotConnect(let detail):
            return "cannot use the store \(database): \(detail)"
        case .newerVersion(let unknown):
            return
                "the store \(database) was set up by a newer Tributary (it has the migrations \(unknown.joined(separator: ", ")), which this version does not know); upgrade tributary, or use another database. Nothing was changed."
        case .busy(let waited):
            return
                "\(database): another tributary run is using the state store and did not finish within \(DurationFormat.string(waited)). Try again when it has finished, or raise --state-timeout."
        case .storage(let detail):
            return "the store \(database) failed: \(detail)"
        }
    }
}
