import Foundation
import JSONFileAdapter
import PostgresStore
import TestSupport
import Testing
import TributaryCore

/// The ``StateStore`` contract, one body per rule, run against every store in ``StoreKind/available``.
@Suite struct StateStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000.125)

    static func item(_ id: String, title: String = "Title") -> FeedItem {
        FeedItem(id: id, url: "https://example.org/\(id)", title: "\(title) \(id)")
    }

    @Test(arguments: StoreKind.available)
    func saveInsertsThenReportsUpdatedAndUnchangedKeepingFirstSeenExactly(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let store = try await place.open()
            let first = try await store.save([Self.item("a"), Self.item("b")], from: "news", at: Self.t0)
            #expect(first.inserted.map(\.item.id) == ["a", "b"])
            #expect(first.inserted.first?.item.tributary?.firstSeen == Self.t0)
            let later = Self.t0.addingTimeInterval(3600.5)
            let second = try await store.save(
                [Self.item("a"), Self.item("b", title: "Changed"), Self.item("c")],
                from: "news",
                at: later
            )
            #expect(second.unchanged.map(\.item.id) == ["a"])
            #expect(second.updated.map(\.item.id) == ["b"])
            #expect(second.inserted.map(\.item.id) == ["c"])
            #expect(second.updated.first?.firstSeen == Self.t0)
            #expect(second.updated.first?.lastSeen == later)
            // The same id from another source is another item.
            let other = try await store.save([Self.item("a")], from: "elsewhere", at: later)
            #expect(other.inserted.count == 1)
            let all = try await store.items()
            #expect(all.map(\.item.id) == ["a", "b", "c", "a"])
            #expect(all.map(\.sourceID) == ["news", "news", "news", "elsewhere"])
            #expect(all[1].item.title == "Changed b")
            #expect(all[0].item.tributary?.firstSeen == Self.t0)
            try await store.close()
        }
    }

    /// Batches saved together (as a run writes the batches queued behind a save) are saved as one after the other
    /// would be: a later batch sees an earlier one's items, each keeps its own date, and each reports its changes.
    @Test(arguments: StoreKind.available)
    func batchesSavedTogetherAreSavedAsOneAfterTheOther(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let store = try await place.open()
            let later = Self.t0.addingTimeInterval(60)
            let changes = try await store.save([
                SaveBatch(source: "news", items: [Self.item("a"), Self.item("b")], date: Self.t0),
                SaveBatch(source: "blog", items: [Self.item("a")], date: Self.t0),
                SaveBatch(source: "news", items: [Self.item("a"), Self.item("b", title: "Changed")], date: later),
            ])
            #expect(changes.map { $0.inserted.map(\.item.id) } == [["a", "b"], ["a"], []])
            #expect(changes[2].unchanged.map(\.item.id) == ["a"])
            #expect(changes[2].updated.map(\.item.id) == ["b"])
            #expect(changes[2].updated.first?.firstSeen == Self.t0)
            #expect(changes[2].updated.first?.lastSeen == later)
            let all = try await store.items()
            #expect(all.map(\.item.id) == ["a", "b", "a"])
            #expect(all.map(\.sourceID) == ["news", "news", "blog"])
            #expect(all[1].item.title == "Changed b")
            #expect(try await store.save([]).isEmpty)
            try await store.close()
        }
    }

    /// Items are read back by key, a batch at a time, as a digest drawn from the store reads them: in the order
    /// asked, across sources, with their first-seen time, a key with no item left out.
    @Test(arguments: StoreKind.available)
    func itemsAreReadBackByKeyInTheOrderAsked(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let store = try await place.open()
            // An id of several scripts, with a quote and a tab, and one that is its prefix: bound as bytes, whole.
            let awkward = "ü/日本/🙂 \"q\" \tend"
            _ = try await store.save([Self.item("a"), Self.item("b"), Self.item(awkward)], from: "news", at: Self.t0)
            let later = Self.t0.addingTimeInterval(60)
            _ = try await store.save([Self.item("a", title: "Other")], from: "elsewhere", at: later)
            let keys = [
                ItemKey(source: "elsewhere", id: "a"), ItemKey(source: "news", id: "missing"),
                ItemKey(source: "news", id: "b"), ItemKey(source: "news", id: "ü/日本/🙂 \"q\" "),
                ItemKey(source: "news", id: awkward), ItemKey(source: "news", id: "a"),
            ]
            let found = try await store.items(keys)
            #expect(found.map(\.sourceID) == ["elsewhere", "news", "news", "news"])
            #expect(found.map(\.item.id) == ["a", "b", awkward, "a"])
            #expect(found.map(\.item.title) == ["Other a", "Title b", "Title \(awkward)", "Title a"])
            #expect(found.map(\.firstSeen) == [later, Self.t0, Self.t0, Self.t0])
            #expect(found.first?.item.tributary?.firstSeen == later)
            #expect(try await store.items([]).isEmpty)
            try await store.close()
        }
    }

    /// A batch is written as a whole (PostgreSQL: one statement for the new items, one for the known): an id
    /// given twice is stored once, as its last version, and a large batch keeps its order.
    @Test(arguments: StoreKind.available)
    func anIdRepeatedInOneBatchIsStoredOnceAsItsLastVersionAndOrderIsKept(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let store = try await place.open()
            let first = try await store.save(
                [Self.item("a", title: "One"), Self.item("b"), Self.item("a", title: "Two"), Self.item("a")],
                from: "news",
                at: Self.t0
            )
            #expect(first.inserted.map(\.item.id) == ["a", "b"])
            var all = try await store.items()
            #expect(all.map(\.item.id) == ["a", "b"])
            #expect(all[0].item.title == "Title a")
            _ = try await store.save(
                [Self.item("b", title: "X"), Self.item("b", title: "Y")],
                from: "news",
                at: Self.t0.addingTimeInterval(60)
            )
            all = try await store.items()
            #expect(all.map(\.item.title) == ["Title a", "Y b"])
            #expect(all[1].lastSeen == Self.t0.addingTimeInterval(60))
            let many = (0..<500).map { Self.item("n\($0)") }
            _ = try await store.save(many, from: "bulk", at: Self.t0)
            #expect(try await store.items().filter { $0.sourceID == "bulk" }.map(\.item.id) == many.map(\.id))
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.available)
    func itemsCheckpointsHealthAndDigestsOutliveTheStoreValue(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let store = try await place.open()
            _ = try await store.save([Self.item("a")], from: "news", at: Self.t0)
            try await store.saveCheckpoint(SourceCheckpoint(["etag": "\"v1\""]), for: "news")
            try await store.saveCheckpoint(SourceCheckpoint(["cursor": "42"]), for: "wire")
            try await store.saveCheckpoint(SourceCheckpoint(["etag": "\"v2\""]), for: "news")
            try await store.recordOutcome(
                .failed(reason: "timed out", retryAfter: nil),
                for: "news",
                at: Self.t0,
                policy: RetryPolicy(),
                entry: "entry-1"
            )
            try await store.recordDigest(at: Self.t0)
            try await store.close()

            let reopened = try await place.open()
            #expect(try await reopened.items().map(\.item.id) == ["a"])
            #expect(try await reopened.checkpoint(for: "news") == SourceCheckpoint(["etag": "\"v2\""]))
            #expect(try await reopened.checkpoint(for: "missing") == SourceCheckpoint())
            #expect(
                try await reopened.checkpoints()
                    == ["news": SourceCheckpoint(["etag": "\"v2\""]), "wire": SourceCheckpoint(["cursor": "42"])]
            )
            let health = try await reopened.health(for: "news")
            #expect(health.consecutiveFailures == 1)
            #expect(health.lastError == "timed out")
            #expect(health.lastAttempt == Self.t0)
            #expect(health.entry == "entry-1")
            #expect(try await reopened.allHealth().keys.sorted() == ["news"])
            #expect(try await reopened.lastDigestDate() == Self.t0)
            try await reopened.close()
        }
    }

    @Test(arguments: StoreKind.available)
    func currentItemsAreThoseOfTheLastSuccessfulRun(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            // Run 1 delivers a and b and succeeds.
            var store = try await place.open()
            _ = try await store.save([Self.item("a"), Self.item("b")], from: "news", at: Self.t0)
            try await store.recordOutcome(.succeeded, for: "news", at: Self.t0, policy: RetryPolicy(), entry: nil)
            try await store.close()
            // Run 2 delivers c, then fails: a and b stay current.
            store = try await place.open()
            let t1 = Self.t0.addingTimeInterval(60)
            _ = try await store.save([Self.item("c")], from: "news", at: t1)
            try await store.recordOutcome(
                .failed(reason: "reset", retryAfter: nil),
                for: "news",
                at: t1,
                policy: RetryPolicy(),
                entry: nil
            )
            #expect(try await store.currentItems(from: "news").map(\.item.id) == ["a", "b"])
            try await store.close()
            // Run 3 delivers b and c and succeeds: they are current, a is not.
            store = try await place.open()
            let t2 = Self.t0.addingTimeInterval(120)
            _ = try await store.save([Self.item("b"), Self.item("c")], from: "news", at: t2)
            try await store.recordOutcome(.succeeded, for: "news", at: t2, policy: RetryPolicy(), entry: nil)
            #expect(try await store.currentItems(from: "news").map(\.item.id) == ["b", "c"])
            // A 304 keeps them.
            try await store.recordOutcome(.notModified, for: "news", at: t2, policy: RetryPolicy(), entry: nil)
            #expect(try await store.currentItems(from: "news").map(\.item.id) == ["b", "c"])
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.available)
    func failuresBackOffAndAnEditedEntryStartsClean(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let store = try await place.open()
            let policy = RetryPolicy(base: .seconds(900), cap: .seconds(3600))
            var health = SourceHealth()
            for run in 0..<3 {
                health = try await store.recordOutcome(
                    .failed(reason: "refused", retryAfter: nil),
                    for: "news",
                    at: Self.t0.addingTimeInterval(TimeInterval(run)),
                    policy: policy,
                    entry: "old"
                )
            }
            #expect(health.consecutiveFailures == 3)
            #expect(health.nextRetry == Self.t0.addingTimeInterval(2 + 1800))
            #expect(try await store.health(for: "news") == health)
            #expect(health.isBackingOff(at: Self.t0.addingTimeInterval(10), entry: "old"))
            #expect(!health.isBackingOff(at: Self.t0.addingTimeInterval(10), entry: "new"))
            // A failure under the edited entry counts from one.
            let edited = try await store.recordOutcome(
                .failed(reason: "still refused", retryAfter: .seconds(7200)),
                for: "news",
                at: Self.t0.addingTimeInterval(10),
                policy: policy,
                entry: "new"
            )
            #expect(edited.consecutiveFailures == 1)
            #expect(edited.nextRetry == Self.t0.addingTimeInterval(10 + 7200))
            // Skipped runs change nothing; a success clears the record.
            let skipped = try await store.recordOutcome(
                .skipped,
                for: "news",
                at: Self.t0.addingTimeInterval(20),
                policy: policy,
                entry: "new"
            )
            #expect(skipped == edited)
            let success = try await store.recordOutcome(
                .succeeded,
                for: "news",
                at: Self.t0.addingTimeInterval(30),
                policy: policy,
                entry: "new"
            )
            #expect(
                success
                    == SourceHealth(lastAttempt: success.lastAttempt, lastSuccess: success.lastAttempt, entry: "new")
            )
            #expect(try await store.health(for: "news").consecutiveFailures == 0)
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.available)
    func pruningDeletesOnlyOldItemsThatAreNotCurrent(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            var store = try await place.open()
            _ = try await store.save([Self.item("old"), Self.item("kept")], from: "news", at: Self.t0)
            try await store.recordOutcome(.succeeded, for: "news", at: Self.t0, policy: RetryPolicy(), entry: nil)
            try await store.recordDigest(at: Self.t0)
            try await store.close()
            store = try await place.open()
            let later = Self.t0.addingTimeInterval(40 * 86_400)
            _ = try await store.save([Self.item("kept"), Self.item("new")], from: "news", at: later)
            try await store.recordOutcome(.succeeded, for: "news", at: later, policy: RetryPolicy(), entry: nil)
            // "old" was last seen 40 days ago and is no longer current; "kept" and "new" are current.
            let deleted = try await store.prune(notSeenSince: later.addingTimeInterval(-30 * 86_400))
            #expect(deleted == 1)
            #expect(try await store.items().map(\.item.id).sorted() == ["kept", "new"])
            // The newest digest record survives pruning.
            #expect(try await store.lastDigestDate() == Self.t0)
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.available)
    func aSecondRunWaitsForTheRunLockAndGetsItWhenTheFirstCloses(_ kind: StoreKind) async throws {
        try await StoreUnderTest.with(kind) { place in
            let first = try await place.open(runLockTimeout: .seconds(5))
            let busy = await #expect(throws: (any Error).self) {
                _ = try await place.open(runLockTimeout: .milliseconds(600))
            }
            #expect(busy is any StateStoreError)
            #expect("\(busy.map { "\($0)" } ?? "")".contains("another tributary run is using the state store"))
            // A run without the lock (watch) still reads and writes.
            let watcher = try await place.open()
            _ = try await watcher.save([Self.item("w")], from: "wire", at: Self.t0)
            try await watcher.close()
            try await first.close()
            let second = try await place.open(runLockTimeout: .seconds(5))
            #expect(try await second.items().map(\.item.id) == ["w"])
            try await second.close()
        }
    }

    @Test(.enabled(if: StoreKind.available.contains(.postgres), "needs the PostgreSQL test server"))
    func aDatabaseSetUpByANewerVersionIsRefusedUntouched() async throws {
        try await StoreUnderTest.with(.postgres) { place in
            try await place.open().close()
            try await StoreUnderTest.administer(
                "INSERT INTO tributary_migration (id) VALUES ('v9-from-the-future')",
                database: place.databaseName
            )
            let error = await #expect(throws: PostgresStoreError.self) { try await place.open() }
            #expect(error?.reason == .newerVersion(unknownMigrations: ["v9-from-the-future"]))
            #expect(error?.description.contains("Nothing was changed") == true)
            // Nothing was written: no run recorded, the unknown migration still there.
            let runs = try await StoreUnderTest.administer(
                "SELECT count(*)::int FROM run",
                database: place.databaseName
            )
            #expect(runs == 0)
            let unknown = try await StoreUnderTest.administer(
                "SELECT count(*)::int FROM tributary_migration WHERE id = 'v9-from-the-future'",
                database: place.databaseName
            )
            #expect(unknown == 1)
        }
    }

    /// Workers look at the feed list before every claim: they get it back only when a sync changed it.
    @Test(.enabled(if: StoreKind.available.contains(.postgres), "needs the PostgreSQL test server"))
    func theFeedListComesBackOnlyWhenASyncChangedIt() async throws {
        try await StoreUnderTest.with(.postgres) { place in
            let store = try #require(try await place.open() as? PostgresStore)
            #expect(try await store.fleetConfiguration(changedSince: nil) == nil)
            func list(_ ids: [String]) throws -> (FeedsConfiguration, String) {
                let sources = ids.map { #"{ "id": "\#($0)", "kind": "json-file", "path": "\#($0).json" }"# }
                let text = #"{ "sources": [\#(sources.joined(separator: ","))] }"#
                let configuration = try ConfigurationLoader.load(
                    data: Data(text.utf8),
                    file: URL(fileURLWithPath: "/srv/feeds.json"),
                    registry: SourceRegistry([JSONFileSource.self])
                )
                return (configuration, text)
            }
            let (first, firstText) = try list(["a", "b"])
            _ = try await store.sync(first, text: firstText, file: "/srv/feeds.json", at: Self.t0)
            let loaded = try #require(try await store.fleetConfiguration(changedSince: nil))
            #expect(loaded.text == firstText)
            #expect(try await store.fleetConfiguration(changedSince: loaded.version) == nil)
            // The same list again changes nothing; another list is a new version.
            _ = try await store.sync(first, text: firstText, file: "/srv/feeds.json", at: Self.t0)
            #expect(try await store.fleetConfiguration(changedSince: loaded.version) == nil)
            let (second, secondText) = try list(["a", "b", "c"])
            _ = try await store.sync(second, text: secondText, file: "/srv/feeds.json", at: Self.t0)
            let changed = try #require(try await store.fleetConfiguration(changedSince: loaded.version))
            #expect(changed.version > loaded.version)
            #expect(changed.text == secondText)
            try await store.close()
        }
    }

    @Test(.enabled(if: StoreKind.available.contains(.postgres), "needs the PostgreSQL test server"))
    func aServerThatIsNotThereIsNamedInWords() async throws {
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStore.open(PostgresLocation(url: "postgres://tributary@127.0.0.1:1/none"))
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("127.0.0.1:1 refused the connection"), "\(text)")
        #expect(!text.contains("PSQLError"))
    }
}
