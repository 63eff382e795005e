public import Foundation
import Logging
import PostgresNIO
import PostgresStore
import SQLiteStore
public import Testing
public import TributaryCore

/// The stores every test body of this target runs against: one test, every store (as Hummingbird runs one test
/// against several servers).
///
/// PostgreSQL needs a server: `TRIBUTARY_TEST_POSTGRES` names one (`scripts/check.sh` starts a throwaway cluster
/// and sets it). Without it the PostgreSQL cases are left out with a message, except in CI, where they run and
/// fail.
public enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    public var testDescription: String { rawValue }

    /// The server's URL for the PostgreSQL cases.
    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["TRIBUTARY_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The stores to test here.
    public static let available: [StoreKind] = {
        if postgresURL != nil || ProcessInfo.processInfo.environment["CI"] == "true" { return allCases }
        FileHandle.standardError.write(
            Data(
                "StateStoreTests: TRIBUTARY_TEST_POSTGRES is not set, so only the SQLite store is tested; scripts/check.sh starts a PostgreSQL server for these tests\n"
                    .utf8
            )
        )
        return [.sqlite]
    }()
}

/// One store of one kind for one test: a fresh SQLite file in a temporary directory, or a fresh database on the
/// test server. ``open(runLockTimeout:)`` opens it (again); ``remove()`` deletes it.
public struct StoreUnderTest: Sendable {
    public let kind: StoreKind
    public let directory: URL
    public let databaseName: String

    public init(_ kind: StoreKind) async throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databaseName = "tributary_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        if kind == .postgres { try await Self.administer("CREATE DATABASE \(databaseName)") }
    }

    /// Where the store lives, as `--store` takes it.
    public var location: String {
        switch kind {
        case .sqlite: directory.appendingPathComponent("state.sqlite").path
        case .postgres: Self.serverURL(database: databaseName)
        }
    }

    public func open(runLockTimeout: Duration? = nil) async throws -> any StateStore {
        switch kind {
        case .sqlite:
            return try await SQLiteStore.open(
                at: directory.appendingPathComponent("state.sqlite"),
                runLockTimeout: runLockTimeout
            )
        case .postgres:
            return try await PostgresStore.open(PostgresLocation(url: location), runLockTimeout: runLockTimeout)
        }
    }

    /// Runs `body` with a fresh store, closes it and removes everything.
    public static func with<T>(_ kind: StoreKind, _ body: (StoreUnderTest) async throws -> T) async throws -> T {
        let store = try await StoreUnderTest(kind)
        do {
            let result = try await body(store)
            try await store.remove()
            return result
        } catch {
            try? await store.remove()
            throw error
        }
    }

    public func remove() async throws {
        try? FileManager.default.removeItem(at: directory)
        if kind == .postgres { try await Self.administer("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)") }
    }

    /// Runs one statement on the test server's own database (or on `database`); returns the first column of its
    /// first row when that is a number.
    @discardableResult
    public static func administer(_ sql: String, database: String? = nil) async throws -> Int? {
        let server = try PostgresLocation(
            url: try #require(StoreKind.postgresURL, "TRIBUTARY_TEST_POSTGRES is not set")
        )
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: server.host,
                port: server.port,
                username: server.user,
                password: server.password(),
                database: database ?? server.database,
                tls: .disable
            ),
            id: 1,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test"))
            var first: Int?
            for try await row in rows where first == nil {
                first = try? row.decode(Int.self)
            }
            try await connection.close()
            return first
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The test server's URL with another database.
    public static func serverURL(database: String) -> String {
        guard let url = StoreKind.postgresURL, var components = URLComponents(string: url) else { return "" }
        components.path = "/" + database
        return components.string ?? url
    }
}
