import Foundation
import GRDB
import SQLiteStore
import Testing
import TributaryCore

/// Two stores on one file at once, as two runs of tributary would be.
@Suite struct StoreConcurrencyTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_330_800)

    static func items(_ prefix: String, count: Int) -> [FeedItem] {
        (0..<count).map { FeedItem(id: "\(prefix)-\($0)", title: "Item \(prefix) \($0)") }
    }

    @Test func aSecondRunWaitsForTheFirstToLetGoOfTheRunLock() async throws {
        let directory = try TemporaryDirectory()
        let first = try await SQLiteStore.open(at: directory.storeURL, runLockTimeout: .seconds(1))
        let clock = ContinuousClock()
        let started = clock.now
        async let second = SQLiteStore.open(at: directory.storeURL, runLockTimeout: .seconds(20))
        try await Task.sleep(for: .milliseconds(400))
        _ = try await first.save(Self.items("first", count: 3), from: "news", at: Self.t0)
        try await first.close()
        let opened = try await second
        #expect(clock.now - started >= .milliseconds(400))
        _ = try await opened.save(Self.items("second", count: 2), from: "news", at: Self.t0)
        #expect(try await opened.items().count == 5)
    }

    @Test func aSecondRunThatWaitsTooLongFailsNamingTheStore() async throws {
        let directory = try TemporaryDirectory()
        let first = try await SQLiteStore.open(at: directory.storeURL, runLockTimeout: .seconds(1))
        let error = await #expect(throws: SQLiteStoreError.self) {
            _ = try await SQLiteStore.open(at: directory.storeURL, runLockTimeout: .milliseconds(200))
        }
        #expect(error?.reason == .busy(waited: .milliseconds(200)))
        #expect(error?.description.contains(directory.storeURL.path) == true)
        #expect(error?.description.contains("another tributary run") == true)
        // The first run is unaffected.
        _ = try await first.save(Self.items("first", count: 1), from: "news", at: Self.t0)
        #expect(try await first.items().count == 1)
    }

    @Test func twoStoresWritingTheSameFileAtOnceLoseNothingAndKeepItSound() async throws {
        let directory = try TemporaryDirectory()
        let one = try await SQLiteStore.open(at: directory.storeURL)
        let two = try await SQLiteStore.open(at: directory.storeURL)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, store) in [("one", one), ("two", two)] {
                group.addTask {
                    for batch in 0..<40 {
                        _ = try await store.save(Self.items("\(name)-\(batch)", count: 10), from: "news", at: Self.t0)
                        try await store.saveCheckpoint(SourceCheckpoint(["seq": "\(batch)"]), for: SourceID(name))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await one.items().count == 800)
        #expect(try await two.integrityCheck() == ["ok"])
        #expect(try await one.checkpoint(for: "two") == SourceCheckpoint(["seq": "39"]))
    }
}
