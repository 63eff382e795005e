import AdapterConformance
import Foundation
import JSONFileAdapter
import Testing
import TributaryCore

/// Records every event a source sends, in order.
actor EventRecorder {
    private(set) var events: [SourceEvent] = []

    func append(_ event: SourceEvent) {
        events.append(event)
    }

    /// A sink that records into this recorder.
    nonisolated var sink: EventSink {
        EventSink { event in await self.append(event) }
    }
}

/// A fresh directory under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("jsonfile-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A fixture file and what the conformance kit should expect of it.
struct Fixture: Sendable, CustomTestStringConvertible {
    /// The file in `Fixtures/` (or, for `missing.json` and `generated-250.json`, the name the test gives it).
    var name: String
    var expectation: ConformanceFixture.Expectation
    var expectsSeveralBatches = false
    var inputDates: ClosedRange<Date>? = nil

    var testDescription: String { name }

    /// What the kit is told about this fixture.
    var conformance: ConformanceFixture {
        ConformanceFixture(
            name,
            expectation: expectation,
            expectsSeveralBatches: expectsSeveralBatches,
            inputDates: inputDates
        )
    }

    /// Every fixture, plus a missing file and a generated feed large enough for several batches.
    static let all: [Fixture] = [
        Fixture(
            name: "bad-date-item.json",
            expectation: .malformed,
            inputDates: dates("2026-11-20T08:00:00Z", "2026-11-21T07:00:00Z")
        ),
        Fixture(name: "empty-items.json", expectation: .empty),
        Fixture(
            name: "every-field-1.1.json",
            expectation: .items,
            inputDates: dates("2026-11-21T00:30:00Z", "2026-11-21T04:45:30.5Z")
        ),
        Fixture(name: "garbage-line-3.json", expectation: .malformed),
        Fixture(
            name: "missing-ids.json",
            expectation: .items,
            inputDates: dates("2026-11-19T08:00:00Z", "2026-11-20T08:00:00Z")
        ),
        Fixture(name: "not-a-feed.json", expectation: .malformed),
        Fixture(
            name: "numeric-ids-1.0.json",
            expectation: .items,
            inputDates: dates("2026-11-20T18:00:00Z", "2026-11-20T18:00:00Z")
        ),
        Fixture(name: "relative-urls.json", expectation: .items),
        Fixture(name: "trailing-comma.json", expectation: .malformed),
        Fixture(name: "truncated.json", expectation: .malformed),
        Fixture(
            name: "unicode-ja.json",
            expectation: .items,
            inputDates: dates("2026-11-22T01:00:00Z", "2026-11-22T01:00:00Z")
        ),
        Fixture(name: "missing.json", expectation: .unreachable),
        Fixture(name: "generated-250.json", expectation: .items, expectsSeveralBatches: true),
    ]

    private static func dates(_ first: String, _ last: String) -> ClosedRange<Date> {
        (RFC3339.parse(first) ?? .distantPast)...(RFC3339.parse(last) ?? .distantFuture)
    }

    /// Puts the fixture's input into `directory`: a copy of the file, a generated feed, or nothing for a missing
    /// file.
    func prepare(in directory: URL) throws {
        switch name {
        case "missing.json": break
        case "generated-250.json": try generatedFeed(count: 250).write(to: directory.appendingPathComponent(name))
        default: try Self.copy(name, into: directory)
        }
    }

    /// The bytes of `Fixtures/<name>`.
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return try Data(contentsOf: url)
    }

    /// Copies `Fixtures/<name>` into `directory` under the same name.
    static func copy(_ name: String, into directory: URL) throws {
        try data(name).write(to: directory.appendingPathComponent(name))
    }
}

/// Runs a `json-file` source reading `path` from `directory` and returns what it sent.
func runSource(
    path: String,
    in directory: URL,
    allowsPathsOutside: Bool = false,
    id: SourceID = "reading-list"
) async throws -> [SourceEvent] {
    let context = SourceContext(baseDirectory: directory, allowsPathsOutsideBaseDirectory: allowsPathsOutside)
    let source = try JSONFileSource(id: id, options: JSONFileOptions(path: path), context: context)
    let recorder = EventRecorder()
    try await source.run(into: recorder.sink)
    return await recorder.events
}

extension [SourceEvent] {
    /// Every item in every `items` event, in order.
    var items: [FeedItem] {
        flatMap { event -> [FeedItem] in
            if case .items(let items) = event { return items }
            return []
        }
    }

    /// Every warning, in order.
    var warnings: [SourceWarning] {
        compactMap { event in
            if case .warning(let warning) = event { return warning }
            return nil
        }
    }

    /// The reason of the `failed` event, if there is one.
    var failure: SourceError.Reason? {
        for case .failed(let error) in self { return error.reason }
        return nil
    }
}

/// A JSON Feed 1.1 document with `count` simple items whose ids are `item-0`, `item-1`, …
func generatedFeed(count: Int) -> Data {
    let items = (0..<count).map { index in
        #"{ "id": "item-\#(index)", "url": "https://example.org/items/\#(index)", "title": "Item \#(index)" }"#
    }
    let document =
        #"{ "version": "https://jsonfeed.org/version/1.1", "title": "Generated", "items": ["#
        + items.joined(separator: ",\n") + "] }"
    return Data(document.utf8)
}
