import Foundation
import Renderers
import Testing
import TributaryCore

@Suite struct JSONFeedRendererTests {
    private func digest(of items: [FeedItem]) -> Digest {
        Digest(
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
                    entries: items.map {
                        .init(item: $0, title: $0.title ?? "", url: $0.url, sourceID: "s", sourceTitle: "s")
                    }
                )
            ]
        )
    }

    @Test func writesTheEntriesAsAJSONFeed1_1DocumentInDigestOrder() throws {
        let first = FeedItem(
            id: "b",
            url: "https://example.org/b",
            title: "B",
            contentHTML: "<p>b</p>",
            datePublished: Date(timeIntervalSince1970: 100),
            tributary: .init(source: "s")
        )
        let second = FeedItem(id: "a", url: "https://example.org/a", contentText: "a", tributary: .init(source: "s"))
        let output = try JSONFeedRenderer().render(digest(of: [first, second]))
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(output.utf8))
        #expect(feed.version == JSONFeed.version1_1)
        #expect(feed.title == "T")
        #expect(feed.items == [first, second])
        #expect(output.hasSuffix("}\n"))
    }

    /// JSON Feed 1.1 requires `content_html` or `content_text`: an item with neither gets an empty `content_text`
    /// ("no content"), not its title or summary repeated as a body; its other fields are unchanged.
    @Test func anItemWithoutContentGetsAnEmptyTextAsJSONFeedRequires() throws {
        let items = [
            FeedItem(id: "1", title: "Only a title"),
            FeedItem(id: "2", title: "Title", summary: "A summary"),
            FeedItem(id: "3", url: "https://example.org/3"),
        ]
        let output = try JSONFeedRenderer().render(digest(of: items))
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(output.utf8))
        #expect(feed.items.map(\.contentText) == ["", "", ""])
        #expect(feed.items.map(\.contentHTML) == [nil, nil, nil])
        #expect(feed.items.map(\.title) == ["Only a title", "Title", nil])
        #expect(feed.items.map(\.summary) == [nil, "A summary", nil])
    }
}
