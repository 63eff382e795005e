import Foundation
import Hummingbird
import NIOCore
import TestSupport
import Testing

/// A fleet of real `tributary worker` processes against a real PostgreSQL server and loopback HTTP servers
/// (issue 24): every item stored once, no feed fetched twice inside its interval, no host above its limit, a
/// worker killed mid-run whose sources the others finish once its leases expire, SIGTERM draining.
@Suite(.serialized, .enabled(if: StoreKind.available.contains(.postgres), "needs the PostgreSQL test server"))
struct FleetTests {
    /// What one loopback "host" saw: requests per path and the most requests it served at once.
    actor HostRecord {
        var requests: [String: Int] = [:]
        var inFlight = 0
        var mostInFlight = 0

        func begin(_ path: String) {
            requests[path, default: 0] += 1
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
        }

        func end() { inFlight -= 1 }
    }

    static let hosts = 5
    static let feedsPerHost = 60

    /// Runs `body` with `hosts` HTTP servers (each a host, by its port), every feed answering after `delay`.
    static func withHosts<T: Sendable>(
        delay: Duration,
        _ records: [HostRecord],
        _ body: ([Int]) async throws -> T
    ) async throws -> T {
        func serve(_ index: Int, _ ports: [Int]) async throws -> T {
            guard index < records.count else { return try await body(ports) }
            let record = records[index]
            let router = Router()
            router.get("/feed/:n") { request, context -> Response in
                let n = context.parameters.get("n") ?? "0"
                await record.begin(request.uri.path)
                try await Task.sleep(for: delay)
                await record.end()
                let body =
                    "<rss version=\"2.0\"><channel><title>Feed \(index)-\(n)</title>"
                    + "<item><title>A \(index)-\(n)</title><guid>a</guid><link>https://example.org/\(index)/\(n)/a</link></item>"
                    + "<item><title>B \(index)-\(n)</title><guid>b</guid><link>https://example.org/\(index)/\(n)/b</link></item>"
                    + "</channel></rss>"
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/rss+xml"],
                    body: .init(byteBuffer: ByteBuffer(string: body))
                )
            }
            return try await withTestServer(router) { port in try await serve(index + 1, ports + [port]) }
        }
        return try await serve(0, [])
    }

    /// feeds.json with `feedsPerHost` feeds on each port, fetched hourly, at most `perHost` at once per host.
    static func feedsJSON(ports: [Int], perHost: Int, timeout: String) -> String {
        var sources: [String] = []
        for (index, port) in ports.enumerated() {
            for n in 0..<feedsPerHost {
                sources.append(
                    #"{ "id": "h\#(index)-f\#(n)", "kind": "rss", "url": "http://127.0.0.1:\#(port)/feed/\#(n)", "interval": "1h", "timeout": "\#(timeout)" }"#
                )
            }
        }
        return #"{ "maxConnectionsPerHost": \#(perHost), "sources": [\#(sources.joined(separator: ",\n"))] }"#
    }

    /// Polls `query` until it returns `expected` or more, or `limit` passes; returns the last value.
    static func waitFor(
        _ query: String,
        database: String,
        toReach expected: Int,
        within limit: Duration
    ) async throws -> Int? {
        let clock = ContinuousClock()
        let end = clock.now + limit
        var value: Int?
        repeat {
            value = try await StoreUnderTest.administer(query, database: database)
            if let value, value >= expected { return value }
            try await Task.sleep(for: .milliseconds(200))
        } while clock.now < end
        return value
    }

    @Test func threeWorkersFetchEveryFeedOnceWithinEachHostsLimitAndDrainOnSIGTERM() async throws {
        let records = (0..<Self.hosts).map { _ in HostRecord() }
        let total = Self.hosts * Self.feedsPerHost
        try await StoreUnderTest.with(.postgres) { store in
            try await Self.withHosts(delay: .milliseconds(20), records) { ports in
                let workspace = try Workspace()
                try workspace.write("feeds.json", Self.feedsJSON(ports: ports, perHost: 2, timeout: "10s"))
                let sync = try TributaryProcess.run(["sync", "--store", store.location], in: workspace.url)
                #expect(sync.status == 0, "\(sync.standardError)")
                #expect(sync.standardOutput.contains("added \(total)"))

                let workers = try (0..<3).map { index in
                    try RunningTributary(
                        ["worker", "--store", store.location, "--concurrency", "6", "--poll", "100ms"],
                        in: workspace.url,
                        name: "worker\(index)"
                    )
                }
                let fetched = try await Self.waitFor(
                    "SELECT count(*)::int FROM fleet_fetch",
                    database: store.databaseName,
                    toReach: total,
                    within: .seconds(90)
                )
                // A little longer: a feed fetched twice would show now.
                try await Task.sleep(for: .milliseconds(500))
                for worker in workers { worker.send(SIGTERM) }
                for worker in workers {
                    let status = try await worker.wait(upTo: .seconds(30))
                    #expect(status == 0, "a worker did not drain and exit 0: \(worker.standardError)")
                }
                #expect(fetched == total)
                let items = try await StoreUnderTest.administer(
                    "SELECT count(*)::int FROM item",
                    database: store.databaseName
                )
                #expect(items == total * 2)
                let fetches = try await StoreUnderTest.administer(
                    "SELECT count(*)::int FROM fleet_fetch",
                    database: store.databaseName
                )
                #expect(fetches == total, "a feed was fetched twice inside its interval")
                let workersUsed = try await StoreUnderTest.administer(
                    "SELECT count(DISTINCT worker)::int FROM fleet_fetch",
                    database: store.databaseName
                )
                #expect(workersUsed == 3)
                for record in records {
                    #expect(await record.mostInFlight <= 2, "a host served more than its limit at once")
                    #expect(await record.requests.values.allSatisfy { $0 == 1 })
                    #expect(await record.requests.count == Self.feedsPerHost)
                }

                // The fleet's result, read without fetching.
                let digest = try TributaryProcess.run(
                    ["summary", "--store", store.location, "--no-fetch"],
                    in: workspace.url
                )
                #expect(digest.status == 0, "\(digest.standardError)")
                #expect(digest.standardOutput.contains("\(total * 2) items"))
                for record in records { #expect(await record.requests.values.allSatisfy { $0 == 1 }) }
            }
        }
    }

    @Test func aKilledWorkersSourcesAreFinishedByTheOthersOnceItsLeasesExpire() async throws {
        let records = (0..<Self.hosts).map { _ in HostRecord() }
        let total = Self.hosts * Self.feedsPerHost
        try await StoreUnderTest.with(.postgres) { store in
            // Slow answers, so that the worker is in the middle of fetches when it is killed.
            try await Self.withHosts(delay: .milliseconds(300), records) { ports in
                let workspace = try Workspace()
                try workspace.write("feeds.json", Self.feedsJSON(ports: ports, perHost: 3, timeout: "2s"))
                let sync = try TributaryProcess.run(["sync", "--store", store.location], in: workspace.url)
                #expect(sync.status == 0, "\(sync.standardError)")
                let arguments = [
                    "worker", "--store", store.location, "--concurrency", "5", "--poll", "100ms", "--lease-margin",
                    "1s",
                ]
                let doomed = try RunningTributary(arguments, in: workspace.url, name: "doomed")
                // Wait until it holds leases, then kill it without a chance to release them.
                let held = try await Self.waitFor(
                    "SELECT count(*)::int FROM fleet_source WHERE lease_owner LIKE '%:\(doomed.pid):%'",
                    database: store.databaseName,
                    toReach: 5,
                    within: .seconds(30)
                )
                #expect(held == 5)
                doomed.send(SIGKILL)
                _ = try await doomed.wait(upTo: .seconds(10))
                let survivors = try (0..<2).map { index in
                    try RunningTributary(arguments, in: workspace.url, name: "survivor\(index)")
                }
                let fetched = try await Self.waitFor(
                    "SELECT count(DISTINCT source)::int FROM fleet_fetch",
                    database: store.databaseName,
                    toReach: total,
                    within: .seconds(120)
                )
                for worker in survivors { worker.send(SIGTERM) }
                for worker in survivors {
                    let status = try await worker.wait(upTo: .seconds(30))
                    #expect(status == 0, "\(worker.standardError)")
                }
                #expect(fetched == total)
                // Every item once, whoever fetched it, and nothing of the killed worker's committed work lost.
                let items = try await StoreUnderTest.administer(
                    "SELECT count(*)::int FROM item",
                    database: store.databaseName
                )
                #expect(items == total * 2)
                let leftLeases = try await StoreUnderTest.administer(
                    "SELECT count(*)::int FROM fleet_source WHERE lease_owner IS NOT NULL",
                    database: store.databaseName
                )
                #expect(leftLeases == 0)
                for record in records { #expect(await record.mostInFlight <= 3) }
            }
        }
    }

    /// Runs a program to its end with `posix_spawn` and `waitpid`, its output discarded: Foundation's `Process`
    /// did not see this one exit while worker processes it had started were still running (the test hung).
    static func spawnAndWait(_ path: String, _ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return errno == ECHILD ? 0 : -1 }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// The test cluster's directory, for restarting it (scripts/check.sh sets it).
    static let serverDirectory = ProcessInfo.processInfo.environment["TRIBUTARY_TEST_POSTGRES_DIR"]

    @Test(.enabled(if: serverDirectory != nil, "needs the test cluster's directory (scripts/check.sh sets it)"))
    func workersCarryOnWhenTheServerRestartsMidRunLosingNothingCommitted() async throws {
        let records = (0..<Self.hosts).map { _ in HostRecord() }
        let total = Self.hosts * Self.feedsPerHost
        let directory = try #require(Self.serverDirectory)
        try await StoreUnderTest.with(.postgres) { store in
            try await Self.withHosts(delay: .milliseconds(100), records) { ports in
                let workspace = try Workspace()
                try workspace.write("feeds.json", Self.feedsJSON(ports: ports, perHost: 3, timeout: "2s"))
                let sync = try TributaryProcess.run(["sync", "--store", store.location], in: workspace.url)
                #expect(sync.status == 0, "\(sync.standardError)")
                let arguments = [
                    "worker", "--store", store.location, "--concurrency", "5", "--poll", "100ms", "--lease-margin",
                    "1s",
                ]
                let workers = try (0..<2).map { index in
                    try RunningTributary(arguments, in: workspace.url, name: "worker\(index)")
                }
                let before = try await Self.waitFor(
                    "SELECT count(*)::int FROM fleet_fetch",
                    database: store.databaseName,
                    toReach: 60,
                    within: .seconds(60)
                )
                // Restarted mid-run: some fetched, not all.
                #expect((before ?? 0) >= 60 && (before ?? 0) < total, "\(before ?? 0) fetched before the restart")
                #expect(Self.spawnAndWait("/bin/bash", [Self.postgresScript.path, "restart", directory]) == 0)
                let fetched = try await Self.waitFor(
                    "SELECT count(DISTINCT source)::int FROM fleet_fetch",
                    database: store.databaseName,
                    toReach: total,
                    within: .seconds(120)
                )
                for worker in workers { worker.send(SIGTERM) }
                for worker in workers {
                    let status = try await worker.wait(upTo: .seconds(30))
                    #expect(status == 0, "\(worker.standardError)")
                    // What the store said during the restart, in words (not the driver's type names).
                    #expect(!worker.standardError.contains("PSQLError"), "\(worker.standardError)")
                }
                #expect(fetched == total)
                let items = try await StoreUnderTest.administer(
                    "SELECT count(*)::int FROM item",
                    database: store.databaseName
                )
                #expect(items == total * 2)
            }
        }
    }

    /// The test cluster's script, scripts/postgres.sh.
    static let postgresScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/postgres.sh")

    /// A worker waiting for a server that has gone (stopped, not restarting) still drains on SIGTERM: it stops
    /// waiting for a connection and exits 0 at once, instead of hanging until a second signal. On a cluster of
    /// its own, started and stopped here, so that the shared test server stays up.
    @Test(.enabled(if: serverDirectory != nil, "needs the test cluster's tools (scripts/check.sh)"))
    func anIdleWorkerDrainsOnSIGTERMWhileItsServerIsDown() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tributary-pg-\(UUID().uuidString.prefix(8))")
        #expect(Self.spawnAndWait("/bin/bash", [Self.postgresScript.path, "start", directory.path]) == 0)
        defer { _ = Self.spawnAndWait("/bin/bash", [Self.postgresScript.path, "stop", directory.path]) }
        let port = try String(contentsOf: directory.appendingPathComponent("port"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let location = "postgres://tributary@127.0.0.1:\(port)/postgres"
        let workspace = try Workspace()
        // Nothing listens on port 1: the source fails at once and is not due again for a minute.
        try workspace.write(
            "feeds.json",
            #"{ "sources": [{ "id": "a", "kind": "rss", "url": "http://127.0.0.1:1/" }] }"#
        )
        let sync = try TributaryProcess.run(["sync", "--store", location], in: workspace.url)
        #expect(sync.status == 0, "\(sync.standardError)")
        let worker = try RunningTributary(
            ["worker", "--store", location, "--poll", "100ms", "--verbose"],
            in: workspace.url,
            name: "worker"
        )
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while !worker.standardError.contains("fetched"), clock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(worker.standardError.contains("fetched"), "\(worker.standardError)")
        // The server stops for good; the worker's next look at the queue waits for a connection.
        let stopped = Self.spawnAndWait("/bin/bash", [Self.postgresScript.path, "halt", directory.path])
        #expect(stopped == 0)
        try await Task.sleep(for: .milliseconds(500))
        let signalled = clock.now
        worker.send(SIGTERM)
        let status = try await worker.wait(upTo: .seconds(20))
        #expect(status == 0, "\(worker.standardError)")
        #expect(clock.now - signalled < .seconds(10), "took \(clock.now - signalled) to drain")
    }

    @Test func aHostsRetryAfterHoldsItForTheWholeFleet() async throws {
        let record = HostRecord()
        try await StoreUnderTest.with(.postgres) { store in
            let router = Router()
            router.get("/feed/:n") { request, _ -> Response in
                await record.begin(request.uri.path)
                await record.end()
                return Response(status: .tooManyRequests, headers: [.retryAfter: "3600"])
            }
            try await withTestServer(router) { port in
                let workspace = try Workspace()
                var sources: [String] = []
                for n in 0..<10 {
                    sources.append(
                        #"{ "id": "f\#(n)", "kind": "rss", "url": "http://127.0.0.1:\#(port)/feed/\#(n)", "timeout": "5s" }"#
                    )
                }
                try workspace.write(
                    "feeds.json",
                    #"{ "maxConnectionsPerHost": 1, "sources": [\#(sources.joined(separator: ","))] }"#
                )
                let sync = try TributaryProcess.run(["sync", "--store", store.location], in: workspace.url)
                #expect(sync.status == 0, "\(sync.standardError)")
                let workers = try (0..<2).map { index in
                    try RunningTributary(
                        ["worker", "--store", store.location, "--concurrency", "4", "--poll", "100ms"],
                        in: workspace.url,
                        name: "worker\(index)"
                    )
                }
                let held = try await Self.waitFor(
                    "SELECT count(*)::int FROM fleet_host WHERE not_before > extract(epoch from now()) + 3000",
                    database: store.databaseName,
                    toReach: 1,
                    within: .seconds(30)
                )
                // Time for the other sources of the host, all due, to be claimed if the hold did not work.
                try await Task.sleep(for: .seconds(2))
                for worker in workers { worker.send(SIGTERM) }
                for worker in workers { _ = try await worker.wait(upTo: .seconds(30)) }
                #expect(held == 1)
                // One request reached the host: the 429 held it for every worker, whatever was due.
                #expect(await record.requests.values.reduce(0, +) == 1)
                let fetches = try await StoreUnderTest.administer(
                    "SELECT count(*)::int FROM fleet_fetch",
                    database: store.databaseName
                )
                #expect(fetches == 1)
            }
        }
    }
}
