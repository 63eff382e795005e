import FeedParser
import Foundation
import JSONFileAdapter
import Testing
import TributaryCore

@Suite struct JSONFileSourceTests {
    @Test func kindIsJSONFile() {
        #expect(JSONFileSource.kind == "json-file")
    }

    // MARK: - Options

    @Test(arguments: ["", "   "])
    func initRejectsAnEmptyPath(_ path: String) throws {
        let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/nonexistent"))
        let error = try #require(throws: SourceOptionError.self) {
            try JSONFileSource(id: "reading-list", options: JSONFileOptions(path: path), context: context)
        }
        #expect(error.key == "path")
    }

    @Test func initTouchesNoFileSoAMissingFileFailsOnlyWhenRun() async throws {
        try await withTemporaryDirectory { directory in
            let context = SourceContext(baseDirectory: directory)
            // A missing file is not noticed before `run` (SRC-1); a path that leads outside by its spelling alone is
            // refused at once (no file is touched for that), so `validate` reports it at its key.
            _ = try JSONFileSource(id: "a", options: JSONFileOptions(path: "missing.json"), context: context)
            let error = #expect(throws: SourceOptionError.self) {
                _ = try JSONFileSource(id: "b", options: JSONFileOptions(path: "../outside.json"), context: context)
            }
            #expect(error?.key == "path")
        }
    }

    @Test func optionsDecodeFromAFeedsJSONEntry() throws {
        let entry = #"{ "id": "reading-list", "kind": "json-file", "path": "examples/reading-list.json" }"#
        let options = try JSONDecoder().decode(JSONFileSource.Options.self, from: Data(entry.utf8))
        #expect(options == JSONFileOptions(path: "examples/reading-list.json"))
    }

    // MARK: - Events

    @Test func eventsAreStartedThenItemsThenFinished() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.copy("every-field-1.1.json", into: directory)
            let events = try await runSource(path: "every-field-1.1.json", in: directory)
            #expect(events.count == 3)
            #expect(events.first == .started)
            #expect(events.last == .finished)
            #expect(events.items.map(\.id) == ["item-1"])
        }
    }

    @Test func emitsItemsInBatchesAndStampsTheSourceID() async throws {
        try await withTemporaryDirectory { directory in
            try generatedFeed(count: 250).write(to: directory.appendingPathComponent("big.json"))
            let events = try await runSource(path: "big.json", in: directory, id: "big-list")
            let batchSizes = events.compactMap { event -> Int? in
                if case .items(let items) = event { return items.count }
                return nil
            }
            #expect(batchSizes == [100, 100, 50])
            #expect(events.items.map(\.id) == (0..<250).map { "item-\($0)" })
            #expect(events.items.allSatisfy { $0.sourceID == "big-list" })
            #expect(events.first == .started)
            #expect(events.last == .finished)
        }
    }

    @Test func emptyItemsFinishesWithZeroItems() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.copy("empty-items.json", into: directory)
            let events = try await runSource(path: "empty-items.json", in: directory)
            #expect(events == [.started, .finished])
        }
    }

    @Test func aBadDateCostsTheDateWithAWarningAndNeverTheItem() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.copy("bad-date-item.json", into: directory)
            let events = try await runSource(path: "bad-date-item.json", in: directory)
            #expect(events.first == .started)
            #expect(events.last == .finished)
            #expect(events.items.map(\.id) == ["before", "bad", "after"])
            #expect(events.items[1].title == "Bad date")
            #expect(events.items[1].datePublished == nil)
            let warning = try #require(events.warnings.first)
            #expect(events.warnings.count == 1)
            #expect(warning.location == "items[1]")
            #expect(warning.message.contains("id \"bad\""))
            #expect(warning.message.contains("date_published"))
            #expect(warning.message.contains("last Tuesday"))
        }
    }

    @Test func missingIDsAreDerivedAndStableAcrossRuns() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.copy("missing-ids.json", into: directory)
            let first = try await runSource(path: "missing-ids.json", in: directory).items.map(\.id)
            let second = try await runSource(path: "missing-ids.json", in: directory).items.map(\.id)
            #expect(first == second)
            #expect(first.count == 4)
            #expect(first[0] == "https://example.org/no-id-with-url")
            #expect(first[1] == "tributary:" + StableHash.hex(of: "No URL\u{1F}2026-11-20T08:00:00Z"))
            #expect(first[2] == "tributary:" + StableHash.hex(of: "Empty id\u{1F}2026-11-19T08:00:00Z"))
            #expect(first[3] == "kept")
        }
    }

    // MARK: - Failures

    @Test func aMissingFileFailsWithThePathAsWritten() async throws {
        try await withTemporaryDirectory { directory in
            let events = try await runSource(path: "feeds/none.json", in: directory)
            #expect(events.count == 2)
            #expect(events.first == .started)
            #expect(events.failure == .fileNotFound(path: "feeds/none.json"))
        }
    }

    @Test func aDirectoryIsUnreadable() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("feed.json"),
                withIntermediateDirectories: false
            )
            let events = try await runSource(path: "feed.json", in: directory)
            guard case .unreadable(let path, let detail) = events.failure else {
                Issue.record("expected unreadable, got \(events)")
                return
            }
            #expect(path == "feed.json")
            #expect(detail.contains("directory"))
        }
    }

    @Test(.disabled(if: getuid() == 0, "root can read any file"))
    func aFileWithoutReadPermissionIsUnreadable() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("secret.json")
            try Fixture.data("empty-items.json").write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
            let events = try await runSource(path: "secret.json", in: directory)
            guard case .unreadable(let path, let detail) = events.failure else {
                Issue.record("expected unreadable, got \(events)")
                return
            }
            #expect(path == "secret.json")
            #expect(detail.contains("permission"))
        }
    }

    @Test func aFileOverTheSizeLimitIsRefusedWithoutReadingIt() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("huge.json")
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
            let handle = try FileHandle(forWritingTo: file)
            // A sparse file: large on paper, nothing on disk.
            try handle.truncate(atOffset: UInt64(JSONFeedDocumentReader.maximumFileSize + 1))
            try handle.close()
            let events = try await runSource(path: "huge.json", in: directory)
            #expect(events.failure == .tooLarge(limit: JSONFeedDocumentReader.maximumFileSize, unit: "bytes"))
        }
    }

    @Test(arguments: [
        ("trailing-comma.json", 5, 34, "trailing comma"),
        ("truncated.json", 6, 18, "no closing '\"' before the end of the file"),
        ("garbage-line-3.json", 3, 22, "found '@'"),
    ])
    func invalidJSONFailsWithLineAndColumn(_ fixture: String, _ line: Int, _ column: Int, _ detail: String)
        async throws
    {
        try await withTemporaryDirectory { directory in
            try Fixture.copy(fixture, into: directory)
            let events = try await runSource(path: fixture, in: directory)
            #expect(events.count == 2)
            guard case .invalidJSON(let path, let actualLine, let actualColumn, let actualDetail) = events.failure
            else {
                Issue.record("expected invalidJSON, got \(events)")
                return
            }
            #expect(path == fixture)
            #expect(actualLine == line)
            #expect(actualColumn == column)
            #expect(actualDetail.contains(detail))
        }
    }

    @Test func validJSONThatIsNotAFeedSaysWhatIsMissing() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.copy("not-a-feed.json", into: directory)
            let events = try await runSource(path: "not-a-feed.json", in: directory)
            guard case .notAFeed(let path, let detail) = events.failure else {
                Issue.record("expected notAFeed, got \(events)")
                return
            }
            #expect(path == "not-a-feed.json")
            #expect(detail.contains("no \"version\""))
            #expect(detail.contains("no \"items\" array"))
        }
    }

    // MARK: - Paths

    /// A directory holding feeds.json (`config/`) and, beside it, a feed that is outside it.
    private func makeConfigAndOutsideFeed(in directory: URL) throws -> (config: URL, outside: URL) {
        let config = directory.appendingPathComponent("config", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: false)
        let outside = directory.appendingPathComponent("outside.json")
        try Fixture.data("every-field-1.1.json").write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: config.appendingPathComponent("link.json"),
            withDestinationURL: outside
        )
        return (config, outside)
    }

    @Test func pathsEscapingTheConfigDirectoryAreRefused() async throws {
        try await withTemporaryDirectory { directory in
            let (config, outside) = try makeConfigAndOutsideFeed(in: directory)
            for path in ["../outside.json", outside.path, "./sub/../../outside.json"] {
                let context = SourceContext(baseDirectory: config)
                #expect(throws: SourceOptionError.self, "\(path)") {
                    _ = try JSONFileSource(id: "a", options: JSONFileOptions(path: path), context: context)
                }
            }
            // A symbolic link that leads outside is found when the source runs.
            let events = try await runSource(path: "link.json", in: config)
            #expect(events.count == 2)
            #expect(events.failure == .pathOutsideConfigDirectory(path: "link.json"))
            #expect(events.items.isEmpty)
        }
    }

    @Test func allowPathsOutsidePermitsThem() async throws {
        try await withTemporaryDirectory { directory in
            let (config, outside) = try makeConfigAndOutsideFeed(in: directory)
            for path in ["../outside.json", outside.path, "link.json"] {
                let events = try await runSource(path: path, in: config, allowsPathsOutside: true)
                #expect(events.last == .finished, "\(path)")
                #expect(events.items.map(\.id) == ["item-1"], "\(path)")
            }
        }
    }

    @Test func anAbsolutePathInsideTheConfigDirectoryIsAccepted() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.copy("empty-items.json", into: directory)
            let events = try await runSource(
                path: directory.appendingPathComponent("empty-items.json").path,
                in: directory
            )
            #expect(events == [.started, .finished])
        }
    }

    // MARK: - Cancellation

    @Test func aRunCancelledBeforeItStartsReturnsPromptly() async throws {
        try await withTemporaryDirectory { directory in
            try generatedFeed(count: 250).write(to: directory.appendingPathComponent("big.json"))
            let source = try JSONFileSource(
                id: "big",
                options: JSONFileOptions(path: "big.json"),
                context: SourceContext(baseDirectory: directory)
            )
            let recorder = EventRecorder()
            let clock = ContinuousClock()
            let start = clock.now
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await source.run(into: recorder.sink)
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            // A hang would last the hour (or minute) the source sleeps; 10 s tells the two apart even on a loaded CI
            // machine, where a 1 s bound failed under parallel test load.
            #expect(clock.now - start < .seconds(10))
            #expect(await recorder.events == [.started])
        }
    }

    @Test func cancellationBetweenBatchesStopsTheRun() async throws {
        try await withTemporaryDirectory { directory in
            try generatedFeed(count: 250).write(to: directory.appendingPathComponent("big.json"))
            let source = try JSONFileSource(
                id: "big",
                options: JSONFileOptions(path: "big.json"),
                context: SourceContext(baseDirectory: directory)
            )
            let recorder = EventRecorder()
            // The sink runs in the source's task: cancel that task as soon as the first batch arrives.
            let sink = EventSink { event in
                await recorder.append(event)
                if case .items = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
            let task = Task { try await source.run(into: sink) }
            await #expect(throws: CancellationError.self) { try await task.value }
            let events = await recorder.events
            #expect(events.count == 2)
            #expect(events.items.count == JSONFileSource.batchSize)
        }
    }

    // MARK: - Examples

    /// The repository root, found from this file's path (`Tests/JSONFileAdapterTests/…`).
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["examples/reading-list.json", "examples/swift-weekly.json"])
    func theExampleFeedsLoad(_ path: String) async throws {
        let events = try await runSource(path: path, in: Self.repositoryRoot, id: "example")
        #expect(events.first == .started)
        #expect(events.last == .finished)
        #expect(events.warnings.isEmpty)
        let items = events.items
        #expect((8...12).contains(items.count))
        #expect(Set(items.map(\.id)).count == items.count)
        for item in items {
            #expect(!item.id.isEmpty)
            #expect(item.sourceID == "example")
            #expect(item.datePublished != nil, "\(item.id)")
            #expect(item.title?.isEmpty == false)
            let url = try #require(item.url.flatMap(URL.init(string:)))
            #expect(url.scheme == "https")
            #expect(url.host?.hasSuffix("example.org") == true || url.host?.hasSuffix("example.com") == true)
        }
        #expect(items.contains { $0.language == "ja" || $0.tags.contains("日本語") })
    }

    @Test func theReadingListExampleIsJSONFeed11WithAnItemWithoutID() async throws {
        let data = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("examples/reading-list.json"))
        let raw = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(raw["version"] == .string("https://jsonfeed.org/version/1.1"))
        let rawItems = try #require(raw["items"]?.arrayValue)
        #expect(rawItems.filter { $0["id"] == nil }.count == 1)
        let (feed, warnings) = try JSONFeedDocumentReader.read(
            data: data,
            path: "examples/reading-list.json",
            sourceID: "reading-list"
        )
        #expect(warnings.isEmpty)
        #expect(feed.items.contains { !$0.attachments.isEmpty })
        #expect(feed.items.contains { $0.authors.count > 1 })
        #expect(feed.items.allSatisfy { !$0.tags.isEmpty })
    }

    @Test func theSwiftWeeklyExampleIsJSONFeed10WithAuthorAndNumericIDs() async throws {
        let data = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("examples/swift-weekly.json"))
        let raw = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(raw["version"] == .string("https://jsonfeed.org/version/1"))
        let rawItems = try #require(raw["items"]?.arrayValue)
        #expect(rawItems.allSatisfy { if case .number = $0["id"] { true } else { false } })
        let (feed, _) = try JSONFeedDocumentReader.read(data: data, path: nil, sourceID: "swift-weekly")
        #expect(feed.authors.first?.name == "Swift Weekly editors")
        #expect(feed.items.allSatisfy { $0.authors.count == 1 && Int($0.id) != nil })
    }
}
