import Foundation
import Renderers
import Testing
import TributaryCore

@Suite struct JSONFeedRendererTests {
    @Test func writesTheEntriesAsAJSONFeed1_1Document() throws {
        let item = FeedItem(id: "a", url: "https://example.org/a", title: "A", tributary: .init(source: "s"))
        let digest = Digest(
            title: "T",
            generatedAt: Date(timeIntervalSince1970: 0),
            generatedAtText: "",
            generatedAtISO: "",
            timeZoneIdentifier: "UTC",
            sources: [],
            days: [
                .init(
                    id: "1970-01-01",
                    heading: "",
                    entries: [.init(item: item, title: "A", url: item.url, sourceID: "s", sourceTitle: "s")]
                )
            ]
        )
        let output = try JSONFeedRenderer().render(digest)
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(output.utf8))
        #expect(feed.version == JSONFeed.version1_1)
        #expect(feed.items == [item])
    }
}
