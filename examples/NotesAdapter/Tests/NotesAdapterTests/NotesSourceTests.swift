import AdapterConformance
import Foundation
import NotesAdapter
import Testing
import TributaryCore

/// A fixture directory and what the conformance kit should expect of it.
struct Fixture: Sendable, CustomTestStringConvertible {
    var directory: String
    var expectation: ConformanceFixture.Expectation

    var testDescription: String { directory }

    static let all = [
        Fixture(directory: "notes", expectation: .items),
        Fixture(directory: "empty", expectation: .empty),
        Fixture(directory: "broken", expectation: .malformed),
        Fixture(directory: "missing", expectation: .unreachable),
    ]
}

@Suite struct NotesSourceTests {
    private var fixtures: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        }
    }

    @Test(arguments: Fixture.all)
    func conformsToSourceContract(_ f: Fixture) async throws {
        let context = SourceContext(baseDirectory: try fixtures)
        try await SourceConformance.check(
            { try NotesSource(id: "notes", options: NotesOptions(directory: f.directory), context: context) },
            fixture: ConformanceFixture(f.directory, expectation: f.expectation)
        )
    }

    @Test func aNoteBecomesAnItemWithItsHeadingAndDate() async throws {
        let source = try NotesSource(
            id: "notes",
            options: NotesOptions(directory: "notes"),
            context: SourceContext(baseDirectory: try fixtures)
        )
        let events = EventLog()
        try await source.run(into: EventSink { await events.append($0) })
        let items = await events.items
        #expect(items.map(\.title) == ["Project kickoff", "Ideas"])
        #expect(items.first?.datePublished == RFC3339.parse("2026-11-20T00:00:00Z"))
        #expect(items.first?.contentText == "We agreed on the feed list and the digest format.")
        #expect(items.last?.datePublished == nil)
    }
}

actor EventLog {
    private(set) var events: [SourceEvent] = []

    func append(_ event: SourceEvent) { events.append(event) }

    var items: [FeedItem] {
        events.flatMap { event -> [FeedItem] in
            if case .items(let items) = event { return items }
            return []
        }
    }
}
