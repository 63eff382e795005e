import Foundation
import PostgresStore
import TestSupport
import Testing
import TributaryCore

@Suite struct PostgresLocationTests {
    @Test func readsUserHostPortDatabaseAndTLS() throws {
        let remote = try PostgresLocation(url: "postgres://news@db.example.org:6543/wire?sslmode=require")
        #expect(remote.user == "news")
        #expect(remote.host == "db.example.org")
        #expect(remote.port == 6543)
        #expect(remote.database == "wire")
        #expect(remote.tls == .require)
        #expect(remote.description == "postgres://news@db.example.org:6543/wire")
        // A remote server is asked for TLS by default, a local one is not; the database defaults to the user.
        #expect(try PostgresLocation(url: "postgresql://news@db.example.org").tls == .prefer)
        let local = try PostgresLocation(url: "postgres://news@127.0.0.1")
        #expect(local.tls == .disable)
        #expect(local.port == 5432)
        #expect(local.database == "news")
        let socket = try PostgresLocation(url: "postgres://news@/wire?host=/run/postgresql")
        #expect(socket.socketDirectory == "/run/postgresql")
        #expect(socket.tls == .disable)
    }

    @Test(arguments: [
        ("postgres://news:secret@db.example.org/wire", "PGPASSWORD or ~/.pgpass"),
        ("postgres://news@db.example.org/wire?sslmode=maybe", "sslmode=maybe"),
        ("postgres://news@db.example.org/wire?pool=3", "\"pool\""),
        ("postgres://news@db.example.org:0/wire", "port 0"),
    ])
    func refusesWhatCannotBeUsedInWords(_ url: String, _ message: String) {
        let error = #expect(throws: PostgresStoreError.self) { try PostgresLocation(url: url) }
        #expect(error?.description.contains(message) == true, "\(error.map { "\($0)" } ?? "")")
        // The password never appears in a message.
        #expect(error?.description.contains("secret") == false)
    }

    @Test func thePasswordComesFromPGPASSWORDThenThePasswordFile() throws {
        let location = try PostgresLocation(url: "postgres://news@db.example.org:5433/wire")
        #expect(location.password(environment: ["PGPASSWORD": "from-env", "PGPASSFILE": "/nonexistent"]) == "from-env")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        # host:port:database:user:password
        db.example.org:5432:wire:news:wrong-port
        other.example.org:*:*:news:wrong-host
        db.example.org:5433:*:news:pa\\:ss\\\\word
        *:*:*:*:fallback
        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(location.password(environment: ["PGPASSFILE": file.path]) == "pa:ss\\word")
        let other = try PostgresLocation(url: "postgres://reader@db.example.org/wire")
        #expect(other.password(environment: ["PGPASSFILE": file.path]) == "fallback")
        #expect(other.password(environment: ["PGPASSFILE": "/nonexistent"]) == nil)
    }

    @Test func feedsJSONRefusesAPasswordInTheStoreURL() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgconf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("feeds.json")
        try #"{ "store": "postgres://news:secret@db.example.org/wire", "sources": [] }"#.write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        let errors = #expect(throws: ConfigurationErrors.self) {
            try ConfigurationLoader.load(contentsOf: file, registry: SourceRegistry([]))
        }
        #expect(errors?.description.contains("leave the password out of feeds.json") == true)
        try #"{ "store": "postgres://news@db.example.org/wire", "sources": [] }"#.write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        let configuration = try ConfigurationLoader.load(contentsOf: file, registry: SourceRegistry([]))
        #expect(configuration.state == "postgres://news@db.example.org/wire")
    }
}
