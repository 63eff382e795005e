import FeedParser
import Foundation
import Testing
import TributaryCore

/// Broken and unusual markup that must still give feedparser's reading (see ReferenceCorpusTests), at every chunk
/// boundary.
@Suite struct RecoveryTests {
    private func rss(_ body: String, channelTitle: String = "T") -> [UInt8] {
        Array(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>\(channelTitle)</title>\(body)</channel></rss>"
                .utf8
        )
    }

    /// Parses `bytes` whole and split at every position, and checks all splits give the whole parse's items.
    private func parseEverySplit(
        _ bytes: [UInt8]
    ) throws -> (metadata: FeedMetadata?, items: [FeedItem], warnings: [SourceWarning]) {
        let whole = try FixtureSupport.parse(bytes)
        for position in 1..<bytes.count {
            let split = try FixtureSupport.parse(bytes, splitAt: [position])
            #expect(split.items == whole.items, "split at byte \(position)")
            #expect(split.metadata?.title == whole.metadata?.title, "split at byte \(position)")
        }
        return whole
    }

    /// A predefined reference right after one libxml2 rejects (`&gtgt;` in No Agenda's show notes, a lone `&`)
    /// was left out: libxml2 stops expanding references once a document is malformed. Each is kept, once, at any
    /// chunk boundary; with text between, as before.
    @Test(arguments: [
        ("x &foo;&amp; y", "x &foo;& y"), ("Pat E&lt;/p&gtgt;&lt;p&gt;", "Pat E</p&gtgt;<p>"),
        ("x &&amp; y", "x && y"), ("x &foo;&quot;q&quot;", "x &foo;\"q\""), ("a &foo;&lt;&lt;&apos; b", "a &foo;<<' b"),
        ("x &foo; z &amp; y", "x &foo; z & y"), ("x &foo;&eacute;&amp; y", "x &foo;é& y"),
        ("x &foo;&#38;&amp; y", "x &foo;&& y"),
    ])
    func aPredefinedReferenceRightAfterARejectedOneIsKept(_ title: String, _ expected: String) throws {
        let result = try parseEverySplit(rss("<item><title>\(title)</title><guid>1</guid></item>"))
        #expect(result.items.map(\.title) == [expected])
    }

    /// A control character XML forbids inside a CDATA section (a torrent tracker pastes MediaInfo reports, escape
    /// sequences and all) made libxml2 give up the rest of the feed: the first item lost its description, link and
    /// date, and every later item was lost. The characters are dropped before libxml2 sees them, at any chunk
    /// boundary, with one warning.
    @Test func controlCharactersInsideCDATALoseNothingElse() throws {
        let result = try parseEverySplit(try FixtureSupport.bytes("broken-control-characters-in-cdata.xml"))
        #expect(
            result.items.map(\.url) == [
                "https://tracker.example/torrent/1001", "https://tracker.example/torrent/1002",
                "https://tracker.example/torrent/1003",
            ]
        )
        #expect(
            result.items.map(\.title) == [
                "Documentary (2024) WEB-DL 1080p", "Concert (2023) BDRip", "Series S01 complete",
            ]
        )
        #expect(
            result.items.first?.contentHTML == "<b>Video:</b> AVC, 1920x1080  <b>Audio:</b> AAC 2.0<br>Tracks[0m: 2"
        )
        #expect(result.items.last?.contentHTML == "Ten episodes in one pack")
        #expect(result.items.allSatisfy { $0.datePublished != nil })
        #expect(
            result.warnings.map(\.message) == [
                "the document holds control characters (below U+0020, other than tab and line breaks), which XML does "
                    + "not allow; they were dropped"
            ]
        )
    }

    /// In an ISO-2022 document the escapes that switch character sets are control bytes: they are kept.
    @Test func iso2022EscapesAreNotDroppedAsControls() throws {
        let document =
            "<?xml version=\"1.0\" encoding=\"iso-2022-jp\"?><rss version=\"2.0\"><channel><title>日本語のタイトル</title>"
            + "<item><title>記事</title><guid>1</guid></item></channel></rss>"
        let bytes = try #require(document.data(using: .iso2022JP))
        #expect(bytes.contains(0x1B))
        let result = try FixtureSupport.parse(Array(bytes))
        #expect(result.metadata?.title == "日本語のタイトル")
        #expect(result.items.map(\.title) == ["記事"])
        #expect(result.warnings.isEmpty)
    }

    @Test func aStrayEndTagDoesNotLoseTheEntriesAfterIt() throws {
        // libxml2 alone closes the innermost element at `</div>`, then the feed at the entry's `</entry>`, and stops
        // at the next `<entry>` ("Extra content at the end of the document"): only the first entry was kept.
        let result = try parseEverySplit(try FixtureSupport.bytes("broken-stray-end-tag-atom.xml"))
        #expect(result.items.map(\.id) == ["urn:e1", "urn:e2", "urn:e3", "urn:e4"])
        #expect(
            result.items.map(\.url) == [
                "https://example.com/before", "https://example.com/stray", "https://example.com/after",
                "https://example.com/last",
            ]
        )
        #expect(result.items[1].title == "Has a stray end tag")
        #expect(result.items[1].datePublished == Date(timeIntervalSince1970: 1_795_168_800))
        #expect(result.metadata?.title == "Stray end tags")
        #expect(result.warnings.contains { $0.message.contains("mismatch") && $0.message.contains("div") })
        #expect(result.warnings.contains { $0.message.contains("mismatch") && $0.message.contains("span") })
    }

    @Test func aStrayEndTagInsideTextIsIgnored() throws {
        let bytes = rss(
            """
            <item><title>One</b> more</title><link>http://example.com/1</link></item>\
            <item><title>Two</title><link>http://example.com/2</link></item>
            """
        )
        let result = try parseEverySplit(bytes)
        #expect(result.items.map(\.title) == ["One more", "Two"])
        #expect(result.items.map(\.url) == ["http://example.com/1", "http://example.com/2"])
    }

    @Test func invalidNumericCharacterReferencesBecomeReplacementCharacters() throws {
        // HTML5's rule: a reference to NUL, a surrogate or a code point beyond U+10FFFF gives U+FFFD; libxml2 drops it.
        let result = try parseEverySplit(try FixtureSupport.bytes("broken-invalid-character-references.xml"))
        #expect(
            result.items.map(\.title) == ["Null \u{FFFD} surrogate \u{FFFD} beyond \u{FFFD} end", "Valid é ☃"]
        )
        #expect(result.items.first?.url == "https://example.com/a?q=\u{FFFD}x")
        #expect(result.warnings.contains { $0.message.contains("xmlParseCharRef") })
    }

    @Test func rdfAboutIsTheItemIDWhenThereIsNoGuid() throws {
        let bytes = Array(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="http://example.com/index.rdf"><title>R</title></channel>
            <item rdf:about=" http://example.org/1 "><title>One</title><link>http://example.org/one</link></item>
            <item><title>Two</title><link>http://example.org/two</link></item>
            </rdf:RDF>
            """.utf8
        )
        let result = try parseEverySplit(bytes)
        #expect(result.items.map(\.id) == ["http://example.org/1", "http://example.org/two"])
        #expect(result.items.first?.url == "http://example.org/one")
    }

    @Test func rawAmpersandsAndUndefinedEntitiesStayAsText() throws {
        let bytes = rss(
            """
            <item><title>Fish & Chips &amp; peas, caf&eacute; &doesnotexist; &</title>\
            <link>http://example.com/item?id=1&lang=en&amp;x=2</link><guid>urn:1</guid></item>\
            <item><title>Clean</title><link>http://example.com/2</link></item>
            """,
            channelTitle: "Tom & Jerry"
        )
        let result = try parseEverySplit(bytes)
        #expect(result.metadata?.title == "Tom & Jerry")
        #expect(result.items.map(\.title) == ["Fish & Chips & peas, café &doesnotexist; &", "Clean"])
        #expect(result.items.first?.url == "http://example.com/item?id=1&lang=en&x=2")
        #expect(result.warnings.contains { $0.message.contains("doesnotexist") })
    }

    @Test func rawAmpersandsInAttributeValuesStayAsText() throws {
        let atom = Array(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>F</title>
            <entry><id>urn:1</id><title>One</title>
            <link rel="alternate" href="http://e.com/3?a=1&b=2&amp;c=3&lang=caf&eacute;&#33;"/></entry>
            <entry><id>urn:2</id><title>Two</title><link href="http://e.com/clean?a=1&amp;b=2"/></entry>
            </feed>
            """.utf8
        )
        let result = try parseEverySplit(atom)
        #expect(result.items.map(\.url) == ["http://e.com/3?a=1&b=2&c=3&lang=café!", "http://e.com/clean?a=1&b=2"])

        let podcast = rss(
            "<item><title>E</title><enclosure url='http://cdn.e.com/a.mp3?x=1&y=2' type=\"audio/mpeg\"/></item>"
        )
        let item = try #require(try parseEverySplit(podcast).items.first)
        #expect(item.attachments.map(\.url) == ["http://cdn.e.com/a.mp3?x=1&y=2"])
        #expect(item.attachments.map(\.mimeType) == ["audio/mpeg"])
    }

    @Test func anItemCutInsideItsTitleOrLinkIsKeptWithoutThatField() throws {
        let head = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title>"
        let cutInLink = try FixtureSupport.parse(Array("\(head)<item><title>third</title><link>http://exa".utf8))
        let item = try #require(cutInLink.items.first)
        #expect(item.title == "third")
        #expect(item.url == nil)
        #expect(cutInLink.warnings.contains { $0.message.contains("partial field was dropped") })

        let cutInTitle = try FixtureSupport.parse(Array("\(head)<item><guid>urn:x</guid><title><![CD".utf8))
        #expect(cutInTitle.items.map(\.title) == [nil])
        #expect(cutInTitle.items.map(\.id) == ["urn:x"])
    }

    @Test func anUnclosedInlineTagDoesNotSwallowTheItemsFollowingFields() throws {
        let bytes = rss(
            """
            <item><title>three</title><description>bold <b>start <i>it</description>\
            <link>http://example.com/3</link><guid>urn:m:3</guid></item>\
            <item><title>four</title><link>http://example.com/4</link><guid>urn:m:4</guid></item>
            """
        )
        let result = try parseEverySplit(bytes)
        #expect(result.items.map(\.title) == ["three", "four"])
        #expect(result.items.map(\.url) == ["http://example.com/3", "http://example.com/4"])
        #expect(result.items.map(\.id) == ["urn:m:3", "urn:m:4"])
        #expect(result.items.first?.contentHTML == "bold <b>start <i>it</i></b>")
    }

    /// Raw HTML in a description whose `img` is never closed (`<a><img></a>`, RssBandit's RSS 0.92 sample): the
    /// `</a>` closes the image and the link, and then `</description>` and `</item>` each closed one element too
    /// few, so the item's link, date and enclosure were read as its description's text.
    @Test func anUnclosedVoidTagInsideRawHTMLDoesNotSwallowTheItemsFollowingFields() throws {
        let bytes = rss(
            """
            <item><title>one</title><description><a href="http://e.example/"><img src="http://e.example/i.gif">\
            </a>Text one.</description><link>http://e.example/1</link><pubDate>Sun, 21 Jan 2001 10:00:00 GMT</pubDate>\
            <enclosure url="http://e.example/1.mp3" length="1" type="audio/mpeg"/></item>\
            <item><title>two</title><link>http://e.example/2</link></item>
            """
        )
        let result = try parseEverySplit(bytes)
        #expect(result.items.map(\.title) == ["one", "two"])
        #expect(result.items.map(\.url) == ["http://e.example/1", "http://e.example/2"])
        #expect(result.items.first?.datePublished == Date(timeIntervalSince1970: 980_071_200))
        #expect(result.items.first?.attachments.map(\.url) == ["http://e.example/1.mp3"])
        #expect(
            result.items.first?.contentHTML
                == "<a href=\"http://e.example/\"><img src=\"http://e.example/i.gif\"></a>Text one."
        )
    }

    @Test func atomBase64TitlesAreDecodedAndNakedMarkupBecomesText() throws {
        let atom03 = Array(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
            <entry><title mode="base64">
              RXhhbXBsZSA8Yj5BdG9tPC9iPg==
            </title><id>urn:1</id></entry>
            <entry><title>Example <b>Atom</b></title><id>urn:2</id></entry>
            </feed>
            """.utf8
        )
        #expect(try parseEverySplit(atom03).items.map(\.title) == ["Example <b>Atom</b>", "Example Atom"])

        let atom10 = Array(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>F</title>
            <entry><title type="application/octet-stream">RXhhbXBsZSA8Yj5BdG9tPC9iPg==</title><id>urn:1</id></entry>
            <entry><title type="text/plain">not base64</title><id>urn:2</id></entry>
            <entry><title type="application/x-unknown">Plain words in an unknown type</title><id>urn:3</id></entry>
            <entry><title type="image/png">abcd</title><id>urn:4</id></entry>
            </feed>
            """.utf8
        )
        // An unknown media type whose text is not base64 of UTF-8 text stays as written instead of becoming garbage
        // ("abcd" is valid base64, but of bytes that are not UTF-8).
        #expect(
            try parseEverySplit(atom10).items.map(\.title) == [
                "Example <b>Atom</b>", "not base64", "Plain words in an unknown type", "abcd",
            ]
        )
    }

    @Test func aFeedWithoutTheAtomNamespaceReadsItsEntries() throws {
        let bytes = Array(
            """
            <feed xmlns:bogus="http://dom.test/ns"><title>No namespace</title>
            <entry><id bogus:attr="wrong">right</id><title>E</title><link href="http://example.com/e"/></entry>
            </feed>
            """.utf8
        )
        let result = try parseEverySplit(bytes)
        #expect(result.metadata?.title == "No namespace")
        // A relative Atom id is resolved against the feed's URL for the item's id (as feedparser does); the
        // original stays in `_tributary.guid`.
        #expect(result.items.map(\.id) == ["https://feeds.example.com/path/right"])
        #expect(result.items.map(\.tributary?.guid) == ["right"])
        #expect(result.items.map(\.url) == ["http://example.com/e"])
    }
}
