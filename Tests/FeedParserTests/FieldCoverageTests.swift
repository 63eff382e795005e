import FeedParser
import Foundation
import Testing
import TributaryCore

/// Fields that feedparser, feed-rs and gofeed read and Tributary once dropped: each test is one field family.
@Suite struct FieldCoverageTests {
    private func parse(_ xml: String) throws -> (metadata: FeedMetadata?, items: [FeedItem], warnings: [SourceWarning])
    {
        try FixtureSupport.parse(Array(xml.utf8))
    }

    @Test func channelAuthorsInEveryFormAreSplitIntoNameAndEmail() throws {
        let result = try parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
                 xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <managingEditor>editor@example.com (Ed Itor)</managingEditor>
            <author>Jane Doe &lt;jane@example.com&gt;</author>
            <dc:creator>Joe Bloggs</dc:creator>
            <itunes:author>The Podcast People</itunes:author>
            <item><title>i</title><dc:creator>me@example.com (Mo Ewe)</dc:creator></item>
            </channel></rss>
            """
        )
        #expect(
            result.metadata?.authors == [
                FeedItem.Author(name: "Ed Itor", email: "editor@example.com"),
                FeedItem.Author(name: "Jane Doe", email: "jane@example.com"),
                FeedItem.Author(name: "Joe Bloggs"), FeedItem.Author(name: "The Podcast People"),
            ]
        )
        #expect(result.items.first?.authors == [FeedItem.Author(name: "Mo Ewe", email: "me@example.com")])
    }

    @Test func mediaTitleIsTheTitleOfAnItemWithoutOne() throws {
        let result = try parse(
            """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Videos</title>
            <item><link>https://v.example/1</link><media:group><media:title>Video one</media:title></media:group></item>
            <item><title>Own title</title><media:title>Media title</media:title><link>https://v.example/2</link></item>
            </channel></rss>
            """
        )
        #expect(result.items.map(\.title) == ["Video one", "Own title"])
    }

    @Test func bodyXHTMLBodyAndFullitemAreContent() throws {
        let result = try parse(
            """
            <rss version="2.0" xmlns:xhtml="http://www.w3.org/1999/xhtml"><channel><title>C</title>
            <item><guid>1</guid><xhtml:body><xhtml:p>XHTML <xhtml:b>body</xhtml:b></xhtml:p></xhtml:body></item>
            <item><guid>2</guid><body xmlns="http://www.w3.org/1999/xhtml"><p>Plain body</p></body></item>
            <item><guid>3</guid><fullitem>&lt;p&gt;Full &lt;i&gt;item&lt;/i&gt;&lt;/p&gt;</fullitem></item>
            </channel></rss>
            """
        )
        #expect(
            result.items.map(\.contentHTML) == [
                "<p>XHTML <b>body</b></p>", "<p>Plain body</p>", "<p>Full <i>item</i></p>",
            ]
        )
    }

    @Test func languagesComeFromDCLanguageLanguageAndXMLLang() throws {
        let result = try parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel xml:lang="fr"><title>L</title>
            <item><guid>1</guid></item>
            <item xml:lang="de"><guid>2</guid></item>
            <item><guid>3</guid><dc:language>ja</dc:language></item>
            </channel></rss>
            """
        )
        #expect(result.metadata?.language == "fr")
        #expect(result.items.map(\.language) == ["fr", "de", "ja"])
        let atom = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US"><title>A</title>
            <entry><id>urn:1</id><title>t</title></entry>
            <entry xml:lang=""><id>urn:2</id><title>t</title></entry>
            </feed>
            """
        )
        #expect(atom.metadata?.language == "en-US")
        #expect(atom.items.map(\.language) == ["en-US", nil])
    }

    @Test func anAtomEntryDocumentIsAFeedOfOneItem() throws {
        let result = try FixtureSupport.parseFixture("atom-entry-document.xml")
        #expect(result.metadata?.format == .atom10)
        let item = try #require(result.items.first)
        #expect(result.items.count == 1)
        #expect(item.title == "A single entry, served as its own document")
        #expect(item.id == "tag:example.org,2026:entry-1")
        #expect(item.url == "https://example.org/posts/entry-1.html")
        #expect(item.language == "en-GB")
        #expect(
            item.authors == [
                FeedItem.Author(name: "Jane Doe", url: "https://example.org/people/jane", email: "jane@example.org")
            ]
        )
        #expect(item.contentHTML == "<p>Body <a href=\"https://example.org/posts/more.html\">more</a></p>")
    }

    @Test func theOldUserlandNamespaceIsRSS() throws {
        let result = try FixtureSupport.parseFixture("rss-userland-namespace.xml")
        #expect(result.metadata?.title == "Old Userland namespace")
        #expect(result.metadata?.authors == [FeedItem.Author(name: "Dave Winer", email: "dave@example.com")])
        #expect(result.items.map(\.title) == ["Namespaced RSS 2.0 item"])
        #expect(result.items.first?.authors == [FeedItem.Author(name: "Dave Winer", email: "dave@example.com")])
    }

    @Test func rightsOfTheFeedAndItsItemsAreRead() throws {
        let rss = try parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>R</title>
            <copyright>© 2026 Example &amp; Sons</copyright>
            <item><guid>1</guid><dc:rights>CC BY 4.0</dc:rights></item>
            <item><guid>2</guid></item>
            </channel></rss>
            """
        )
        #expect(rss.metadata?.rights == "© 2026 Example & Sons")
        #expect(rss.items.map { $0.tributary?.rights } == ["CC BY 4.0", nil])
        let atom = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <rights type="html">Example &lt;b&gt;Atom&lt;/b&gt;</rights>
            <entry><id>urn:1</id><rights type="text">History of the &lt;blink&gt; tag</rights></entry>
            </feed>
            """
        )
        #expect(atom.metadata?.rights == "Example Atom")
        #expect(atom.items.first?.tributary?.rights == "History of the <blink> tag")
    }

    /// What JSON Feed has no member for, `parse` writes in the feed's `_tributary` object.
    @Test func theFeedHeaderCarriesFormatUpdatedGeneratorAndRights() throws {
        let result = try parse(
            """
            <rss version="2.0"><channel><title>H</title><generator>NFE/5.0</generator>
            <lastBuildDate>Tue, 24 Nov 2026 09:00:00 GMT</lastBuildDate><copyright>Mine</copyright></channel></rss>
            """
        )
        let feed = try #require(result.metadata).makeJSONFeed()
        #expect(
            feed.extensions["_tributary"]
                == .object([
                    "format": .string("rss-2.0"), "updated": .string("2026-11-24T09:00:00Z"),
                    "generator": .string("NFE/5.0"), "rights": .string("Mine"),
                ])
        )
    }

    @Test func atom03Base64HTMLIsReadAsHTMLAndAuthorHomepageAsURL() throws {
        let result = try parse(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>B</title>
            <entry><id>urn:1</id>
            <title type="text/html" mode="base64">PGRpdj48YSBocmVmPSIvcmVsYXRpdmUvdXJpIj5jbGljayBoZXJlPC9hPjwvZGl2Pg==</title>
            <author><name>N</name><homepage>http://example.com/</homepage></author>
            </entry></feed>
            """
        )
        #expect(result.items.first?.title == "click here")
        #expect(result.items.first?.authors == [FeedItem.Author(name: "N", url: "http://example.com/")])
    }

    @Test func aChannelITunesSummaryIsTheDescriptionWhenThereIsNoOther() throws {
        let result = try parse(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>P</title>
            <itunes:summary>Example summary</itunes:summary></channel></rss>
            """
        )
        #expect(result.metadata?.description == "Example summary")
    }
}
