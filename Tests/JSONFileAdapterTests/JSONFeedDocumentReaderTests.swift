import FeedParser
import Foundation
import JSONFileAdapter
import Testing
import TributaryCore

@Suite struct JSONFeedDocumentReaderTests {
    private func read(_ json: String, path: String? = "feed.json") throws -> (feed: JSONFeed, warnings: [SourceWarning])
    {
        try JSONFeedDocumentReader.read(data: Data(json.utf8), path: path, sourceID: "test")
    }

    private func readFixture(_ name: String) throws -> (feed: JSONFeed, warnings: [SourceWarning]) {
        try JSONFeedDocumentReader.read(data: Fixture.data(name), path: name, sourceID: "test")
    }

    /// The reason of the ``SourceError`` that reading `json` throws.
    private func failure(_ json: String) -> SourceError.Reason? {
        do {
            _ = try read(json)
            return nil
        } catch let error as SourceError {
            return error.reason
        } catch {
            return .other("unexpected \(error)")
        }
    }

    // MARK: - Decoding

    @Test func decodesEveryJSONFeed11Field() throws {
        let (feed, warnings) = try readFixture("every-field-1.1.json")
        #expect(warnings.isEmpty)
        #expect(feed.version == "https://jsonfeed.org/version/1.1")
        #expect(feed.title == "Every field")
        #expect(feed.homePageURL == "https://example.org/")
        #expect(feed.feedURL == "https://example.org/feed.json")
        #expect(feed.description == "A feed that uses every JSON Feed 1.1 field once.")
        #expect(feed.userComment == "Fixture for the json-file adapter.")
        #expect(feed.nextURL == "https://example.org/feed.json?page=2")
        #expect(feed.icon == "https://example.org/icon.png")
        #expect(feed.favicon == "https://example.org/favicon.png")
        #expect(
            feed.authors == [
                .init(name: "Feed Author", url: "https://example.org/author", avatar: "https://example.org/author.png")
            ]
        )
        #expect(feed.language == "en-GB")
        #expect(feed.expired == false)
        #expect(feed.extensions["_feed_extension"] == .object(["note": .string("kept")]))

        let item = try #require(feed.items.first)
        #expect(feed.items.count == 1)
        #expect(item.id == "item-1")
        #expect(item.url == "https://example.org/posts/1")
        #expect(item.externalURL == "https://example.com/original/1")
        #expect(item.title == "First post")
        #expect(item.contentHTML == "<p>Hello <em>world</em></p>")
        #expect(item.contentText == "Hello world")
        #expect(item.summary == "A greeting")
        #expect(item.image == "https://example.org/posts/1/image.png")
        #expect(item.bannerImage == "https://example.org/posts/1/banner.png")
        // 09:30 at +09:00 is 00:30 UTC; 01:15:30.5 at -03:30 is 04:45:30.5 UTC.
        #expect(item.datePublished == RFC3339.parse("2026-11-21T00:30:00Z"))
        #expect(item.dateModified == RFC3339.parse("2026-11-21T04:45:30.5Z"))
        #expect(
            item.authors == [
                .init(
                    name: "Ann Author",
                    url: "https://example.org/ann",
                    avatar: "https://example.org/ann.png",
                    email: "ann@example.org"
                ),
                .init(name: "Ben Writer"),
            ]
        )
        #expect(item.tags == ["swift", "feeds"])
        #expect(item.language == "en")
        #expect(
            item.attachments == [
                .init(
                    url: "https://example.org/posts/1/audio.mp3",
                    mimeType: "audio/mpeg",
                    title: "Audio",
                    sizeInBytes: 123_456,
                    durationInSeconds: 61.5
                )
            ]
        )
        #expect(item.extensions["_item_extension"] == .object(["rating": .number(5)]))
        #expect(item.sourceID == "test")
    }

    @Test func decodesJSONFeed10WithAuthorAndNumericIDs() throws {
        let (feed, warnings) = try readFixture("numeric-ids-1.0.json")
        #expect(warnings.isEmpty)
        #expect(feed.version == "https://jsonfeed.org/version/1")
        #expect(feed.authors == [.init(name: "Feed Editor", url: "https://example.com/editor")])
        // The id above 2^53 must survive exactly: it may never pass through a Double.
        #expect(feed.items.map(\.id) == ["1", "9007199254740993", "3"])
        #expect(feed.items[0].authors == [.init(name: "Dana", url: "https://example.com/dana")])
        #expect(feed.items[0].datePublished == RFC3339.parse("2026-11-20T18:00:00Z"))
        #expect(feed.items[1].authors.isEmpty)
    }

    @Test func decodesJapaneseTextAndEmoji() throws {
        let (feed, _) = try readFixture("unicode-ja.json")
        #expect(feed.title == "日本語のフィード")
        let item = try #require(feed.items.first)
        #expect(item.title == "東京で Swift の勉強会を開催")
        #expect(item.contentHTML == "<p>参加者は120名でした。絵文字もどうぞ 🎉</p>")
        #expect(item.authors.first?.name == "山田 太郎")
        #expect(item.tags == ["勉強会", "Swift"])
        #expect(item.datePublished == RFC3339.parse("2026-11-22T01:00:00Z"))
    }

    @Test func relativeURLsResolveAgainstTheHomePage() throws {
        let (feed, _) = try readFixture("relative-urls.json")
        let item = try #require(feed.items.first)
        #expect(item.url == "https://example.org/blog/posts/relative")
        #expect(item.externalURL == "https://example.org/elsewhere")
        #expect(item.image == "https://cdn.example.org/picture.png")
        #expect(item.authors.first?.url == "https://example.org/blog/about")
        #expect(item.authors.first?.avatar == "https://example.org/blog/avatar.png")
        #expect(item.attachments.first?.url == "https://example.org/blog/media/clip.mp4")
        // The id is derived after resolving, so it is the absolute URL.
        #expect(item.id == "https://example.org/blog/posts/relative")
        #expect(feed.items[1].url == "https://example.com/already/absolute")
    }

    @Test func relativeURLsFallBackToTheFeedURLAndStayAsWrittenWithoutABase() throws {
        let withFeedURL = try read(
            #"{"version":"https://jsonfeed.org/version/1.1","feed_url":"https://example.com/feeds/a.json","items":[{"id":"1","url":"b.html"}]}"#
        )
        #expect(withFeedURL.feed.items.first?.url == "https://example.com/feeds/b.html")
        let withoutBase = try read(
            #"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","url":"b.html"}]}"#
        )
        #expect(withoutBase.feed.items.first?.url == "b.html")
    }

    @Test func anItemThatIsNotAnObjectIsSkippedAndABadIDCostsOnlyTheID() throws {
        let (feed, warnings) = try read(
            #"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"a"},"oops",{"id":{"x":1},"title":"T"},{"id":"d"}]}"#
        )
        #expect(feed.items.count == 3)
        #expect(feed.items.first?.id == "a")
        #expect(feed.items.last?.id == "d")
        #expect(feed.items[1].title == "T")
        #expect(feed.items[1].id.hasPrefix("tributary:"))
        #expect(warnings.map(\.location) == ["items[1]", "items[2]"])
        #expect(warnings[0].message.contains("must be an object"))
        #expect(warnings[1].message.contains("id must be a string, not an object"))
    }

    /// Dates as WordPress plugins and other real feeds write them are read with the XML reader's date rules; one that
    /// no rule reads costs the date, never the item.
    @Test(arguments: [
        ("Fri, 31 May 2019 12:17:58 -0700", "2019-05-31T19:17:58Z"),
        ("2019-05-31T12:17:58-07:00", "2019-05-31T19:17:58Z"),
        ("2019-05-31 19:17:58", "2019-05-31T19:17:58Z"),
        ("2019-05-31", "2019-05-31T00:00:00Z"),
    ])
    func datesInEveryFormTheXMLReaderReadsAreRead(_ written: String, _ expected: String) throws {
        let (feed, warnings) = try read(
            #"{"version":"https://jsonfeed.org/version/1","items":[{"id":"1","date_published":"\#(written)","date_modified":"\#(written)"}]}"#
        )
        #expect(warnings.isEmpty)
        #expect(feed.items.first?.datePublished == RFC3339.parse(expected))
        #expect(feed.items.first?.dateModified == RFC3339.parse(expected))
    }

    @Test func anUnreadableDateIsLeftOutWithAWarningThatNamesTheItem() throws {
        let (feed, warnings) = try read(
            #"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"x","date_published":"soon","tags":["a",3]}]}"#
        )
        #expect(feed.items.map(\.id) == ["x"])
        #expect(feed.items.first?.datePublished == nil)
        #expect(feed.items.first?.tags == ["a"])
        #expect(warnings.map(\.location) == ["items[0]", "items[0]"])
        #expect(warnings[0].message == "date_published \"soon\" is not a date; left out (id \"x\")")
        #expect(warnings[1].message.hasPrefix("tags[1] must be a string, not a number"))
    }

    /// Titles are plain text: references are decoded once, markup written as text stays as written.
    @Test(arguments: [
        ("Caf&eacute; &#8211; &amp;lt;b&amp;gt;", "Café – &lt;b&gt;"),
        ("History of the <blink> tag", "History of the <blink> tag"),
        ("<script> considered harmful", "<script> considered harmful"),
        ("Using &lt;dialog&gt; in\n 2026", "Using <dialog> in 2026"),
    ])
    func titleReferencesAreDecodedAndMarkupKept(_ written: String, _ expected: String) throws {
        let json = try JSONEncoder().encode(["version": "https://jsonfeed.org/version/1.1", "title": "F"])
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        object["items"] = [["id": "1", "title": written, "summary": written]]
        let data = try JSONSerialization.data(withJSONObject: object)
        let (feed, _) = try JSONFeedDocumentReader.read(data: data, path: nil, sourceID: "test")
        #expect(feed.items.first?.title == expected)
        #expect(feed.items.first?.summary == expected)
    }

    // MARK: - Not a feed

    @Test(arguments: [
        (#"[1, 2, 3]"#, "the document is an array"),
        (#""just a string""#, "the document is a string"),
        (#"{"items": []}"#, "no \"version\""),
        (#"{"version": "https://example.org/feed", "items": []}"#, "\"version\" is \"https://example.org/feed\""),
        (#"{"version": 1.1, "items": []}"#, "\"version\" is a number"),
        (#"{"version": "https://jsonfeed.org/version/1.1"}"#, "no \"items\" array"),
        (#"{"version": "https://jsonfeed.org/version/1.1", "items": {}}"#, "\"items\" is an object, not an array"),
        (#"{"version": "https://jsonfeed.org/version/1.1", "title": 5, "items": []}"#, "title: must be a string"),
    ])
    func validJSONThatIsNotAFeedIsNamedSo(_ json: String, _ expected: String) {
        guard case .notAFeed(let path, let detail) = failure(json) else {
            Issue.record("expected notAFeed for \(json), got \(String(describing: failure(json)))")
            return
        }
        #expect(path == "feed.json")
        #expect(detail.contains(expected), "\(detail)")
    }

    // MARK: - Syntax errors

    @Test(arguments: [
        ("", 1, 1, "expected a JSON value, found the end of the file"),
        ("  \n ", 2, 2, "expected a JSON value, found the end of the file"),
        ("{\"a\": [1, 2,]}", 1, 12, "trailing comma before ']'"),
        ("{\r\n\"a\": 1,\r\n}", 2, 7, "trailing comma before '}'"),
        ("{\"タイトル\": x}", 1, 10, "invalid literal 'x'"),
        ("{\"タイトル\": @}", 1, 10, "expected a value, found '@'"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("{\"a\": 01}", 1, 7, "leading zero"),
        ("{\"a\": -}", 1, 8, "digit after '-'"),
        ("{\"a\": 1.}", 1, 9, "digit after the decimal point"),
        ("{\"a\": tru}", 1, 7, "invalid literal"),
        ("{\"a\": \"x\ty\"}", 1, 9, "control character"),
        ("{\"a\": \"open\n}", 1, 7, "no closing '\"' before the end of the line"),
        ("{\"a\": \"\\q\"}", 1, 8, "invalid escape '\\q'"),
        ("{\"a\": \"\\u12G4\"}", 1, 8, "\\u must be followed by four hex digits"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("{} {}", 1, 4, "after the end of the JSON value"),
        ("{\"a\": [1, 2", 1, 12, "expected ',' or ']' after array element, found the end of the file"),
        ("// comment\n{}", 1, 1, "comments are not allowed"),
        ("\u{FEFF}{\"a\":\n x}", 2, 2, "invalid literal 'x'"),
        ("{\"a\": 1e400}", 1, 7, "number 1e400 is out of range"),
    ])
    func syntaxErrorsNameTheExactLineAndColumn(_ json: String, _ line: Int, _ column: Int, _ detail: String) {
        guard case .invalidJSON(let path, let actualLine, let actualColumn, let actualDetail) = failure(json) else {
            Issue.record("expected invalidJSON for \(json.debugDescription), got \(String(describing: failure(json)))")
            return
        }
        #expect(path == "feed.json")
        #expect(actualLine == line)
        #expect(actualColumn == column)
        #expect(actualDetail.contains(detail), "\(actualDetail)")
    }

    @Test func aKeyThatAppearsTwiceIsReadAsOtherReadersReadIt() throws {
        // RFC 8259 only says names SHOULD be unique; feeds.json refuses duplicates, feeds from elsewhere do not.
        let json =
            #"{"version": "https://jsonfeed.org/version/1.1", "title": "A", "title": "B", "items": [{"id": "1", "content_text": "x"}]}"#
        let document = try JSONFeedDocumentReader.read(data: Data(json.utf8), path: "feed.json", sourceID: "s")
        #expect(["A", "B"].contains(document.feed.title))
        #expect(document.feed.items.map(\.id) == ["1"])
    }

    @Test func invalidUTF8IsASyntaxError() {
        var bytes = Array(#"{"version": ""#.utf8)
        bytes += [0xC3, 0x28]  // a two-byte lead followed by a non-continuation byte
        bytes += Array(#"", "items": []}"#.utf8)
        let error = #expect(throws: SourceError.self) {
            try JSONFeedDocumentReader.read(data: Data(bytes), path: nil, sourceID: "test")
        }
        guard case .invalidJSON(nil, 1, 14, let detail) = error?.reason else {
            Issue.record("expected invalidJSON at 1:14, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("UTF-8"))
    }

    @Test func utf16IsRefusedWithAFix() throws {
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": []}"#
        let data = try #require(json.data(using: .utf16))
        let error = #expect(throws: SourceError.self) {
            try JSONFeedDocumentReader.read(data: data, path: nil, sourceID: "test")
        }
        guard case .invalidJSON(_, 1, 1, let detail) = error?.reason else {
            Issue.record("expected invalidJSON at 1:1, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("save it as UTF-8"))
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        guard case .invalidJSON(_, 1, let column, let detail) = failure(json) else {
            Issue.record("expected invalidJSON")
            return
        }
        #expect(column == 513)
        #expect(detail.contains("nest deeper than 512 levels"))
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let json = "\u{FEFF}" + #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "x"}]}"#
        #expect(try read(json).feed.items.map(\.id) == ["x"])
    }

    @Test func theErrorDescriptionNamesSourceFileLineAndColumn() throws {
        let error = #expect(throws: SourceError.self) {
            try JSONFeedDocumentReader.read(data: Fixture.data("garbage-line-3.json"), path: "g.json", sourceID: "gl")
        }
        #expect(error?.description.hasPrefix("source 'gl': g.json:3:22: invalid JSON: ") == true)
    }
}
