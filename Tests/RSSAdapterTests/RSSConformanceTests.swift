import AdapterConformance
import Foundation
import RSSAdapter
import TestSupport
import Testing
import TributaryCore

/// The conformance kit over the parser's fixtures, read as local files by the `rss` source.
@Suite struct RSSConformanceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var expectation: ConformanceFixture.Expectation
        var expectsSeveralBatches = false

        var testDescription: String { name }
    }

    static let cases: [Case] =
        Fixture.feedNames.map { name in
            Case(
                name: name,
                expectation: name.hasPrefix("broken-") || name.hasPrefix("not-a-feed") ? .malformed : .items
            )
        } + [
            Case(name: "empty-channel.xml", expectation: .empty),
            Case(name: "missing.xml", expectation: .unreachable),
            Case(name: "generated-3000-items.xml", expectation: .items, expectsSeveralBatches: true),
        ]

    @Test(arguments: cases)
    func conformsToSourceContract(_ fixture: Case) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent(fixture.name)
            switch fixture.name {
            case "empty-channel.xml":
                try Data(
                    #"<?xml version="1.0"?><rss version="2.0"><channel><title>Nothing yet</title></channel></rss>"#.utf8
                )
                .write(to: file)
            case "generated-3000-items.xml":
                try Self.generatedFeed(items: 3000).write(to: file)
            case "missing.xml":
                break
            default:
                try Fixture.data(fixture.name).write(to: file)
            }
            let context = SourceContext(baseDirectory: directory)
            try await SourceConformance.check(
                { try RSSSource(id: "kit", options: RSSOptions(url: fixture.name), context: context) },
                fixture: ConformanceFixture(
                    fixture.name,
                    expectation: fixture.expectation,
                    expectsSeveralBatches: fixture.expectsSeveralBatches
                )
            )
        }
    }

    @Test func constructingAgainstAnUnreachableServerNeitherBlocksNorFails() async throws {
        // SRC-1: a closed port on loopback; init must not try to connect.
        let clock = ContinuousClock()
        let start = clock.now
        let source = try RSSSource(
            id: "kit",
            options: RSSOptions(url: "http://127.0.0.1:1/feed.xml"),
            context: SourceContext(baseDirectory: URL(fileURLWithPath: "/"))
        )
        #expect(source.id == "kit")
        #expect(clock.now - start < .milliseconds(250))
    }

    /// An RSS 2.0 feed large enough to arrive in several 64 KiB chunks.
    private static func generatedFeed(items: Int) -> Data {
        var text = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Generated</title>"#
        text += "<link>https://example.org/</link>"
        for index in 0..<items {
            text += "<item><title>Item \(index)</title><link>https://example.org/items/\(index)</link>"
            text += "<guid>https://example.org/items/\(index)</guid>"
            text += "<pubDate>Sun, 22 Nov 2026 05:\(String(format: "%02d", index % 60)):00 GMT</pubDate>"
            text += "<description>Text of item \(index), long enough to make the feed big.</description></item>"
        }
        text += "</channel></rss>"
        return Data(text.utf8)
    }
}
