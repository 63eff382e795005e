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
        // Episodes with nothing but their enclosure have one id each; an item without enclosures keeps the id it had.
        var first = FeedItem(id: "")
        first.attachments = [FeedItem.Attachment(url: "https://example.org/ep1.mp3")]
        var second = FeedItem(id: "")
        second.attachments = [FeedItem.Attachment(url: "https://example.org/ep2.mp3")]
        #expect(first.derivedID() != second.derivedID())
        #expect(first.derivedID() != FeedItem(id: "").derivedID())
        #expect(FeedItem(id: "").derivedID() == "tributary:" + StableHash.hex(of: "\u{1F}\u{1F}"))
        // The hash is FNV-1a, fixed across processes and releases.
        #expect(StableHash.hex(of: "") == "cbf29ce484222325")
        #expect(StableHash.hex(of: "a") == "af63dc4c8601ec8c")
    }

    /// `TributaryExtension` keeps its fields behind one shared reference until a copy changes: each copy must still
    /// behave as a value of its own.
    @Test func anExtensionsCopiesChangeIndependently() {
        let original = TributaryExtension(
            source: "wire",
            origin: .init(title: "Example News", url: "https://news.example"),
            links: [.init(rel: "alternate", url: "https://example.org/a")],
            details: .init(license: "CC-BY")
        )
        var copy = original
        #expect(copy == original)
        copy.links.append(.init(rel: "related", url: "https://example.org/b"))
        copy.origin?.title = "Changed"
        copy.license = "CC0"
        copy.alsoIn.append(.init(source: "other", id: "1"))
        #expect(original.links.map(\.url) == ["https://example.org/a"])
        #expect(original.origin?.title == "Example News")
        #expect(original.license == "CC-BY")
        #expect(original.alsoIn.isEmpty)
        #expect(copy.links.map(\.url) == ["https://example.org/a", "https://example.org/b"])
        #expect(copy.origin?.title == "Changed")
        #expect(copy.license == "CC0")
        #expect(copy != original)

        // Equal and equally hashed when built apart with the same fields.
        let twin = TributaryExtension(
            source: "wire",
            origin: .init(title: "Example News", url: "https://news.example"),
            links: [.init(rel: "alternate", url: "https://example.org/a")],
            details: .init(license: "CC-BY")
        )
        #expect(twin == original)
        #expect(twin.hashValue == original.hashValue)
        #expect(Set([twin, original, copy]).count == 2)
    }

    /// `FeedItem` keeps its fields behind one shared reference too (``CopyOnWrite``): a copy handed to another
    /// task or stage and then changed must leave the original as it was, across threads as well.
    @Test func anItemsCopiesChangeIndependently() async {
        func sample() -> FeedItem {
            FeedItem(
                id: "a",
                url: "https://example.org/a",
                title: "Title",
                tags: ["one"],
                tributary: TributaryExtension(source: "wire", alsoIn: [])
            )
        }
        let original = sample()
        var copy = original
        #expect(copy == original)
        copy.title = "Changed"
        copy.tags.append("two")
        copy.tributary?.alsoIn.append(.init(source: "other", id: "1"))
        copy.extensions["_x"] = .string("y")
        #expect(original.title == "Title")
        #expect(original.tags == ["one"])
        #expect(original.tributary?.alsoIn.isEmpty == true)
        #expect(original.extensions.isEmpty)
        #expect(copy.tags == ["one", "two"])
        #expect(copy != original)

        // Changed on other threads at once, each copy stays its own.
        let changed = await withTaskGroup(of: FeedItem.self) { group in
            for index in 0..<32 {
                group.addTask {
                    var mine = original
                    mine.tags.append("tag \(index)")
                    return mine
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(changed.map(\.tags)).count == 32)
        #expect(original.tags == ["one"])

        // Equal and equally hashed when built apart with the same fields.
        let twin = sample()
        #expect(twin == original)
        #expect(twin.hashValue == original.hashValue)
        #expect(Set([twin, original, copy]).count == 2)
    }

    @Test func removeUnsafeURLsLeavesOutEachUnsafeURLNamesItAndLeavesCopiesAlone() {
        let bad = "javascript:alert(1)"
        let good = "https://example.org/ok"
        var item = FeedItem(
            id: "1",
            url: bad,
            externalURL: good,
            image: bad,
            bannerImage: "data:text/html,x",
            authors: [.init(name: "Ann", url: bad, avatar: good)],
            attachments: [.init(url: bad), .init(url: good)],
            tributary: TributaryExtension(
                origin: .init(url: bad, icon: good, logo: bad, links: [.init(rel: "self", url: bad)]),
                related: [.init(title: "Other", url: bad), .init(title: "Fine", url: good)],
                links: [.init(rel: "alternate", url: good), .init(rel: "related", url: bad)],
                comments: bad,
                commentsFeed: good
            )
        )
        let before = item
        let removed = item.removeUnsafeURLs()
        #expect(
            removed == [
                "url \"\(bad)\"", "image \"\(bad)\"", "banner_image \"data:text/html,x\"",
                "attachment url \"\(bad)\"", "author url \"\(bad)\"", "origin url \"\(bad)\"",
                "origin logo \"\(bad)\"", "origin link url \"\(bad)\"", "related url \"\(bad)\"",
                "link url \"\(bad)\"", "comments \"\(bad)\"",
            ]
        )
        #expect(item.url == nil && item.image == nil && item.bannerImage == nil)
        #expect(item.externalURL == good)
        #expect(item.attachments.map(\.url) == [good])
        #expect(item.authors.first?.url == nil && item.authors.first?.avatar == good)
        #expect(item.tributary?.origin?.url == nil && item.tributary?.origin?.logo == nil)
        #expect(item.tributary?.origin?.icon == good && item.tributary?.origin?.links == [])
        #expect(item.tributary?.related.map(\.url) == [nil, good])
        #expect(item.tributary?.links.map(\.url) == [good])
        #expect(item.tributary?.comments == nil && item.tributary?.commentsFeed == good)
        // The copy taken before shares the extension's fields: it must keep every URL.
        #expect(before.url == bad && before.tributary?.comments == bad)
        #expect(before.tributary?.origin?.url == bad && before.tributary?.links.count == 2)

        // An item with nothing to leave out is left as it was.
        var clean = FeedItem(id: "2", url: good, tributary: TributaryExtension(comments: good))
        let cleanBefore = clean
        #expect(clean.removeUnsafeURLs().isEmpty)
        #expect(clean == cleanBefore)
    }
}
