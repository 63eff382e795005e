import Foundation
import Testing
import TributaryCore

@Suite struct JSONFeedWriterTests {
    private static let awkward = [
        "plain", "", "quote \" backslash \\ slash / </script><script>alert(1)</script>", "tab\tnewline\nreturn\r",
        "controls \u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}\u{7F}", "emoji 😀👩‍👩‍👧 flags 🇯🇵", "日本語 テキスト",
        "line sep \u{2028} para \u{2029}",
        "e\u{301} combining", "\u{FEFF}bom", "</", "<\\/", "€ £ ¥ ©",
    ]

    private func everyFieldItem(_ index: Int, _ text: String) -> FeedItem {
        FeedItem(
            id: "id-\(index)-\(text)",
            url: "https://example.com/\(index)?a=1&b=2",
            externalURL: "https://external.example.com/\(text)",
            title: text,
            contentHTML: "<p>\(text)</p>",
            contentText: text,
            summary: text,
            image: "https://example.com/\(index).png",
            bannerImage: "https://example.com/banner.png",
            datePublished: Date(timeIntervalSince1970: 1_795_000_000 + Double(index)),
            dateModified: Date(timeIntervalSince1970: 1_795_000_000.25 + Double(index) * 0.5),
            authors: [
                FeedItem.Author(
                    name: text,
                    url: "https://a.example.com",
                    avatar: "https://a.example.com/a.png",
                    email: "a@b.c"
                ),
                FeedItem.Author(name: "second"),
            ],
            tags: [text, "tag"],
            language: "ja",
            attachments: [
                FeedItem.Attachment(
                    url: "https://cdn.example.com/\(index).mp3",
                    mimeType: "audio/mpeg",
                    title: text,
                    sizeInBytes: 123_456_789,
                    durationInSeconds: 3723.5
                ),
                FeedItem.Attachment(url: "https://cdn.example.com/x", durationInSeconds: 60),
            ],
            tributary: TributaryExtension(
                source: "google-news-jp",
                origin: TributaryExtension.Origin(
                    title: text,
                    url: "https://publisher.example.com",
                    subtitle: text,
                    rights: "rights \(text)",
                    subtitleHTML: "<b>\(text)</b>",
                    rightsHTML: "<a href=\"https://creativecommons.org/\">\(text)</a>"
                ),
                related: [TributaryExtension.RelatedLink(title: text, url: "https://r.example.com", publisher: "P")],
                guid: "guid \(text)",
                firstSeen: Date(timeIntervalSince1970: 1_795_000_001),
                alsoIn: [TributaryExtension.ItemReference(source: "other", id: "x", url: "https://o.example.com")],
                rights: "rights \(text)",
                contributors: [FeedItem.Author(name: text, email: "c@example.com")],
                links: [TributaryExtension.Link(rel: "related", url: "https://l.example.com", title: text)],
                categories: [.init(term: text, scheme: "https://s.example/", label: text), .init(term: "plain")],
                comments: "https://blog.example.com/\(index)#comments",
                commentsFeed: "https://blog.example.com/\(index)/feed",
                itunes: TributaryExtension.ITunes(block: "no", explicit: " \(text) "),
                where: .object(["type": .string("Point"), "coordinates": .array([.number(31.1732), .number(-36.5)])]),
                details: .init(
                    license: "https://creativecommons.org/licenses/by/4.0/",
                    languages: ["title": "", "content": text, text: "de"],
                    bases: ["summary": "https://b.example.com/\(index)/", text: "https://c.example.com/"],
                    rightsHTML: "<a href=\"https://creativecommons.org/\">\(text)</a>",
                    commentsAPI: "https://blog.example.com/comments?post=\(index)"
                )
            ),
            extensions: [
                "_podcast": .object(["episode": .number(12), "explicit": .bool(false), "n": .null, "s": .string(text)]),
                "_list": .array([.number(1.5), .string(text), .array([])]),
            ]
        )
    }

    /// Dates are written by RFC3339's writer in place: whole seconds, a fraction with its trailing zeros dropped,
    /// before 1970, and a year past 9999 with every digit.
    @Test func datesAreWrittenInRFC3339() {
        func written(_ seconds: TimeInterval) -> String {
            let item = FeedItem(id: "d", datePublished: Date(timeIntervalSince1970: seconds))
            return String(decoding: JSONFeedWriter.encode(item), as: UTF8.self)
        }
        #expect(written(1_795_326_100).contains(#""date_published":"2026-11-22T05:41:40Z""#))
        #expect(written(1_795_326_100.25).contains(#""date_published":"2026-11-22T05:41:40.25Z""#))
        #expect(written(-1).contains(#""date_published":"1969-12-31T23:59:59Z""#))
        #expect(written(253_402_300_800).contains(#""date_published":"10000-01-01T00:00:00Z""#))
    }

    @Test func outputDecodesToTheSameFeedAsTheCodableEncoding() throws {
        var items: [FeedItem] = []
        for (index, text) in Self.awkward.enumerated() {
            items.append(everyFieldItem(index, text))
            items.append(FeedItem(id: text.isEmpty ? "empty" : text))  // only the required field
            items.append(FeedItem(id: "\(index)", title: text, datePublished: Date(timeIntervalSince1970: -86_401)))
        }
        let feed = JSONFeed(
            title: "Feed \u{1} </script> 😀",
            homePageURL: "https://example.com/",
            feedURL: "https://example.com/feed.json",
            description: "desc\n",
            userComment: "comment",
            nextURL: "https://example.com/2",
            icon: "https://example.com/i.png",
            favicon: "https://example.com/f.ico",
            authors: [FeedItem.Author(name: "A", email: "a@example.com")],
            language: "en",
            expired: false,
            items: items,
            extensions: ["_ext": .string("x")]
        )
        let written = JSONFeedWriter.encode(feed)
        let decoded = try JSONDecoder().decode(JSONFeed.self, from: Data(written))
        let viaCodable = try JSONDecoder().decode(JSONFeed.self, from: JSONEncoder().encode(feed))
        #expect(decoded == viaCodable)
        #expect(decoded == feed)
    }

    /// The store reads items back with ``FeedItem/init(json:)``: it must read exactly what `JSONDecoder` reads,
    /// from the writer's output and from JSON written by others (escapes, JSON Feed 1.0's `author`, numeric ids).
    @Test func theItemReaderReadsWhatJSONDecoderReads() throws {
        var items: [FeedItem] = []
        for (index, text) in Self.awkward.enumerated() {
            items.append(everyFieldItem(index, text))
            items.append(FeedItem(id: text.isEmpty ? "empty" : text))
            items.append(FeedItem(id: "\(index)", title: text, datePublished: Date(timeIntervalSince1970: -86_401)))
        }
        for item in items {
            let json = String(decoding: JSONFeedWriter.encode(item), as: UTF8.self)
            let ours = try #require(FeedItem(json: json), "\(json)")
            #expect(ours == (try JSONDecoder().decode(FeedItem.self, from: Data(json.utf8))))
            #expect(ours == item)
        }
        let handWritten = [
            #"{"id": 42, "title": "\u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t", "author": {"name": "A"}}"#,
            #"{"id": 1.5, "authors": null, "author": {"name": "B", "_email": "b@e"}, "tags": [], "_x": [1, -2.5e3, true, null, {}]}"#,
            #" { "id" : "x" , "attachments" : [ { "url" : "u" , "size_in_bytes" : 10 } ] , "_tributary" : { "source" : "s" } } "#,
            #"{"id": null, "date_published": "2026-11-25T07:00:00+09:00", "_tributary": {"first_seen": "not a date"}}"#,
            // A date with an escape, and with white space around it.
            #"{"id": "d", "date_published": "2026-11-25T07:00:00\u002B09:00", "date_modified": " 2026-11-25 "}"#,
            #"{"id": "n", "_tributary": null, "date_modified": null, "title": null}"#,
            #"""
            {"id": "t", "_tributary": {"origin": null, "publisher": {"name": "P"}, "where": null, "unknown": [1, {"a": 2}],
             "also_in": [{"source": "s", "id": "i"}], "created": "2026-11-01", "languages": {"title": "fr"},
             "chapters": {"url": "c"}, "source": "s"}, "_x": null}
            """#,
        ]
        for json in handWritten {
            let ours = try #require(FeedItem(json: json), "\(json)")
            let theirs = try JSONDecoder().decode(FeedItem.self, from: Data(json.utf8))
            #expect(ours == theirs, "\(json)\n\(ours)\n\(theirs)")
        }
    }

    /// Strings are scanned sixteen bytes at a time: an escape, a quote or a control character at any place of a
    /// string (both sides of a sixteen-byte step, and in the bytes after the last one) is read as `JSONDecoder`
    /// reads it.
    @Test func stringsAreReadWithAnEscapeOrAControlAtAnyPlace() throws {
        for length in [1, 15, 16, 17, 31, 32, 33, 47] {
            for position in 0..<length {
                let before = String(repeating: "a", count: position)
                let after = String(repeating: "b", count: length - position - 1)
                for escape in [#"\n"#, #"\""#, #"\\"#, #"\/"#, #"\u00e9"#] {
                    let json = #"{"id": "x", "title": "\#(before)\#(escape)\#(after)"}"#
                    let ours = try #require(FeedItem(json: json), "\(json)")
                    #expect(ours == (try JSONDecoder().decode(FeedItem.self, from: Data(json.utf8))), "\(json)")
                }
                let withControl = "{\"id\": \"x\", \"title\": \"\(before)\u{1}\(after)\"}"
                #expect(FeedItem(json: withControl) == nil, "\(withControl)")
                #expect((try? JSONDecoder().decode(FeedItem.self, from: Data(withControl.utf8))) == nil)
                let unterminated = "{\"id\": \"x\", \"title\": \"\(before)\(after)"
                #expect(FeedItem(json: unterminated) == nil, "\(unterminated)")
            }
        }
    }

    /// What `JSONDecoder` refuses, the reader refuses too (the store then asks `JSONDecoder` for its error).
    @Test(arguments: [
        "", "{", "[]", #"{"id": "a"} x"#, #"{"id": true}"#, #"{"id": "a", "title": 5}"#,
        #"{"id": "a", "date_published": "yesterday"}"#, #"{"id": "a", "attachments": [{"title": "no url"}]}"#,
        #"{"id": "\ud800"}"#, #"{"id": "a\x"}"#, "{\"id\": \"tab\there\"}", #"{"id": 01}"#,
        #"{"id": "a", "tags": [1]}"#,
        #"{"id": "a", "_tributary": {"source": 3}}"#,
        #"{"id": "a", "_tributary": 5}"#,
        #"{"id": "a", "date_modified": 5}"#, #"{"id": "a", "_tributary": {"also_in": [{"id": "x"}]}}"#,
        #"{"id": "a" "title": "b"}"#, #"{"id": "a", "_tributary": {"guid": "g"}"#,
    ])
    func theItemReaderRefusesWhatJSONDecoderRefuses(_ json: String) {
        #expect(FeedItem(json: json) == nil)
        #expect((try? JSONDecoder().decode(FeedItem.self, from: Data(json.utf8))) == nil)
    }

    @Test func streamingPiecesMatchTheWholeDocument() throws {
        let items = (0..<50).map { everyFieldItem($0, Self.awkward[$0 % Self.awkward.count]) }
        let header = JSONFeed(title: "T", items: [])
        var writer = JSONFeedWriter()
        var buffer: [UInt8] = []
        writer.writeHeader(of: header, into: &buffer)
        for item in items { writer.writeItem(item, into: &buffer) }
        writer.writeFooter(into: &buffer)
        #expect(writer.writtenItems == 50)
        var whole = header
        whole.items = items
        #expect(buffer == JSONFeedWriter.encode(whole))
        #expect(try JSONDecoder().decode(JSONFeed.self, from: Data(buffer)).items == items)
    }

    /// `content_html` given as UTF-8 (the sanitizer's bytes in `tributary parse`) is written exactly as the item
    /// holding it as a `String` would be, in place of the item's own, and escaped the same way.
    @Test func contentHTMLGivenAsUTF8IsWrittenAsTheItemHoldingIt() {
        for (index, text) in Self.awkward.enumerated() {
            let html = "<a href=\"https://example.com/?a=1&b=2\">\(text)</a>"
            for var item in [
                everyFieldItem(index, text), FeedItem(id: "\(index)"), FeedItem(id: "t", contentText: text),
            ] {
                var viaBytes = JSONFeedWriter()
                var bytesOutput: [UInt8] = []
                viaBytes.writeItem(item, contentHTML: Array(html.utf8), into: &bytesOutput)
                item.contentHTML = html
                var viaString = JSONFeedWriter()
                var stringOutput: [UInt8] = []
                viaString.writeItem(item, into: &stringOutput)
                #expect(bytesOutput == stringOutput, "\(text)")
                #expect(viaBytes.writtenItems == 1)
            }
        }
    }

    @Test func escapesScriptEndTagsLineSeparatorsAndControlCharacters() {
        let item = FeedItem(id: "</script>\u{2028}\u{1}\t")
        var writer = JSONFeedWriter()
        var buffer: [UInt8] = []
        writer.writeItem(item, into: &buffer)
        let text = String(decoding: buffer, as: UTF8.self)
        #expect(text.contains(#""id":"<\/script>\u2028\u0001\t""#))
        #expect(!text.contains("</"))
    }

    /// A C1 control kept in the data (the five windows-1252 leaves empty stay as the feed wrote them) is written
    /// escaped, so a terminal showing `tributary parse` never reads one as the start of a command; the Latin-1
    /// letters sharing its lead byte are written as they are.
    @Test func escapesC1ControlsAndKeepsLatin1Letters() throws {
        let item = FeedItem(id: "a", title: "â€\u{9D} \u{90}x\u{81} ©\u{A0}é")
        var writer = JSONFeedWriter()
        var buffer: [UInt8] = []
        writer.writeItem(item, into: &buffer)
        let text = String(decoding: buffer, as: UTF8.self)
        #expect(text.contains(#""title":"â€\u009d \u0090x\u0081 ©\#u{A0}é""#))
        #expect(!buffer.indices.dropLast().contains { buffer[$0] == 0xC2 && buffer[$0 + 1] < 0xA0 })
        let decoded = try JSONDecoder().decode(FeedItem.self, from: Data(buffer))
        #expect(decoded.title == item.title)
    }

    /// Strings of every length up to 100 with characters that need escaping at random places: the escaping scan
    /// goes sixteen bytes at a time with a tail, so every position and length is covered. Each must decode back to
    /// itself, with no `</` and no raw control character in the output.
    @Test func stringsWithEscapesAtEveryPositionRoundTrip() throws {
        let pieces = [
            "a", "b", "日", "é", "😀", "\"", "\\", "/", "<", "</", "\n", "\r", "\t", "\u{1}", "\u{1F}", "\u{7F}",
            "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}", "€", " ",
        ]
        var generator = SystemRandomNumberGenerator()
        for length in 0...100 {
            for _ in 0..<5 {
                var text = ""
                while text.utf8.count < length { text += pieces.randomElement(using: &generator)! }
                var writer = JSONFeedWriter()
                var buffer: [UInt8] = []
                writer.writeItem(FeedItem(id: text), into: &buffer)
                // The item as the writer frames it in a document: a separator and line feed around the object.
                while let last = buffer.last, last == 0x0A || last == 0x2C { buffer.removeLast() }
                while let first = buffer.first, first == 0x0A || first == 0x2C { buffer.removeFirst() }
                let object = try JSONSerialization.jsonObject(with: Data(buffer)) as? [String: Any]
                #expect(object?["id"] as? String == text, "\(text.debugDescription)")
                #expect(!buffer.contains(0x00) && !buffer.contains(0x0A), "\(text.debugDescription)")
                #expect(!String(decoding: buffer, as: UTF8.self).contains("</"), "\(text.debugDescription)")
            }
        }
    }

    @Test func emptyFeedIsValidJSON() throws {
        let bytes = JSONFeedWriter.encode(JSONFeed(title: "", items: []))
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"\",\"items\":[]}\n"
        )
        #expect(try JSONDecoder().decode(JSONFeed.self, from: Data(bytes)).items.isEmpty)
    }
}
