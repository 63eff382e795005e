import Foundation
import Testing
import TributaryCore

@Suite struct FeedItemTests {
    static let fullItemJSON = """
        {
          "id": "https://example.org/posts/1",
          "url": "https://example.org/posts/1",
          "external_url": "https://elsewhere.example/story",
          "title": "Hello, world",
          "content_html": "<p>Hi <em>there</em></p>",
          "content_text": "Hi there",
          "summary": "A greeting",
          "image": "https://example.org/a.png",
          "banner_image": "https://example.org/b.png",
          "date_published": "2026-11-22T14:41:40+09:00",
          "date_modified": "2026-11-22T06:00:00.25Z",
          "authors": [{ "name": "Ann", "url": "https://ann.example", "avatar": "https://ann.example/a.png", "_email": "ann@example.org" }],
          "tags": ["swift", "日本語"],
          "language": "ja",
          "attachments": [{ "url": "https://example.org/ep1.mp3", "mime_type": "audio/mpeg", "title": "Episode 1", "size_in_bytes": 1234, "duration_in_seconds": 61.5 }],
          "_tributary": {
            "source": "reading-list",
            "origin": { "title": "Example News", "url": "https://news.example" },
            "related": [{ "title": "Other take", "url": "https://other.example/x", "publisher": "Other" }],
            "guid": "tag:example.org,2026:1",
            "first_seen": "2026-11-22T06:01:02Z",
            "also_in": [{ "source": "wire", "id": "w-1", "url": "https://example.org/posts/1" }]
          },
          "_podcast": { "explicit": false, "season": 2 }
        }
        """

    @Test func decodesEveryJSONFeedFieldAndConvertsDatesToUTC() throws {
        let item = try JSONDecoder().decode(FeedItem.self, from: Data(Self.fullItemJSON.utf8))
        #expect(item.id == "https://example.org/posts/1")
        #expect(item.externalURL == "https://elsewhere.example/story")
        #expect(item.datePublished == RFC3339.parse("2026-11-22T05:41:40Z"))
        #expect(
            item.dateModified?.timeIntervalSince1970 == RFC3339.parse("2026-11-22T06:00:00Z")!.timeIntervalSince1970
                + 0.25
        )
        #expect(
            item.authors == [
                .init(
                    name: "Ann",
                    url: "https://ann.example",
                    avatar: "https://ann.example/a.png",
                    email: "ann@example.org"
                )
            ]
        )
        #expect(item.tags == ["swift", "日本語"])
        #expect(item.attachments.first?.durationInSeconds == 61.5)
        #expect(item.tributary?.source == "reading-list")
        #expect(item.tributary?.origin?.title == "Example News")
        #expect(item.tributary?.related.first?.publisher == "Other")
        #expect(item.tributary?.alsoIn == [.init(source: "wire", id: "w-1", url: "https://example.org/posts/1")])
        #expect(item.extensions["_podcast"] == .object(["explicit": .bool(false), "season": .number(2)]))
    }

    @Test func roundTripsThroughJSONWithoutLoss() throws {
        let item = try JSONDecoder().decode(FeedItem.self, from: Data(Self.fullItemJSON.utf8))
        let encoded = try JSONEncoder().encode(item)
        let decoded = try JSONDecoder().decode(FeedItem.self, from: encoded)
        #expect(decoded == item)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"date_published\":\"2026-11-22T05:41:40Z\""))
        #expect(text.contains("\"_podcast\""))
        #expect(text.contains("\"_email\":\"ann@example.org\""))
    }

    @Test func mapsJSONFeed1_0AuthorAndNumericIDs() throws {
        let json = #"{"id": 42, "title": "Old", "author": {"name": "Bob"}}"#
        let item = try JSONDecoder().decode(FeedItem.self, from: Data(json.utf8))
        #expect(item.id == "42")
        #expect(item.authors == [.init(name: "Bob")])
    }

    @Test func rejectsDatesThatAreNotRFC3339() {
        let json = #"{"id": "x", "date_published": "Sun, 22 Nov 2026 05:41:40 GMT"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedItem.self, from: Data(json.utf8)) }
    }

    @Test func derivesStableIDsFromURLOrContent() {
        let linked = FeedItem(id: "", url: "https://example.org/a")
        #expect(linked.derivedID() == "https://example.org/a")
        let bare = FeedItem(id: "", title: "Title", datePublished: Date(timeIntervalSince1970: 0))
        #expect(bare.derivedID() == bare.derivedID())
        #expect(bare.derivedID().hasPrefix("tributary:"))
        #expect(
            bare.derivedID()
                != FeedItem(id: "", title: "Other", datePublished: Date(timeIntervalSince1970: 0)).derivedID()
        )
        // The hash is FNV-1a, fixed across processes and releases.
        #expect(StableHash.hex(of: "") == "cbf29ce484222325")
        #expect(StableHash.hex(of: "a") == "af63dc4c8601ec8c")
    }
}
