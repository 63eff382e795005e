import Foundation
import GRDB
import SQLiteStore
import Testing
import TributaryCore

@Suite struct SQLiteStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_330_800.123_456_7)

    static func item(_ id: String, title: String? = nil) -> FeedItem {
        FeedItem(
            id: id,
            url: "https://example.com/\(id)",
            title: title ?? "Item \(id)",
            datePublished: Date(timeIntervalSince1970: 1_795_000_000)
        )
    }

    @Test func savingInsertsThenReportsUnchangedAndUpdatedKeepingFirstSeen() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        let first = try await store.save([Self.item("a"), Self.item("b")], from: "news", at: Self.t0)
        #expect(first.inserted.map(\.item.id) == ["a", "b"])
        #expect(first.inserted.allSatisfy { $0.firstSeen == Self.t0 && $0.item.tributary?.firstSeen == Self.t0 })

        let later = Self.t0.addingTimeInterval(3600)
        let second = try await store.save([Self.item("a"), Self.item("b", title: "Changed")], from: "news", at: later)
        #expect(second.inserted.isEmpty)
        #expect(second.unchanged.map(\.item.id) == ["a"])
        #expect(second.updated.map(\.item.id) == ["b"])
        #expect(second.all.allSatisfy { $0.firstSeen == Self.t0 && $0.lastSeen == later })
        #expect(second.updated.first?.item.title == "Changed")
    }

    @Test func itemsCheckpointsAndDigestTimesSurviveReopening() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        _ = try await store.save([Self.item("b"), Self.item("a")], from: "news", at: Self.t0)
        _ = try await store.save([Self.item("z")], from: "notes", at: Self.t0.addingTimeInterval(1))
        try await store.saveCheckpoint(SourceCheckpoint(["etag": "\"v1\"", "seq": "42"]), for: "news")
        try await store.recordDigest(at: Self.t0)
        try await store.recordDigest(at: Self.t0.addingTimeInterval(60))
        try await store.close()

        let reopened = try await SQLiteStore.open(at: directory.storeURL)
        let items = try await reopened.items()
        #expect(items.map(\.item.id) == ["b", "a", "z"])
        #expect(items.map(\.sourceID) == ["news", "news", "notes"])
        #expect(items.first?.item == Self.item("b").withFirstSeen(Self.t0))
        #expect(items.first?.firstSeen == Self.t0)
        #expect(try await reopened.checkpoint(for: "news") == SourceCheckpoint(["etag": "\"v1\"", "seq": "42"]))
        #expect(try await reopened.checkpoint(for: "notes").isEmpty)
        #expect(try await reopened.checkpoints() == ["news": SourceCheckpoint(["etag": "\"v1\"", "seq": "42"])])
        #expect(try await reopened.lastDigestDate() == Self.t0.addingTimeInterval(60))
    }

    @Test func aFreshStoreHasNoDigestAndUsesWAL() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        #expect(try await store.lastDigestDate() == nil)
        #expect(try await store.items().isEmpty)
        try await store.close()
        let queue = try DatabaseQueue(path: directory.storeURL.path)
        let mode = try await queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let version = try await queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == 2)
    }

    @Test func currentItemsAreThoseOfTheLastSuccessfulRunAndAFailedRunDoesNotShrinkThem() async throws {
        let directory = try TemporaryDirectory()
        var store = try await SQLiteStore.open(at: directory.storeURL)
        _ = try await store.save([Self.item("a"), Self.item("b")], from: "news", at: Self.t0)
        try await store.recordOutcome(.succeeded, for: "news", at: Self.t0)
        #expect(try await store.currentItems(from: "news").map(\.item.id) == ["a", "b"])
        try await store.close()

        // Run 2 succeeds with b and c: a drops out.
        store = try await SQLiteStore.open(at: directory.storeURL)
        _ = try await store.save([Self.item("b"), Self.item("c")], from: "news", at: Self.t0.addingTimeInterval(60))
        try await store.recordOutcome(.succeeded, for: "news", at: Self.t0.addingTimeInterval(60))
        #expect(try await store.currentItems(from: "news").map(\.item.id) == ["b", "c"])
        try await store.close()

        // Run 3 delivers only d and then fails: the current items stay b and c.
        store = try await SQLiteStore.open(at: directory.storeURL)
        _ = try await store.save([Self.item("d")], from: "news", at: Self.t0.addingTimeInterval(120))
        try await store.recordOutcome(
            .failed(reason: "connection reset", retryAfter: nil),
            for: "news",
            at: Self.t0.addingTimeInterval(120)
        )
        #expect(try await store.currentItems(from: "news").map(\.item.id) == ["b", "c"])
        try await store.close()

        // Run 4 is not modified: the current items stay b and c.
        store = try await SQLiteStore.open(at: directory.storeURL)
        try await store.recordOutcome(.notModified, for: "news", at: Self.t0.addingTimeInterval(180))
        #expect(try await store.currentItems(from: "news").map(\.item.id) == ["b", "c"])
        #expect(try await store.currentItems(from: "other").isEmpty)
        #expect(try await store.items().map(\.item.id) == ["a", "b", "c", "d"])
    }

    /// A source with no current items has its items saved current at once (a first run then rewrites nothing at its
    /// end); when that run fails they are taken back, so the source still has none, and its other sources are
    /// untouched.
    @Test func aSourcesFirstRunMakesItsItemsCurrentOnlyIfItSucceeds() async throws {
        let directory = try TemporaryDirectory()
        var store = try await SQLiteStore.open(at: directory.storeURL)
        // Two batches of one source in one save, and another source alongside.
        _ = try await store.save([
            SaveBatch(source: "news", items: [Self.item("a")], date: Self.t0),
            SaveBatch(source: "blog", items: [Self.item("x")], date: Self.t0),
            SaveBatch(source: "news", items: [Self.item("b")], date: Self.t0),
        ])
        try await store.recordOutcomes(
            [
                SourceHealth.Report(source: "news", outcome: .failed(reason: "reset", retryAfter: nil), entry: nil),
                SourceHealth.Report(source: "blog", outcome: .succeeded, entry: nil),
            ],
            at: Self.t0
        )
        #expect(try await store.currentItems(from: "news").isEmpty)
        #expect(try await store.currentItems(from: "blog").map(\.item.id) == ["x"])
        #expect(try await store.items().map(\.item.id) == ["a", "x", "b"])
        try await store.close()

        // The next run succeeds with b and c: exactly those are current; b, saved by the failed run, is known (it
        // keeps its first-seen time), c is new.
        store = try await SQLiteStore.open(at: directory.storeURL)
        let changes = try await store.save(
            [Self.item("b"), Self.item("c")],
            from: "news",
            at: Self.t0.addingTimeInterval(60)
        )
        #expect(changes.inserted.map(\.item.id) == ["c"])
        #expect(changes.unchanged.map(\.item.id) + changes.updated.map(\.item.id) == ["b"])
        try await store.recordOutcome(.succeeded, for: "news", at: Self.t0.addingTimeInterval(60))
        let current = try await store.currentItems(from: "news")
        #expect(current.map(\.item.id) == ["b", "c"])
        #expect(current.map(\.firstSeen) == [Self.t0, Self.t0.addingTimeInterval(60)])
        try await store.close()

        // A source whose last success delivered nothing has no current items either: a failed run leaves it so.
        store = try await SQLiteStore.open(at: directory.storeURL)
        try await store.recordOutcome(.succeeded, for: "empty", at: Self.t0)
        try await store.close()
        store = try await SQLiteStore.open(at: directory.storeURL)
        _ = try await store.save([Self.item("e")], from: "empty", at: Self.t0.addingTimeInterval(60))
        try await store.recordOutcome(
            .failed(reason: "timed out", retryAfter: nil),
            for: "empty",
            at: Self.t0.addingTimeInterval(60)
        )
        #expect(try await store.currentItems(from: "empty").isEmpty)
        #expect(try await store.currentItems(from: "news").map(\.item.id) == ["b", "c"])
        try await store.close()
    }

    /// Health is kept with the fingerprint of the entry it was recorded under: failures under an older entry do
    /// not count for the edited one, which is not backing off.
    @Test func anEditedEntryStartsWithACleanSlate() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        let policy = RetryPolicy(base: .seconds(600), cap: .seconds(3600))
        for _ in 0..<2 {
            try await store.recordOutcome(
                .failed(reason: "x", retryAfter: nil),
                for: "s",
                at: Self.t0,
                policy: policy,
                entry: "old"
            )
        }
        let health = try await store.health(for: "s")
        #expect(health.entry == "old")
        #expect(health.isBackingOff(at: Self.t0, entry: "old"))
        #expect(!health.isBackingOff(at: Self.t0, entry: "new"))
        let edited = try await store.recordOutcome(
            .failed(reason: "y", retryAfter: nil),
            for: "s",
            at: Self.t0,
            policy: policy,
            entry: "new"
        )
        #expect(edited.consecutiveFailures == 1)
        #expect(edited.entry == "new")
        #expect(!edited.isBackingOff(at: Self.t0, entry: "new"))
        try await store.close()
    }

    @Test func healthCountsFailuresBacksOffExponentiallyAndResetsOnSuccess() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        let policy = RetryPolicy(base: .seconds(600), cap: .seconds(3600))
        #expect(try await store.health(for: "news") == SourceHealth())

        let one = try await store.recordOutcome(
            .failed(reason: "HTTP 500", retryAfter: nil),
            for: "news",
            at: Self.t0,
            policy: policy
        )
        #expect(one.consecutiveFailures == 1)
        #expect(one.nextRetry == nil)
        #expect(!one.isBackingOff(at: Self.t0))

        let two = try await store.recordOutcome(
            .failed(reason: "HTTP 502", retryAfter: nil),
            for: "news",
            at: Self.t0,
            policy: policy
        )
        #expect(two.consecutiveFailures == 2)
        #expect(two.lastError == "HTTP 502")
        #expect(two.nextRetry == Self.t0.addingTimeInterval(600))
        #expect(two.isBackingOff(at: Self.t0.addingTimeInterval(599)))
        #expect(!two.isBackingOff(at: Self.t0.addingTimeInterval(600)))

        // A skipped run changes nothing.
        #expect(try await store.recordOutcome(.skipped, for: "news", at: Self.t0.addingTimeInterval(60)) == two)

        let three = try await store.recordOutcome(
            .failed(reason: "HTTP 502", retryAfter: nil),
            for: "news",
            at: Self.t0,
            policy: policy
        )
        #expect(three.nextRetry == Self.t0.addingTimeInterval(1200))
        // A throttled failure waits at least as long as the server asked.
        let four = try await store.recordOutcome(
            .failed(reason: "HTTP 429", retryAfter: .seconds(7200)),
            for: "news",
            at: Self.t0,
            policy: policy
        )
        #expect(four.consecutiveFailures == 4)
        #expect(four.nextRetry == Self.t0.addingTimeInterval(7200))
        #expect(try await store.allHealth()["news"] == four)

        let success = Self.t0.addingTimeInterval(9000)
        let healed = try await store.recordOutcome(.succeeded, for: "news", at: success, policy: policy)
        #expect(healed == SourceHealth(lastAttempt: success, lastSuccess: success))
        #expect(try await store.health(for: "news") == healed)
    }

    @Test func retryPolicyDoublesFromTheBaseUpToTheCapAndNeverGivesUp() {
        let policy = RetryPolicy(base: .seconds(900), cap: .seconds(86_400))
        #expect(policy.delay(afterFailures: 0) == .zero)
        #expect(policy.delay(afterFailures: 1) == .zero)
        #expect(policy.delay(afterFailures: 2) == .seconds(900))
        #expect(policy.delay(afterFailures: 3) == .seconds(1800))
        #expect(policy.delay(afterFailures: 4) == .seconds(3600))
        #expect(policy.delay(afterFailures: 9) == .seconds(86_400))
        #expect(policy.delay(afterFailures: 10_000) == .seconds(86_400))
        #expect(policy.delay(afterFailures: 1, retryAfter: .seconds(120)) == .seconds(120))
        #expect(policy.delay(afterFailures: 3, retryAfter: .seconds(120)) == .seconds(1800))
    }

    @Test func pruningDeletesItemsNotSeenSinceTheCutoffButKeepsCurrentOnes() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        let old = Self.t0.addingTimeInterval(-40 * 86_400)
        _ = try await store.save([Self.item("current-old")], from: "news", at: old)
        try await store.recordOutcome(.succeeded, for: "news", at: old)
        _ = try await store.save([Self.item("stale")], from: "notes", at: old)
        _ = try await store.save([Self.item("fresh")], from: "notes", at: Self.t0)
        // A run that fails leaves "notes" without current items.
        try await store.recordOutcome(.failed(reason: "reset", retryAfter: nil), for: "notes", at: Self.t0)
        try await store.recordDigest(at: old)
        try await store.recordDigest(at: old.addingTimeInterval(1))

        let deleted = try await store.prune(notSeenSince: Self.t0.addingTimeInterval(-30 * 86_400))
        #expect(deleted == 1)
        #expect(try await store.items().map(\.item.id) == ["current-old", "fresh"])
        // The newest digest time survives, so "new since last digest" still works.
        #expect(try await store.lastDigestDate() == old.addingTimeInterval(1))
    }

    @Test func aStoreWithAnUnknownMigrationIsRefusedAndLeftUntouched() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SQLiteStore.open(at: directory.storeURL)
        _ = try await store.save([Self.item("a")], from: "news", at: Self.t0)
        try await store.close()
        let queue = try DatabaseQueue(path: directory.storeURL.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        }
        try queue.close()
        let before = try directory.snapshot()

        let error = await #expect(throws: SQLiteStoreError.self) {
            _ = try await SQLiteStore.open(at: directory.storeURL)
        }
        #expect(
            error?.reason
                == .newerVersion(unknownMigrations: ["v9-from-the-future"], userVersion: 2, supportedVersion: 2)
        )
        let message = error?.description ?? ""
        #expect(message.contains(directory.storeURL.path))
        #expect(message.contains("newer version of Tributary"))
        #expect(message.contains("Upgrade Tributary"))
        #expect(try directory.snapshot() == before)
    }

    @Test func aStoreWithAHigherUserVersionIsRefusedAndLeftUntouched() async throws {
        let directory = try TemporaryDirectory()
        try await SQLiteStore.open(at: directory.storeURL).close()
        let queue = try DatabaseQueue(path: directory.storeURL.path)
        try await queue.write { db in try db.execute(sql: "PRAGMA user_version = 7") }
        try queue.close()
        let before = try directory.snapshot()

        let error = await #expect(throws: SQLiteStoreError.self) {
            _ = try await SQLiteStore.open(at: directory.storeURL)
        }
        #expect(error?.reason == .newerVersion(unknownMigrations: [], userVersion: 7, supportedVersion: 2))
        #expect(error?.description.contains("schema version 7") == true)
        #expect(try directory.snapshot() == before)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedWithTheFix() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.storeURL.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data("this is not sqlite, just text that is long enough to be a header".utf8).write(to: directory.storeURL)
        let error = await #expect(throws: SQLiteStoreError.self) {
            _ = try await SQLiteStore.open(at: directory.storeURL)
        }
        guard case .cannotOpen = error?.reason else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains(directory.storeURL.path) == true)
        #expect(error?.description.contains("--no-state") == true)
    }
}

extension FeedItem {
    fileprivate func withFirstSeen(_ date: Date) -> FeedItem {
        var copy = self
        copy.tributary = TributaryExtension(firstSeen: date)
        return copy
    }
}
