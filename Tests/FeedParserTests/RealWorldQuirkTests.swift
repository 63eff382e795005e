import FeedParser
import Foundation
import Testing
import TributaryCore

/// Quirks of real feeds that feedparser reads and that the corpora of other parsers showed we read differently.
@Suite struct RealWorldQuirkTests {
    private func date(_ string: String) throws -> Date {
        try #require(RFC3339.parse(string))
    }

    /// The fixture's items with their `content_html` sanitized, as the parser hands it out by default.
    private func sanitized(_ name: String) throws -> [FeedItem] {
        try FixtureSupport.parseFixture(
            name,
            options: FeedParserOptions(baseURL: FixtureSupport.feedURL, sourceID: "test-source")
        )
        .items
    }

    /// Text encoded twice with a windows-1252 step in between (`â€œsmallâ€` then U+009D, the position
    /// windows-1252 leaves empty) reads as feedparser reads it: the control stays, in the title and in the content,
    /// and the text is not undone because `€` is no Latin-1 letter. A title judged for double encoding is judged
    /// without the white space at its ends, as feedparser strips it first: `airportÂ` and a no-break space stay.
    @Test func doublyEncodedQuotesKeepTheirC1ControlAsFeedparserDoes() throws {
        let items = try FixtureSupport.parseFixture("rss-doubly-encoded-quotes-leave-c1.xml").items
        try #require(items.count == 2)
        #expect(items[0].title == "Hulu says â€œsmallâ€\u{9D} storage Â")
        #expect(items[0].contentHTML == "<p>a cloud DVR (with a â€œsmallâ€\u{9D} amount of storage)</p>")
        #expect(items[1].title == "US shooting: airportÂ")
        #expect(items[1].contentHTML == "Brøndby<br>")
    }

    /// An RSS 2.0 feed written in the namespace of the specification's address
    /// (`xmlns="https://cyber.harvard.edu/rss/rss.html"`, a Ukrainian news site's) was refused as "not a feed"; it is
    /// read as RSS, as feedparser reads it, with a warning to its author.
    @Test func rssInTheSpecificationsAddressAsNamespaceIsRead() throws {
        let parsed = try FixtureSupport.parseFixture("rss-in-specification-address-namespace.xml")
        #expect(parsed.metadata?.title == "suspilne.news")
        #expect(parsed.metadata?.link == "https://suspilne.media/")
        #expect(parsed.metadata?.format == .rss20)
        #expect(
            parsed.items.map(\.url) == [
                "https://suspilne.media/645026-torgivla-miz-rosieu-ta-kitaem-u-2023-roci-perevisila-200-mlrd-dolariv-new-york-times/",
                "https://suspilne.media/644674-u-sahnovsini-pohovaut-molodsogo-serzanta-akij-vouvav-na-bahmutskomu-napramku/",
            ]
        )
        #expect(parsed.items.first?.title?.hasPrefix("Торгівля між Росією та Китаєм у 2023 році") == true)
        #expect(parsed.items.last?.datePublished == (try date("2023-12-21T22:41:44Z")))
        #expect(parsed.items.allSatisfy { $0.contentHTML?.isEmpty == false })
        #expect(
            parsed.warnings.map(\.message) == [
                "the feed's namespace https://cyber.harvard.edu/rss/rss.html is not RSS's (RSS 2.0 has none); read as RSS"
            ]
        )
    }

    /// Atom content that no reader can show as text (RFC 4287 4.1.3: XML of another vocabulary, an image in base64)
    /// is kept as empty content, so the entry's summary is what a reader shows, as James Snell's "content and
    /// summary" tests ask (apache/abdera keeps them); it showed the XML's words and the base64. Content of a `text/`
    /// type stays text, and base64 that holds UTF-8 text is still decoded.
    @Test func atomContentInXMLOrABase64ImageLeavesTheSummaryToShow() throws {
        let parsed = try FixtureSupport.parseFixture("atom-content-in-xml-or-base64-image-shows-summary.xml")
        #expect(parsed.items.map(\.contentText) == ["", "", "", "BEGIN:VCALENDAR\nEND:VCALENDAR", "Hello, world."])
        #expect(parsed.items.allSatisfy { $0.contentHTML == nil })
        #expect(
            parsed.items.map(\.summary) == [
                "The summary of an entry whose content is XML.", "The summary of an entry whose content is an image.",
                nil, "A meeting.", nil,
            ]
        )
        #expect(parsed.warnings.isEmpty)
    }

    /// PHP warnings printed ahead of a WordPress podcast feed (podcast-feed-parser's `canal.xml`) made it "not a
    /// feed: the root element is <br>"; the text before the XML declaration is skipped with a warning, as feedparser
    /// reads past it. Text that holds a feed's root element is never skipped.
    @Test func textBeforeTheXMLDeclarationIsSkipped() throws {
        let parsed = try FixtureSupport.parseFixture("rss-after-php-warnings.xml")
        #expect(parsed.metadata?.title == "Canal de exemplo")
        #expect(parsed.items.map(\.title) == ["Episódio 2", "Episódio 1"])
        #expect(
            parsed.warnings.map(\.message) == [
                "the document has 436 bytes of text before its XML declaration (a server's error message, most "
                    + "likely); they were skipped (fix what prints them before the feed)"
            ]
        )
        let plain = try FixtureSupport.parse(
            Array("Warning: something went wrong\n<?xml version=\"1.0\"?><rss><channel><title>T</title>".utf8)
                + Array("<item><title>One</title></item></channel></rss>".utf8)
        )
        #expect(plain.items.map(\.title) == ["One"])
        #expect(plain.warnings.first?.message.hasPrefix("the document has 30 bytes of text before") == true)
        let declarationInText = try FixtureSupport.parse(
            Array("<rss><channel><title>T</title><item><title>One</title><description><![CDATA[".utf8)
                + Array("<?xml version=\"1.0\"?>]]></description></item></channel></rss>".utf8)
        )
        #expect(declarationInText.items.map(\.title) == ["One"])
        #expect(declarationInText.warnings.isEmpty)
    }

    /// The content module's address written with a dot (`http://purl.org/rss/1.0.modules/content/`, PEAR's RSS 2.0
    /// sample) still gives the item its full text, and an enclosure that names its file with `href` (Atom's word,
    /// Planet Venus's tests) is kept, as feedparser reads both.
    @Test func aMistypedContentModuleAndAnEnclosureHrefAreRead() throws {
        let parsed = try FixtureSupport.parse(
            Array(
                """
                <rss version="2.0" xmlns:content="http://purl.org/rss/1.0.modules/content/"><channel><title>T</title>
                <item><title>A</title><description>Short.</description>
                <content:encoded><![CDATA[<p>Full text of the post</p>]]></content:encoded>
                <enclosure href="http://example.com/1.mp3" type="audio/mpeg"/></item></channel></rss>
                """.utf8
            )
        )
        #expect(parsed.items.first?.contentHTML == "<p>Full text of the post</p>")
        #expect(parsed.items.first?.summary == "Short.")
        #expect(parsed.items.first?.attachments.map(\.url) == ["http://example.com/1.mp3"])
    }

    /// An item with two guids (Readrops' test feed: `<guid>guid</guid>` then `<guid isPermaLink="false">guid</guid>`)
    /// is named by the last, as written when it is no permalink, and keeps the address the permalink gave it, as
    /// feedparser reads it; the other order and a single guid read as before.
    @Test func theLastOfTwoGuidsNamesTheItem() throws {
        let bytes = Array(
            """
            <rss version="2.0"><channel><title>T</title>
            <item><title>a</title><guid>guid</guid><guid isPermaLink="false">guid</guid></item>
            <item><title>b</title><guid isPermaLink="false">x3</guid><guid>y3</guid></item>
            <item><title>c</title><guid>only</guid></item>
            <item><title>d</title><guid isPermaLink="false">tag-1</guid></item>
            </channel></rss>
            """.utf8
        )
        let items = try FixtureSupport.parse(bytes).items
        // Relative guids resolve against the feed's address, https://feeds.example.com/path/feed.xml.
        #expect(
            items.map(\.id) == [
                "guid", "https://feeds.example.com/path/y3", "https://feeds.example.com/path/only", "tag-1",
            ]
        )
        #expect(
            items.map(\.url) == [
                "https://feeds.example.com/path/guid", "https://feeds.example.com/path/y3",
                "https://feeds.example.com/path/only", nil,
            ]
        )
        #expect(items.map { $0.tributary?.guid } == ["guid", "y3", "only", "tag-1"])
    }

    /// An Atom feed inside an XHTML page (feedjira's sample feeds have one) is read, as feedparser reads it, with a
    /// warning; the page's own elements and a second feed after the first are not.
    @Test func aFeedInsideAnotherDocumentIsReadWithAWarning() throws {
        let parsed = try FixtureSupport.parseFixture("atom-feed-inside-xhtml-page.xml")
        #expect(parsed.metadata?.title == "Avian’s Blog")
        #expect(parsed.metadata?.language == nil)
        #expect(parsed.items.map(\.title) == ["Down time", "Second"])
        #expect(parsed.items.first?.url == "http://www.tablix.org/~avian/blog/archives/2014/07/down_time/")
        #expect(parsed.warnings.contains { $0.message.contains("inside another document (its root element is <html>") })
    }

    /// An RSS enclosure's relative URL stays as written, as feedparser keeps it (the RSS adapter resolves it against
    /// the address it fetched the feed from); an Atom `link rel="enclosure"` is resolved, as feedparser resolves it.
    @Test func aRelativeRSSEnclosureURLStaysAsWritten() throws {
        let items = try FixtureSupport.parseFixture("rss-relative-enclosure-url.xml").items
        try #require(items.count == 2)
        #expect(items[0].attachments.map(\.url) == ["media/episode-1.mp3?q=a#fragment"])
        #expect(
            items[1].attachments.map(\.url) == [
                "https://cdn.example/episode-2.mp3", "https://feeds.example.com/path/episode-2.ogg",
            ]
        )
    }

    /// Atom's `mode="escaped"` says how the text is written, not what it is: a `text` or `text/plain` title or
    /// content written escaped keeps its tags as text (feedvalidator's `entry_title_not_text_plain`), as feedparser
    /// reads it; `text/html` is HTML.
    @Test(arguments: ["type=\"text\" mode=\"escaped\"", "type=\"text/plain\" mode=\"escaped\"", "mode=\"escaped\""])
    func escapedModeWithATextTypeIsText(_ attributes: String) throws {
        for namespace in ["http://www.w3.org/2005/Atom", "http://purl.org/atom/ns#"] {
            let document = """
                <feed xmlns="\(namespace)"><title>F</title><entry><id>x</id>\
                <title \(attributes)>So &lt;a href="http://e.example/"&gt;e&lt;/a&gt; x</title>\
                <content \(attributes)>So &lt;b&gt;e&lt;/b&gt;</content>\
                <summary type="text/html" mode="escaped">&lt;p&gt;HTML&lt;/p&gt;</summary></entry></feed>
                """
            let item = try #require(try FixtureSupport.parse(Array(document.utf8)).items.first)
            #expect(item.title == "So <a href=\"http://e.example/\">e</a> x", "\(namespace) \(attributes)")
            #expect(item.contentText == "So <b>e</b>", "\(namespace) \(attributes)")
            #expect(item.contentHTML == nil)
            #expect(item.summary == "HTML")
        }
    }

    /// Atom's `updated` and `dc:date` (`dcterms:modified`) are the same field to feedparser: the last readable one
    /// wins (feedvalidator's `valid_dc_all`), in either order.
    @Test func theLastOfUpdatedAndDCDateIsTheModificationDate() throws {
        let entry = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><title>F</title>
            <entry><id>a</id><published>2003-12-13T08:29:29Z</published><updated>2003-12-13T18:30:02Z</updated>\
            <dc:date>2005-07-04</dc:date><dc:date>not a date</dc:date></entry>
            <entry><id>b</id><published>2003-12-13T08:29:29Z</published><dc:date>2005-07-04</dc:date>\
            <updated>2003-12-13T18:30:02Z</updated></entry></feed>
            """
        let items = try FixtureSupport.parse(Array(entry.utf8)).items
        try #require(items.count == 2)
        #expect(items[0].dateModified == (try date("2005-07-04T00:00:00Z")))
        #expect(items[1].dateModified == (try date("2003-12-13T18:30:02Z")))
        #expect(items.map(\.datePublished) == [try date("2003-12-13T08:29:29Z"), try date("2003-12-13T08:29:29Z")])
    }

    @Test func anUpdateInTheSameSecondAsThePublicationIsNoModification() throws {
        let items = try FixtureSupport.parseFixture("rss-atom-updated-same-second-as-pubdate.xml").items
        try #require(items.count == 2)
        #expect(items[0].datePublished == (try date("2018-11-09T14:40:34Z")))
        #expect(items[0].dateModified == nil)
        #expect(items[1].datePublished == (try date("2018-11-19T08:10:26Z")))
        #expect(items[1].dateModified == (try date("2018-11-19T08:42:59.267Z")))
    }

    @Test func dcDateBesidePubDateIsTheModificationDate() throws {
        let items = try FixtureSupport.parseFixture("rss-dc-date-beside-pubdate.xml").items
        try #require(items.count == 2)
        #expect(items[0].datePublished == (try date("2017-10-17T12:17:00Z")))
        #expect(items[0].dateModified == (try date("2017-10-17T22:17:00Z")))
        #expect(items[1].datePublished == (try date("2017-10-18T09:00:00Z")))
        #expect(items[1].dateModified == nil)
    }

    @Test func modifiedWithoutANamespaceIsTheModificationDate() throws {
        let items = try FixtureSupport.parseFixture("rss-modified-without-namespace.xml").items
        try #require(items.count == 1)
        #expect(items[0].datePublished == (try date("2017-10-17T22:17:00Z")))
        #expect(items[0].dateModified == (try date("2017-10-17T23:30:32Z")))
    }

    @Test func isPermalinkWithALowerCaseLIsRead() throws {
        let items = try FixtureSupport.parseFixture("rss-guid-ispermalink-lowercase-l.xml").items
        try #require(items.count == 1)
        // Not a permalink: the guid is not resolved against the feed's URL.
        #expect(items[0].id == "23246627")
        #expect(items[0].tributary?.guid == "23246627")
        #expect(items[0].url == "https://news.example/2017/10/17/story_a_23246627/")
    }

    @Test func itemsInsideAnUnclosedChannelElementAreRead() throws {
        let result = try FixtureSupport.parseFixture("rss-items-after-unclosed-itunes-category.xml")
        #expect(result.items.map(\.title) == ["Shake Shake Shake Your Spices", "Socket Wrench Shootout"])
        #expect(
            result.items.first?.attachments.map(\.url)
                == ["http://example.com/podcasts/everything/AllAboutEverythingEpisode3.m4a"]
        )
        #expect(result.metadata?.title == "All About Everything")
    }

    @Test func aCategoryIsPlainTextAsWritten() throws {
        // Escaped markup in a category is text: `&lt;canvas&gt;` was stripped as a tag, and the category lost.
        let result = try FixtureSupport.parseFixture("rss-category-markup-is-text.xml")
        let items = result.items
        try #require(items.count == 1)
        #expect(
            items[0].tags == ["<canvas>", "Tom &amp; Jerry", "Arts & Culture", "<dialog>", "web", "<video>", "media"]
        )
        #expect(items[0].title == "Drawing with the <canvas> element")
        let categories = items[0].tributary?.categories ?? []
        #expect(categories.map(\.term) == ["<canvas>", "Tom &amp; Jerry", "Arts & Culture"])
        #expect(categories.first?.scheme == "https://markup.example/tags")
        #expect(result.metadata?.tags == ["<svg> and friends", "html", "<template>"])
    }

    @Test func categoriesInAWrapperAreTags() throws {
        let items = try FixtureSupport.parseFixture("rss-categories-in-wrapper.xml").items
        try #require(items.count == 1)
        #expect(items[0].tags == ["Connected Home", "Bluetooth", "Home Tech"])
    }

    @Test func anRSSAuthorWithANameChildIsThatName() throws {
        let items = try FixtureSupport.parseFixture("rss-author-with-name-child.xml").items
        try #require(items.count == 2)
        #expect(items[0].title == "Shadow IT")
        #expect(items[0].authors == [FeedItem.Author(name: "Diane Chaleff")])
        #expect(items[1].authors == [FeedItem.Author(name: "Jane Doe", email: "jane@example.com")])
    }
}

extension RealWorldQuirkTests {
    @Test func rss090InTheChannelNetscapeNamespaceIsRead() throws {
        let result = try FixtureSupport.parseFixture("rss090-channel-netscape-namespace.xml")
        #expect(result.metadata?.format == .rss090)
        #expect(result.metadata?.title == "Mozilla Dot Org")
        #expect(result.metadata?.link == "http://www.mozilla.org")
        #expect(result.items.map(\.url) == ["http://www.mozilla.org/status/"])
    }
}

extension RealWorldQuirkTests {
    @Test func aDoubleHyphenInACommentIsNoWarning() throws {
        let result = try FixtureSupport.parseFixture("rss-comment-with-double-hyphen.xml")
        #expect(result.warnings.isEmpty)
        #expect(result.items.map(\.title) == ["After a comment"])
    }

    @Test func theLastReadablePublicationDateWins() throws {
        let items = try FixtureSupport.parseFixture("atom03-issued-then-published.xml").items
        try #require(items.count == 1)
        #expect(items[0].datePublished == (try date("2010-01-01T19:48:21Z")))
    }
}

extension RealWorldQuirkTests {
    @Test func aSummaryIsTheTextBeforeAMediaDescription() throws {
        let items = try FixtureSupport.parseFixture("atom-summary-beside-media-description.xml").items
        try #require(items.count == 2)
        #expect(items[0].contentText == "What the entry says")
        #expect(items[0].contentHTML == nil)
        #expect(items[1].contentHTML == "What the player shows")
    }

    @Test func anEntrysAddressIsItsLastAlternateWebPage() throws {
        let items = try FixtureSupport.parseFixture("atom-alternate-links-by-type.xml").items
        #expect(
            items.map(\.url) == [
                "https://links.example/1.html", "https://links.example/2/fr", "https://links.example/3",
                "tag:links.example,2026:4", "https://links.example/5", "https://links.example/6.pdf", nil,
            ]
        )
        #expect(items.map(\.externalURL) == [nil, nil, nil, nil, nil, nil, "https://elsewhere.example/7"])
    }

    @Test func anEnclosureWithAnEmptyURLIsNoAttachment() throws {
        let items = try FixtureSupport.parseFixture("rss-enclosure-empty-url.xml").items
        try #require(items.count == 1)
        #expect(items[0].attachments.isEmpty)
    }
}

extension RealWorldQuirkTests {
    @Test func channelCategoriesKeepTheirDomain() throws {
        let metadata = try #require(try FixtureSupport.parseFixture("rss-channel-category-domain.xml").metadata)
        #expect(metadata.tags == ["Computers/Software/Internet", "Plain"])
        #expect(
            metadata.categories == [
                TributaryExtension.Category(term: "Computers/Software/Internet", scheme: "http://www.dmoz.org"),
                TributaryExtension.Category(term: "Plain"),
            ]
        )
        let extensions = metadata.makeJSONFeed().extensions["_tributary"]
        guard case .object(let tributary)? = extensions, case .array(let categories)? = tributary["categories"] else {
            Issue.record("no _tributary.categories in \(String(describing: extensions))")
            return
        }
        #expect(categories.count == 2)
    }
}

extension RealWorldQuirkTests {
    @Test func aCDFChannelIsAFeed() throws {
        let result = try FixtureSupport.parseFixture("cdf-channel.xml")
        let metadata = try #require(result.metadata)
        #expect(metadata.format == .cdf)
        #expect(metadata.title == "Example feed")
        #expect(metadata.link == "http://www.example.org/")
        #expect(metadata.description == "Example description")
        #expect(metadata.updated == (try date("2004-04-07T04:05:43Z")))
        try #require(result.items.count == 1)
        #expect(result.items[0].title == "Example item")
        #expect(result.items[0].url == "http://www.example.org/item")
        #expect(result.items[0].contentHTML == "Item description")
        #expect(result.items[0].datePublished == (try date("2004-04-07T04:05:43Z")))
    }
}

extension RealWorldQuirkTests {
    @Test func anExternalEntitySetInTheDoctypeIsNoWarning() throws {
        let result = try FixtureSupport.parseFixture("rss10-doctype-external-entity-set.xml")
        #expect(result.warnings.isEmpty)
        #expect(result.metadata?.title == "Café")
        #expect(result.items.map(\.title) == ["Crème brûlée"])
    }

    @Test func theFirstOfTwoAtomContentsIsTheContent() throws {
        let items = try FixtureSupport.parseFixture("atom03-two-contents-first-wins.xml").items
        try #require(items.count == 1)
        #expect(items[0].contentHTML == "<p>The first content</p>")
        #expect(items[0].contentText == nil)
    }

    @Test func anAtomFeedWithoutItsNamespaceIsReadWithoutAWarning() throws {
        let result = try FixtureSupport.parseFixture("atom-without-namespace-no-warning.xml")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.metadata?.title == "No namespace")
        #expect(result.items.map { $0.tributary?.guid } == ["right"])
    }

    @Test func datesOnATwelveHourClockKeepTheAfternoon() throws {
        let items = try FixtureSupport.parseFixture("rss-twelve-hour-clock-dates.xml").items
        #expect(
            items.map(\.datePublished)
                == [
                    try date("2014-04-20T18:19:00Z"), try date("2008-01-21T16:56:00Z"),
                    try date("2023-12-16T14:02:33Z"),
                ]
        )
    }

    @Test func aDateWithAClippedZoneIsStillRead() throws {
        let items = try FixtureSupport.parseFixture("rdf-dc-date-clipped-zone.xml").items
        #expect(
            items.map(\.datePublished)
                == [
                    try date("2017-06-13T09:00:00Z"), try date("2017-06-13T03:18:00Z"),
                    try date("2017-06-13T00:38:40Z"),
                ]
        )
    }

    /// A podcast item without `<link>`: its Flattr `payment` link is no address of the episode; its Podlove deep
    /// link leads to the episode elsewhere (its `external_url`, which a digest links to), and is not its address
    /// either, as feedparser reads it. With only the payment link, the item has neither.
    @Test func aPaymentLinkIsNeverAnItemsAddress() throws {
        let items = try FixtureSupport.parseFixture("rss-podcast-atom-payment-link.xml").items
        try #require(items.count == 2)
        #expect(items.map(\.url) == [nil, nil])
        #expect(items.map(\.externalURL) == ["http://fanboys.fm/#166:", nil])
        // The links themselves are kept, with their relations.
        #expect(items[1].tributary?.links.map(\.rel) == ["payment"])
        #expect(
            items.map { $0.attachments.first?.url } == [
                "http://fanboys.fm/episodes/FAN166.mp3", "http://fanboys.fm/episodes/FAN165.mp3",
            ]
        )
    }

    /// An RSS item's `<link>` written the Atom way with a relation other than `alternate` (Podlove's Simple
    /// Chapters example) is read by that relation, as feedparser reads it: `rel="enclosure"` is an attachment, not
    /// the item's address, which stays the alternate link before it.
    @Test func anRSSLinkWithARelationIsReadByIt() throws {
        let items = try FixtureSupport.parseFixture("rss-link-rel-enclosure-without-namespace.xml").items
        try #require(items.count == 1)
        #expect(items[0].url == "http://podlove.org/podcast/1")
        #expect(items[0].externalURL == nil)
        #expect(items[0].attachments.map(\.url) == ["http://podlove.org/files/fiatlux.mp3"])
        #expect(items[0].attachments.first?.mimeType == "audio/mpeg")
        #expect(items[0].attachments.first?.sizeInBytes == 12345)
    }

    /// `itunes:summary` is plain text unless it looks like HTML: show notes that write links as `<http://...>` keep
    /// them, as feedparser reads them, where HTML would have taken them for tags, and their lines and paragraphs; a
    /// summary written in HTML is still HTML.
    @Test func aPlainTextITunesSummaryKeepsWhatLooksLikeTags() throws {
        let items = try FixtureSupport.parseFixture("rss-itunes-summary-plain-text-angle-brackets.xml").items
        try #require(items.count == 4)
        let notes = try #require(items[0].contentHTML)
        #expect(
            notes.contains("Dropping Knowledge Blog &lt;http://www.droppingknowledge.org/bin/dkbin?drop&gt;"),
            "\(notes)"
        )
        #expect(notes.contains("* fscklog &lt;http://www.fscklog.com/&gt;"), "\(notes)")
        // The author's lines, flush left, are kept; so is the empty line between paragraphs.
        #expect(notes.hasPrefix("Show notes.<br>\n<br>\nLinks:<br>\n<br>\n* Dropping"), "\(notes)")
        #expect(notes.contains("drop&gt;<br>\n* fscklog"), "\(notes)")
        #expect(items[0].summary == "Short teaser")
        #expect(items[1].contentHTML == "Links: fscklog &lt;http://www.fscklog.com/&gt; and a &lt; b")
        #expect(items[2].contentHTML == #"<p>Notes with <a href="http://example.org/more">a link</a>.</p>"#)
        // Lines indented with the XML are one paragraph, wrapped: no line breaks.
        #expect(
            items[3].contentHTML
                == "This week we talk about salt and pepper\nshakers, comparing and contrasting pour rates."
        )
    }

    /// RSS's `<enclosure>` in an Atom entry (WordPress 2.0) is the entry's attachment, as feedparser reads it.
    @Test func anRSSEnclosureInAnAtomEntryIsAnAttachment() throws {
        let items = try FixtureSupport.parseFixture("atom03-rss-enclosure-in-entry.xml").items
        try #require(items.count == 1)
        #expect(items[0].attachments.map(\.url) == ["http://example.org/ep1.mp3"])
        #expect(items[0].attachments.first?.sizeInBytes == 4_101_088)
        #expect(items[0].attachments.first?.mimeType == "audio/mpeg")
    }

    /// An RSS item's `<id>` is its id when it has no guid (feedparser reads it so): two updates of one ticket that
    /// link to the same page are two items.
    @Test func anRSSItemsIDElementIsItsIDWithoutAGuid() throws {
        let items = try FixtureSupport.parseFixture("rss-item-id-without-guid.xml").items
        try #require(items.count == 2)
        #expect(items[0].id != items[1].id)
        #expect(items.map { $0.tributary?.guid } == ["6624723", "6624999"])
        #expect(items.map(\.url) == Array(repeating: "http://tracker.example.org/tickets/2871", count: 2))
    }

    /// An RSS item's `<content>` without a namespace is its content, typed as Atom's is, and the description beside
    /// it its summary, as feedparser reads them.
    @Test func anRSSItemsContentElementWithoutANamespaceIsItsContent() throws {
        let items = try FixtureSupport.parseFixture("rss-item-content-without-namespace.xml").items
        try #require(items.count == 3)
        #expect(items[0].contentHTML == "<p>The full <b>article</b> text.</p>")
        #expect(items[0].summary == "A short description.")
        #expect(items[1].contentHTML == nil)
        #expect(items[1].contentText == "Only text & no description.")
        #expect(items[2].contentHTML == nil)
        #expect(items[2].contentText == "The whole text.")
        #expect(items[2].summary == "The summary.")
    }

    /// A reference to a control character inside a word (XML does not allow it) is left out, as the raw character
    /// is, rather than written as U+FFFD in the middle of the word; the feed is still read, with a warning.
    @Test func aControlCharacterReferenceInAWordIsLeftOut() throws {
        let (_, items, warnings) = try FixtureSupport.parseFixture("rss-control-character-reference-in-a-word.xml")
        try #require(items.count == 1)
        #expect(items[0].title == "Box de SFR : la résiliation de l'offre")
        let content = try #require(items[0].contentHTML)
        #expect(content.contains("r&eacute;siliation de l&rsquo;offre concern&eacute;e"), "\(content)")
        #expect(!content.contains("\u{FFFD}"))
        #expect(!warnings.isEmpty)
    }

    /// An ampersand escaped twice in a link is one ampersand (feedparser reads it so): the server is to get `id`,
    /// not `amp;id`. The guid, an id, is kept as written.
    @Test func anAmpersandEscapedTwiceInALinkIsOne() throws {
        let items = try FixtureSupport.parseFixture("rss-link-ampersand-escaped-twice.xml").items
        try #require(items.count == 1)
        #expect(items[0].url == "http://volkangezerr.scienceontheweb.net/icerikgoster.php?tur=ownCloud&id=295")
        #expect(
            items[0].tributary?.comments
                == "http://volkangezerr.scienceontheweb.net/icerikgoster.php?tur=ownCloud&id=295"
        )
        #expect(items[0].id == "http://volkangezerr.scienceontheweb.net/icerikgoster.php?tur=ownCloud&amp;id=295")
    }

    /// Dublin Core 1.0's namespace names the same elements as 1.1: titles, creator, date, subjects, description.
    @Test func dublinCore10IsReadAsDublinCore() throws {
        let (metadata, items, _) = try FixtureSupport.parseFixture("rss-dublin-core-1.0-namespace.xml")
        #expect(metadata?.title == "My Title")
        try #require(items.count == 1)
        #expect(items[0].title == "Entry Title")
        #expect(items[0].authors.map(\.name) == ["Joe Bloggs"])
        #expect(items[0].datePublished == (try date("2009-03-07T08:03:50Z")))
        #expect(items[0].tags == ["topic1", "topic2"])
        #expect((items[0].contentHTML ?? items[0].contentText) == "Entry Description")
    }

    @Test func moduleNamespacesWithoutTheirLastSlashAreRead() throws {
        let items = try FixtureSupport.parseFixture("rss-module-namespaces-without-trailing-slash.xml").items
        try #require(items.count == 1)
        #expect(items[0].authors.map(\.name) == ["Taverncast: www.taverncast.com"])
        #expect(items[0].contentHTML == "<p>Taverncast tosses around the age old topic: time travel!</p>")
        #expect(items[0].datePublished == (try date("2015-11-07T17:00:00Z")))
    }

    @Test func inlineMarkupInATitleSeparatesNoWords() throws {
        let items = try FixtureSupport.parseFixture("rss-title-superscript-inline.xml").items
        #expect(
            items.map(\.title) == [
                "Bright, Spacious Beautiful Victorian (oakland north / temescal) $4300 3bd 1930ft2",
                "Two lines and sq ft",
            ]
        )
    }

    @Test func anAtomLinkWhoseAddressIsItsTextIsRead() throws {
        let result = try FixtureSupport.parseFixture("atom-entry-link-address-as-text.xml")
        #expect(result.metadata?.link == "http://www.example.com/")
        #expect(result.metadata?.feedURL == "http://www.example.com/feed.atom")
        let items = result.items
        try #require(items.count == 2)
        #expect(items[0].url == "http://www.example.com/alternate")
        #expect(items[0].attachments.map(\.url) == ["http://www.example.com/episode.mp3"])
        #expect(items[0].attachments.first?.sizeInBytes == 1234)
        #expect(items[1].url == "https://feeds.example.com/second")
        #expect(items[1].attachments.map(\.url) == ["http://www.example.com/episode2.mp3"])
    }

    @Test func anEscapedTagInADescriptionIsText() throws {
        let items = try FixtureSupport.parseFixture("rss-cdata-escaped-tags-are-text.xml").items
        try #require(items.count == 2)
        #expect(items[0].contentHTML == "&lt;dsmirnov&gt; на супермикро и в отвратительных шкафах")
        #expect(items[1].contentHTML == "Use &lt;p&gt; for paragraphs, <b>not</b> &lt;br&gt;")
    }

    @Test func feedBurnersBrowserFriendlyNoteIsTheFeedsInfo() throws {
        let metadata = try #require(try FixtureSupport.parseFixture("rss-feedburner-browser-friendly.xml").metadata)
        #expect(metadata.extras.info == "This is an XML content feed. It is intended to be viewed in a newsreader.")
    }
}

extension RealWorldQuirkTests {
    /// A `<link rel="self" href="..."/>` without the Atom namespace after an RSS channel's `<link>` is the feed's
    /// own address, not its home page; in an item, it is not the item's address.
    @Test func anRSSSelfLinkWithoutTheAtomNamespaceIsNoHomePage() throws {
        let result = try FixtureSupport.parseFixture("rss-channel-self-link-without-namespace.xml")
        #expect(result.metadata?.link == "https://blog.example.org/")
        #expect(result.metadata?.feedURL == "https://blog.example.org/feed.xml")
        #expect(result.items.map(\.url) == ["https://blog.example.org/a-post"])
    }

    @Test func aFeedsHomePageIsAnAlternateWebPageBeforeAnotherType() throws {
        let result = try FixtureSupport.parseFixture("atom-feed-alternate-rss-before-home-page.xml")
        #expect(result.metadata?.link == "https://home.example/")
        #expect(result.metadata?.feedURL == "https://home.example/atom")
    }

    @Test func theFirstTitleWinsTheLastLinkWinsAndAGroupedEnclosureIsRead() throws {
        let result = try FixtureSupport.parseFixture("rss-second-title-and-late-link.xml")
        #expect(result.metadata?.title == "The feed")
        try #require(result.items.count == 1)
        #expect(result.items[0].title == "The item")
        #expect(result.items[0].url == "https://plugin.example/item")
        #expect(result.items[0].attachments.map(\.url) == ["https://plugin.example/item.mp3"])
    }
}

extension RealWorldQuirkTests {
    @Test func iTunesCategoriesCarryTheITunesScheme() throws {
        let result = try FixtureSupport.parseFixture("itunes-categories-scheme.xml")
        let itunes = "http://www.itunes.com/"
        #expect(result.metadata?.tags == ["Technology", "Gadgets"])
        #expect(
            result.metadata?.categories == [
                TributaryExtension.Category(term: "Technology", scheme: itunes),
                TributaryExtension.Category(term: "Gadgets", scheme: itunes),
            ]
        )
        try #require(result.items.count == 1)
        #expect(result.items[0].tags == ["TV & Film", "Reviews"])
        #expect(
            result.items[0].tributary?.categories == [
                TributaryExtension.Category(term: "TV & Film", scheme: itunes),
                TributaryExtension.Category(term: "Reviews"),
            ]
        )
    }
}

extension RealWorldQuirkTests {
    /// A feed or entry id that is an absolute URI (`yt:`, `tag:`, `urn:`) is the address when there is no web page
    /// to link, as feedparser reads it; an unsafe one (`javascript:`) is no address.
    @Test func anAtomIdThatIsAURIIsTheAddressWhenThereIsNoWebPage() throws {
        let result = try FixtureSupport.parseFixture("atom-tag-and-yt-ids-without-web-link.xml")
        #expect(result.metadata?.link == "yt:channel:UC7_gcs09iThXybpVgjHZ_7g")
        #expect(
            result.items.map(\.url) == [
                "https://www.youtube.com/watch?v=0A1ouV7iD8o",
                "tag:research.swtch.com,2012:research.swtch.com/tlog",
                "tag:andrea.pappacoda.it,2024-12-12:tesi",
                "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
                nil,
            ]
        )
        #expect(result.items.last?.id == "javascript:alert(1)")
    }

    /// A permalink guid (isPermaLink absent or true) that is a `tag:` or `urn:` URI is the item's address; one marked
    /// isPermaLink="false" is not, and a `data:` guid never is.
    @Test func aPermalinkGuidThatIsAURIIsTheAddressOfAnItemWithNoLink() throws {
        let items = try FixtureSupport.parseFixture("rss-guid-tag-uri-without-link.xml").items
        #expect(items.map(\.url) == ["tag:blog.example,2026:post-1", "urn:z:1", nil, nil])
        #expect(items.map(\.id).prefix(3) == ["tag:blog.example,2026:post-1", "urn:z:1", "urn:z:2"])
    }
}

extension RealWorldQuirkTests {
    /// The text inside inline SVG (`<text>`), MathML and a `<video>`'s fallback stays, as feedparser keeps it; the
    /// elements, their attributes and a script inside them do not.
    @Test func svgMathMLAndVideoFallbackKeepTheirText() throws {
        let items = try FixtureSupport.parseFixture(
            "atom-xhtml-svg-text-mathml-video-fallback.xml",
            options: FeedParserOptions(baseURL: FixtureSupport.feedURL, sourceID: "test-source")
        ).items
        let html = try #require(items.first?.contentHTML)
        #expect(html.hasPrefix("W\n<p>chat implements a shared textarea field.</p>"))
        #expect(html.contains("<p>E=mc2 holds.</p>"))
        #expect(html.contains("<a href=\"https://video.example/a.mp4\">https://video.example/a.mp4</a>"))
        for gone in ["<svg", "<text", "<math", "<video", "<source", "alert", "onload", "poster"] {
            #expect(!html.contains(gone), "\(gone)")
        }
    }

    /// A legacy reference without its semicolon (`&copy`, `&eacute`) is decoded in a title that is HTML, as HTML
    /// reads text. A title with no end tag and no whole reference is not HTML (feedparser's guess): it stays as
    /// written, as feedparser shows it.
    @Test func legacyReferencesWithoutASemicolonAreDecodedInHTMLTitles() throws {
        let result = try FixtureSupport.parseFixture("rss-legacy-entity-without-semicolon.xml")
        #expect(result.metadata?.title == "?page=1©=2;mode=x & done")
        #expect(result.items.map(\.title) == ["Caf&eacute au lait &copy 2026"])
    }

    /// feedparser's second description: one that comes after another and before any content is the content, the
    /// first the summary; an empty one leaves no content; after `content:encoded` it is only the summary.
    @Test func aSecondDescriptionBeforeAnyContentIsTheContent() throws {
        let items = try FixtureSupport.parseFixture("rss-second-description-is-content.xml").items
        try #require(items.count == 5)
        #expect(items[0].contentHTML == "This morning we found a boy. He has no name...")
        #expect(items[0].summary == "This morning we found a boy.")
        #expect(items[1].contentHTML == "About 50 students wear hijabs.")
        #expect(items[1].summary == "Winnipeg high school students now have the choice.")
        #expect(items[2].contentHTML == nil)
        #expect(items[2].summary == "Employees use tools at their disposal.")
        #expect(items[3].contentHTML == "<p>The whole text</p>")
        #expect(items[3].summary == "Longer summary")
        #expect(items[4].contentText == "The summary")
        #expect(items[4].summary == "The description")
    }
}

extension RealWorldQuirkTests {
    /// Dublin Core, Creative Commons, iTunes and Podlove fields feedparser reads, in `_tributary`: the channel's
    /// created, issued (its publication) and validity and its contributor; an episode's created, expiration,
    /// licence, publisher, contributor, duration as written, subtitle and chapters (the first `psc:chapters` only).
    @Test func dublinCoreLicenceITunesAndChapterFieldsAreKept() throws {
        let result = try FixtureSupport.parseFixture("rss-dublin-core-licence-chapters-and-itunes-fields.xml")
        let metadata = try #require(result.metadata)
        #expect(metadata.extras.created == (try date("2003-12-31T10:14:55Z")))
        #expect(metadata.published == (try date("2004-01-02T08:00:00Z")))
        #expect(metadata.extras.validStart == (try date("2002-10-13T08:00:00Z")))
        #expect(metadata.extras.validEnd == (try date("2002-10-17T16:00:00Z")))
        #expect(metadata.contributors == [FeedItem.Author(name: "Tim Pritlove")])
        let tributary = try #require(result.items.first?.tributary)
        #expect(tributary.created == (try date("2015-02-26T10:00:00Z")))
        #expect(tributary.expires == (try date("2026-01-01T19:48:21Z")))
        #expect(tributary.license == "http://creativecommons.org/licenses/by-nc-sa/3.0/")
        #expect(
            tributary.publisher == FeedItem.Author(name: "Metaebene Personal Media", email: "redaktion@cre.example")
        )
        #expect(tributary.contributors == [FeedItem.Author(name: "Björn Voss")])
        #expect(tributary.itunesDuration == "01:36:29")
        #expect(tributary.itunesSubtitle == "Digitale Planetarien lassen den Zauber der Wissenschaft neu entstehen")
        #expect(
            tributary.chapters
                == .object([
                    "version": .string("1.2"),
                    "chapters": .array([
                        .object(["start": .string("00:00:00.000"), "title": .string("Intro")]),
                        .object([
                            "start": .string("00:03:07.250"), "title": .string("Begrüßung"),
                            "href": .string("https://feeds.example.com/cre207#begruessung"),
                            "image": .string("https://cre.example/c.jpg"),
                        ]),
                    ]),
                ])
        )
        // Written to JSON Feed and read back (by Codable and by the store's reader), nothing is lost.
        let item = try #require(result.items.first)
        let written = Data(JSONFeedWriter.encode(JSONFeed(title: "T", items: [item])))
        #expect(try JSONDecoder().decode(JSONFeed.self, from: written).items.first?.tributary == tributary)
        #expect(try JSONDecoder().decode(FeedItem.self, from: JSONEncoder().encode(item)).tributary == tributary)
        let stored = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        #expect(FeedItem(json: stored)?.tributary == tributary)
    }
}

extension RealWorldQuirkTests {
    /// `<source url="">` names a title and no feed: the item's origin has no address (resolved, the empty URL was
    /// the feed's own).
    @Test func aSourceWithAnEmptyURLHasNoAddress() throws {
        let items = try FixtureSupport.parseFixture("rss-source-empty-url.xml").items
        let origin = try #require(items.first?.tributary?.origin)
        #expect(origin.title == "Someone's blog")
        #expect(origin.url == nil)
    }

    /// An Atom entry's `<source>` keeps its links as written, its categories' schemes and labels and its generator's
    /// version and URI, as feedparser reads them.
    @Test func anAtomSourceKeepsItsLinksCategoriesAndGenerator() throws {
        let items = try FixtureSupport.parseFixture("atom-source-links-categories-generator.xml").items
        let origin = try #require(items.first?.tributary?.origin)
        #expect(origin.url == "https://feeds.example.com/")
        #expect(
            origin.links == [
                TributaryExtension.Link(
                    rel: "self",
                    url: "https://blog.example/feed.atom",
                    type: "application/atom+xml"
                ),
                TributaryExtension.Link(
                    rel: "alternate",
                    url: "https://feeds.example.com/",
                    type: "text/html",
                    title: "Example Blog",
                    hreflang: "en"
                ),
            ]
        )
        #expect(
            origin.categories == [
                TributaryExtension.Category(
                    term: "tests",
                    scheme: "http://feedparser.org/tests/",
                    label: "Atom 1.0 tests"
                )
            ]
        )
        #expect(origin.generator == "Example Toolkit")
        #expect(origin.generatorVersion == "2.65")
        #expect(origin.generatorURL == "https://feeds.example.com/generator")
        // Written to JSON Feed and read back (by Codable and by the store's reader), nothing is lost.
        let item = try #require(items.first)
        let written = Data(JSONFeedWriter.encode(JSONFeed(title: "T", items: [item])))
        #expect(try JSONDecoder().decode(JSONFeed.self, from: written).items.first?.tributary?.origin == origin)
        let stored = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        #expect(FeedItem(json: stored)?.tributary?.origin == origin)
    }
}

extension RealWorldQuirkTests {
    @Test func escapedHTMLWrappedInAnXHTMLDivIsStillHTML() throws {
        let items = try FixtureSupport.parseFixture("atom-html-content-wrapped-in-xhtml-div.xml").items
        try #require(items.count == 2)
        #expect(items[0].contentHTML == "<p>Entry <b>Content</b></p>")
        #expect(items[1].contentHTML == "<p>Two &amp;lt; three</p>")
    }
}

extension RealWorldQuirkTests {
    /// A child element of an RSS title gives its text: `cast<char>(0xFE)</char>` was shown with its tags, since
    /// `char` is no HTML element and only HTML's elements are markup in a title.
    @Test func elementsInAnRSSTitleGiveTheirText() throws {
        let result = try FixtureSupport.parseFixture("rss-title-with-child-elements.xml")
        #expect(result.metadata?.title == "x y z")
        #expect(
            result.items.map(\.title) == ["cast(0xFE) end", "Use <p> for bold paragraphs", "A B & C"]
        )
    }
}

extension RealWorldQuirkTests {
    /// rome's `at.xml`: legacy references without their semicolon in HTML content are read as HTML reads them
    /// (sanitized, as `parse` and the digest give it); a query string's `&copy=2` in an attribute stays as written.
    /// An iTunes summary without markup is plain text: what it says (`&quotEdward`) stays, as feedparser shows it.
    @Test func legacyReferencesWithoutASemicolonAreDecodedInContent() throws {
        let options = FeedParserOptions(baseURL: FixtureSupport.feedURL, sourceID: "test-source")
        let items = try FixtureSupport.parse(
            FixtureSupport.bytes("rss-legacy-entity-without-semicolon-in-content.xml"),
            options: options
        ).items
        try #require(items.count == 2)
        #expect(items[0].contentHTML == "&amp;quotEdward&amp;quot talks &amp;copy 2005")
        #expect(
            items[1].contentHTML
                == "<p>Café © 2005 <a href=\"https://legacy.example/?a=1&amp;copy=2\" title=\"© 2005\">more</a></p>"
        )
    }

    /// miniflux's test feed: `<atom:author><name>` in an RSS item (and channel) gives the author, its email and uri.
    @Test func anAtomAuthorsUnprefixedPartsAreRead() throws {
        let result = try FixtureSupport.parseFixture("rss-atom-author-unprefixed-name.xml")
        #expect(
            result.items.first?.authors
                == [FeedItem.Author(name: "Foo Bar", url: "https://example.org/foo", email: "foo@example.org")]
        )
        #expect(result.metadata?.authors.map(\.name) == ["Channel Author"])
    }

    /// Only `isPermaLink="true"` or none makes the guid the item's address; other values name an id.
    @Test func onlyATruePermaLinkMakesTheGuidTheAddress() throws {
        let items = try FixtureSupport.parseFixture("rss-guid-ispermalink-values.xml").items
        try #require(items.count == 5)
        #expect(items.map(\.url) == ["https://permalink.example/1", "https://permalink.example/2", nil, nil, nil])
        #expect(
            items.map(\.id) == [
                "https://permalink.example/1", "https://permalink.example/2", "post-3", "post-4",
                "https://permalink.example/5",
            ]
        )
    }

    /// A declared UTF-16LE over UTF-8 bytes without a byte order mark is read as UTF-8, with a warning, rather than
    /// failing the whole feed at line 1.
    @Test func aWideEncodingDeclaredOverOneByteCharactersIsReadAsUTF8() throws {
        let result = try FixtureSupport.parseFixture("rss-declared-utf16le-bytes-utf8.xml")
        #expect(result.metadata?.title == "Café")
        #expect(result.items.map(\.title) == ["Item Title — ok"])
        #expect(result.warnings.contains { $0.message.contains("says its encoding is 'UTF-16LE'") })
    }
}

extension RealWorldQuirkTests {
    /// `]]>` outside a CDATA section is text, as written, with a warning; it cost the whole title before (libxml2's
    /// recovery kept `]>`). Fed in chunks that split the `]]>` at each of its bytes, the result is the same.
    @Test func aCDATAEndOutsideASectionIsText() throws {
        let bytes = try FixtureSupport.bytes("rss-cdata-end-outside-cdata.xml")
        let title = Array("Some headline]]>".utf8)
        let at = try #require(
            bytes.indices.first { bytes[$0..<min(bytes.count, $0 + title.count)].elementsEqual(title) }
        )
        for split in [[], [at + 13], [at + 14], [at + 15], [at + 14, at + 15]] {
            let result = try FixtureSupport.parse(bytes, splitAt: split)
            try #require(result.items.count == 2, "split at \(split)")
            #expect(result.items.map(\.title) == ["Some headline]]>", "Double closed]]>"], "split at \(split)")
            #expect(result.items[0].contentHTML == "Body text before]]> and after", "split at \(split)")
            #expect(result.items[1].contentHTML == "<p>Body</p>]]>", "split at \(split)")
            #expect(result.warnings.contains { $0.message.contains("']]>' outside a CDATA section") })
        }
    }
}

extension RealWorldQuirkTests {
    /// HTML longer than the sanitizer reads (1 MiB by default) is cut with a warning that says so; a post of 2.4 MB
    /// (Feeder's saved Londoner feed, mostly inlined CSS) lost its end without a word.
    @Test func htmlLongerThanTheSanitizerReadsIsCutWithAWarning() throws {
        let post = "<p>" + String(repeating: "word ", count: 250_000) + "</p><p>The end.</p>"
        let feed =
            "<rss version=\"2.0\"><channel><title>t</title><item><title>Long</title><description><![CDATA["
            + post + "]]></description></item><item><title>Short</title><description>&lt;p&gt;ok&lt;/p&gt;"
            + "</description></item></channel></rss>"
        let options = FeedParserOptions(baseURL: FixtureSupport.feedURL, sourceID: "test-source")
        let result = try FixtureSupport.parse(Array(feed.utf8), options: options)
        try #require(result.items.count == 2)
        let long = try #require(result.items[0].contentHTML)
        #expect(long.hasPrefix("<p>word word"))
        #expect(!long.contains("The end."))
        #expect(result.items[1].contentHTML == "<p>ok</p>")
        let warnings = result.warnings.filter { $0.message.contains("only its first 1048576 bytes are shown") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("1250022 bytes long") == true)
    }

    /// Module namespaces written with `https` or with spaces around them (theweek.com, Microsoft's MSN feed
    /// specification, feedsmith's tests) lost their module: no author, date, tags or content.
    @Test func moduleNamespacesWithHTTPSOrSpacesAreTheModules() throws {
        let items = try FixtureSupport.parseFixture("rss-module-namespaces-https-or-padded.xml").items
        try #require(items.count == 1)
        #expect(items[0].authors.map(\.name) == ["Scott Hocker"])
        #expect(items[0].datePublished == (try date("2026-02-17T17:58:01Z")))
        #expect(items[0].tags == ["Food"])
        #expect(items[0].contentHTML == "<p>Full HTML content</p>")
        #expect(items[0].summary == "Short summary")
        #expect(items[0].tributary?.itunesDuration == "10:00")
    }

    /// RSS 1.0 whose default namespace has spaces around it was refused as "not a feed".
    @Test func rss10InAPaddedNamespaceIsRead() throws {
        let parsed = try FixtureSupport.parseFixture("rss10-namespace-padded.xml")
        #expect(parsed.metadata?.format == .rss10)
        #expect(parsed.items.map(\.title) == ["I"])
    }

    /// `&#` without digits is text in HTML (a post's JavaScript, `&#${code};`), read directly and through libxml2,
    /// in text and in attribute values; a numeric reference with digits is still a character.
    @Test func anAmpersandAndHashWithoutDigitsStaysInHTML() throws {
        let items = try sanitized("rss-html-ampersand-hash-without-digits.xml")
        try #require(items.count == 3)
        #expect(items[0].contentHTML == "<p>map(c =&gt; `&amp;#${c.charCodeAt(0)};`)</p>")
        #expect(items[1].contentHTML == "a &amp;#; b &amp;#x; c &amp;#xZ d &amp;# e A f")
        #expect(
            items[2].contentHTML == "<table><tr><td title=\"&amp;#x\">a &amp;#; b &amp;#xZ c A</td></tr></table>"
        )
    }

    /// Markup declarations in HTML content (`<![CDATA[...]]>`, Word's `<![if !supportLists]>`) are bogus comments to
    /// a browser, hidden; libxml2 showed them as text.
    @Test func markupDeclarationsInHTMLAreHidden() throws {
        let items = try sanitized("rss-html-markup-declarations.xml")
        try #require(items.count == 3)
        #expect(items[0].contentHTML == "<p>a</p> tail")
        #expect(items[1].contentHTML == "<p>· Item one</p>")
        #expect(items[2].contentHTML == "<p>xz</p><p>after</p>")
    }

    /// A `canvas`'s content is the fallback for a reader whose browser draws nothing in it: kept, as `noscript`'s.
    @Test func aCanvasFallbackIsKept() throws {
        let items = try sanitized("rss-html-canvas-fallback-text.xml")
        #expect(
            items.first?.contentHTML
                == "<h2>Observations</h2>(Chart of practice per musical instrument)<p>Turns out</p>"
        )
    }

    /// `dcterms:issued` is the publication and `dcterms:modified` the update, in either order: the modified date
    /// replaced the issued one as the publication.
    @Test func dctermsIssuedAndModifiedAreBothKept() throws {
        let items = try FixtureSupport.parseFixture("atom-dcterms-issued-then-modified.xml").items
        try #require(items.count == 2)
        for item in items {
            #expect(item.datePublished == (try date("2022-01-01T12:00:00Z")))
            #expect(item.dateModified == (try date("2022-06-01T12:00:00Z")))
        }
    }

    /// CommitStrip's French dates: `mar.` (mardi) was read as March, and `févr.` was not read.
    @Test func frenchDayAndMonthNames() throws {
        let items = try FixtureSupport.parseFixture("rss-localized-day-and-month-names.xml").items
        #expect(
            try items.map(\.datePublished) == [
                date("2022-09-13T16:41:30Z"), date("2022-02-22T20:04:25Z"), date("2022-09-13T16:41:30Z"),
            ]
        )
    }

    /// Of two `content:encoded`, the first is the content (FlexGet's test feed; feedparser's `content[0]`); an empty
    /// one gives way to the next.
    @Test func theFirstOfTwoContentsIsTheContent() throws {
        let items = try FixtureSupport.parseFixture("rss-two-content-encoded.xml").items
        #expect(items.map(\.contentHTML) == ["<p>first body</p>", "<p>the body</p>"])
    }

    /// WordPress's zero date as PHP writes it (`Wed, 30 Nov -0001 00:00:00 +0000`) is no date, not the year 1.
    @Test func aNegativeYearIsNoDate() throws {
        let items = try FixtureSupport.parseFixture("rss-wordpress-zero-date.xml").items
        #expect(items.count == 2)
        #expect(items.allSatisfy { $0.datePublished == nil })
    }
}
