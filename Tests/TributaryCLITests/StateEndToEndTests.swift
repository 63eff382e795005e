import Foundation
import SQLiteStore
import Testing
import TributaryCore

/// The state store as a user meets it: where the file goes, `--state`, `--no-state`, `--since`, and a store that
/// cannot be used.
@Suite(.serialized) struct StateEndToEndTests {
    @Test func digestKeepsItsStateBesideFeedsJSON() async throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", EndToEndTests.healthyConfig)
        let result = try TributaryProcess.run(["digest"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(workspace.exists(".tributary/state.sqlite"))
        let store = try await SQLiteStore.open(at: workspace.url.appendingPathComponent(".tributary/state.sqlite"))
        // Every item of news; notes' own item (its copy of news' harbour item is stored too when notes answered
        // first, before news took the item over, so the total depends on timing).
        let stored = try await store.items()
        #expect(stored.filter { $0.sourceID == "news" }.count == 3)
        #expect(stored.contains { $0.sourceID == "notes" && $0.item.title?.contains("Reading list") == true })
        #expect(try await store.lastDigestDate() == Date(timeIntervalSince1970: 1_795_330_800))
        #expect(try await store.allHealth().keys.sorted() == ["news", "notes"])
    }

    @Test func noStateWritesNoStoreAndStateNamesAnotherFile() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", EndToEndTests.healthyConfig)
        let memory = try TributaryProcess.run(["digest", "--no-state"], in: workspace.url)
        #expect(memory.status == 0, "\(memory.standardError)")
        #expect(try workspace.files() == ["digest.html", "feeds.json", "news.json", "notes.json"])

        let other = try TributaryProcess.run(["summary", "--state", "elsewhere.sqlite"], in: workspace.url)
        #expect(other.status == 0, "\(other.standardError)")
        #expect(workspace.exists("elsewhere.sqlite"))
        #expect(!workspace.exists(".tributary"))

        let both = try TributaryProcess.run(["digest", "--state", "x.sqlite", "--no-state"], in: workspace.url)
        #expect(both.status == 2)
        #expect(both.standardError.contains("--store and --no-state"))
    }

    @Test func theStateKeyOfFeedsJSONIsRelativeToItsDirectory() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write(
            "feeds.json",
            #"{ "state": "var/tributary.sqlite", "sources": [ { "id": "news", "kind": "json-file", "path": "news.json" } ] }"#
        )
        let result = try TributaryProcess.run(["digest", "-o", "-"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(workspace.exists("var/tributary.sqlite"))
        #expect(!workspace.exists(".tributary"))
    }

    @Test func sinceLastLeavesOutWhatThePreviousDigestShowed() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", EndToEndTests.healthyConfig)
        let first = try TributaryProcess.run(
            ["digest", "--format", "json", "-o", "-"],
            in: workspace.url,
            environment: ["SOURCE_DATE_EPOCH": "1795330800"]
        )
        #expect(first.status == 0, "\(first.standardError)")
        let second = try TributaryProcess.run(
            ["digest", "--format", "json", "-o", "-", "--since", "last"],
            in: workspace.url,
            environment: ["SOURCE_DATE_EPOCH": "1795334400"]
        )
        #expect(second.status == 0, "\(second.standardError)")
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(second.standardOutput.utf8))
        #expect(feed.items.isEmpty)
        let everything = try TributaryProcess.run(
            ["summary", "--since", "2026-01-01T00:00:00Z"],
            in: workspace.url,
            environment: ["SOURCE_DATE_EPOCH": "1795338000"]
        )
        #expect(everything.standardOutput.contains("Harbour reopens after the storm"))
        let bad = try TributaryProcess.run(["digest", "--since", "yesterday"], in: workspace.url)
        #expect(bad.status == 2)
    }

    @Test func aStoreThatCannotBeOpenedStopsTheRunBeforeAnythingIsWritten() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", EndToEndTests.healthyConfig)
        try workspace.write("broken.sqlite", String(repeating: "not a database. ", count: 20))
        let result = try TributaryProcess.run(["digest", "--state", "broken.sqlite"], in: workspace.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains("broken.sqlite: cannot open the state store"))
        #expect(result.standardError.contains("--no-state"))
        #expect(!workspace.exists("digest.html"))
        #expect(try workspace.read("broken.sqlite") == String(repeating: "not a database. ", count: 20))
    }

    @Test func aSecondRunWaitsForTheStoreAndGivesUpWithAClearMessage() async throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", EndToEndTests.healthyConfig)
        let storeURL = workspace.url.appendingPathComponent(".tributary/state.sqlite")
        // This test plays the first run: it holds the store's run lock.
        let holder = try await SQLiteStore.open(at: storeURL, runLockTimeout: .seconds(1))
        let refused = try TributaryProcess.run(["digest", "--state-timeout", "300ms"], in: workspace.url)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("another tributary run is using the state store"))
        #expect(refused.standardError.contains(storeURL.path))
        #expect(!workspace.exists("digest.html"))

        let release = Task {
            try await Task.sleep(for: .milliseconds(500))
            try await holder.close()
        }
        let waited = try TributaryProcess.run(["digest", "--state-timeout", "30s"], in: workspace.url)
        try await release.value
        #expect(waited.status == 0, "\(waited.standardError)")
        #expect(workspace.exists("digest.html"))
    }

    @Test func watchNoFetchShowsItemsAsTheyAreSavedWithoutFetching() async throws {
        let workspace = try Workspace()
        func feed(_ ids: [String]) throws {
            let items = ids.map { #"{ "id": "\#($0)", "title": "Story \#($0)", "url": "https://example.com/\#($0)" }"# }
            try workspace.write(
                "news.json",
                #"{ "version": "https://jsonfeed.org/version/1.1", "title": "news", "items": [\#(items.joined(separator: ","))] }"#
            )
        }
        try workspace.write(
            "feeds.json",
            #"{ "sources": [ { "id": "news", "kind": "json-file", "path": "news.json" } ] }"#
        )
        try feed(["old"])
        let realTime = ["SOURCE_DATE_EPOCH": ""]
        let first = try TributaryProcess.run(["summary"], in: workspace.url, environment: realTime)
        #expect(first.status == 0, "\(first.standardError)")
        try await Task.sleep(for: .milliseconds(600))
        let config = workspace.url.appendingPathComponent("feeds.json").path
        let store = workspace.url.appendingPathComponent(".tributary/state.sqlite").path
        let watcher = try RunningTributary(
            ["watch", "-c", config, "--store", store, "--no-fetch", "--interval", "300ms"],
            in: workspace.url,
            name: "watch"
        )
        // What another process saves shows up; what was there before the window does not.
        try feed(["old", "new"])
        let second = try TributaryProcess.run(["summary"], in: workspace.url, environment: realTime)
        #expect(second.status == 0, "\(second.standardError)")
        let shown = try await watcher.output(upTo: .seconds(10)) { $0.contains("Story new") }
        watcher.send(SIGTERM)
        let status = try await watcher.wait(upTo: .seconds(10))
        #expect(shown.contains("Story new"), "watch showed: \(shown) \(watcher.standardError)")
        #expect(!shown.contains("Story old"))
        #expect(status == 0, "\(watcher.standardError)")
    }
}
