import Foundation
public import TributaryCore

/// Why a ``SQLiteStore`` could not be opened or used. The description names the file, what is wrong and the fix.
public struct SQLiteStoreError: StateStoreError, Sendable {
    /// The store's file.
    public var path: String
    /// What is wrong.
    public var reason: Reason

    /// What went wrong with the store.
    public enum Reason: Sendable, Equatable {
        /// The file was written by a newer Tributary: it records schema migrations this version does not know, or a
        /// `user_version` above the newest this version writes.
        case newerVersion(unknownMigrations: [String], userVersion: Int, supportedVersion: Int)
        /// The file is not an SQLite database, or SQLite could not open it.
        case cannotOpen(detail: String)
        /// Another run holds the store and did not finish within the wait.
        case busy(waited: Duration)
        /// A read or write failed.
        case storage(detail: String)
    }

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .newerVersion(let unknown, let userVersion, let supported):
            let what =
                unknown.isEmpty
                ? "schema version \(userVersion) (this version knows up to \(supported))"
                : "schema migrations this version does not know (\(unknown.joined(separator: ", ")))"
            return "\(path): the state store was written by a newer version of Tributary: it has \(what). "
                + "Nothing was changed. Upgrade Tributary, or point --state at another file (or use --no-state)."
        case .cannotOpen(let detail):
            return "\(path): cannot open the state store: \(detail). Move the file away to start afresh, "
                + "point --state at another file, or use --no-state."
        case .busy(let waited):
            return "\(path): another tributary run is using the state store and did not finish within "
                + "\(Self.seconds(waited)) s. Try again when it has finished, or use --state with another file."
        case .storage(let detail):
            return "\(path): the state store failed: \(detail). Check the disk (space, permissions) and run again."
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? String(Int64(value)) : String(format: "%.1f", value)
    }
}
