public import Foundation
import TributaryCore

/// A PostgreSQL database named by a `postgres://` URL, as `--store` and feeds.json's `store` take it:
/// `postgres://user@host:port/database`, `postgresql://` too, with `?sslmode=disable|prefer|require` and
/// `?host=/run/postgresql` (a directory holding the server's Unix socket).
///
/// The password never comes from the URL (feeds.json is shared, and command lines are visible to every user of the
/// machine): it comes from `PGPASSWORD`, else from the password file (`PGPASSFILE`, else `~/.pgpass`), looked up
/// as libpq does.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// A directory holding the server's Unix socket (`.s.PGSQL.<port>`), instead of TCP to `host`.
    public var socketDirectory: String?
    public var user: String
    public var database: String
    public var tls: TLSMode

    /// How the connection uses TLS (libpq's `sslmode`).
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    /// Whether `text` is meant as a PostgreSQL URL (rather than a SQLite file path).
    public static func isPostgresURL(_ text: String) -> Bool {
        FeedsConfiguration.isDatabaseURL(text)
    }

    /// Reads a `postgres://` URL.
    /// - Throws: ``PostgresStoreError`` naming what is wrong with the URL and the fix.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func refuse(_ problem: String) -> PostgresStoreError {
            PostgresStoreError(database: Self.redacted(text), reason: .invalidURL(problem))
        }
        guard Self.isPostgresURL(text), let components = URLComponents(string: text) else {
            throw refuse("is not a URL such as postgres://tributary@db.example.org/tributary")
        }
        if components.password != nil {
            throw refuse(
                "holds a password; leave it out and put it in PGPASSWORD or ~/.pgpass (host:port:database:user:password)"
            )
        }
        var queryItems: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["sslmode", "host"].contains(item.name), let value = item.value, !value.isEmpty else {
                throw refuse("has the parameter \"\(item.name)\"; known are sslmode and host")
            }
            queryItems[item.name] = value
        }
        socketDirectory = queryItems["host"]
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? (socketDirectory == nil ? "localhost" : "")
        port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw refuse("has the port \(port), outside 1 to 65535") }
        let name =
            components.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"]
        guard let name, !name.isEmpty else {
            throw refuse(
                "names no user; write it before the host, e.g. postgres://tributary@\(components.host ?? "host")/"
            )
        }
        user = name
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        guard !database.contains("/") else { throw refuse("names the database \"\(database)\"; give one name") }
        switch queryItems["sslmode"] {
        case nil:
            // libpq prefers TLS; a server on this machine is reached without it, as libpq's default ends up doing.
            tls = socketDirectory != nil || Self.isLoopback(host) ? .disable : .prefer
        case let mode?:
            guard let parsed = TLSMode(rawValue: mode) else {
                throw refuse("has sslmode=\(mode); use disable, prefer or require")
            }
            tls = parsed
        }
    }

    /// `postgres://user@host:port/database`, never with a password: for messages.
    public var description: String {
        let place = socketDirectory.map { "[socket in \($0)]" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(place)/\(database)"
    }

    /// The password for this database: `PGPASSWORD`, else the first matching line of the password file.
    public func password(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        let file =
            environment["PGPASSFILE"]
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return Self.password(
            inPasswordFile: text,
            host: socketDirectory == nil ? host : "localhost",
            port: port,
            database: database,
            user: user
        )
    }

    /// The password of the first line of a `.pgpass` text that matches: `host:port:database:user:password`, `*`
    /// matching anything, `\:` and `\\` escaped, `#` starting a comment line.
    public static func password(
        inPasswordFile text: String,
        host: String,
        port: Int,
        database: String,
        user: String
    ) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":", fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The URL with any password replaced, for an error about the URL itself.
    private static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "the postgres URL"
    }
}
