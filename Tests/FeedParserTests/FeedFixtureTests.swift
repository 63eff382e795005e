import FeedParser
import Foundation
import Testing
import TributaryCore

@Suite struct FeedFixtureTests {
    private func date(_ string: String) throws -> Date {
        try #require(RFC3339.parse(string))
    }

    @Test func googleNewsTopStoriesInEnglish() throws {
        let result = try FixtureSupport.parseFixture("google-news-top-stories-en.xml")
        let metadata = try #require(result.metadata)
        #expect(metadata.format == .rss20)
        #expect(metadata.title == "Top stories - Google News")
        #expect(metadata.link == "https://news.google.com/?hl=en-US&gl=US&ceid=US:en")
        #expect(metadata.generator == "NFE/5.0")
        #expect(metadata.language == "en-US")
        #expect(metadata.description == "Google News")
        #expect(metadata.updated == (try date("2026-11-22T05:44:12Z")))
        #expect(result.items.count == 4)
        #expect(result.warnings.isEmpty)

        let token =
            "CBMiXmh0dHBzOi8vYXBuZXdzLmNvbS9hcnRpY2xlL2NvbmdyZXNzLXNodXRkb3duLXN0b3BnYXAtZnVuZGluZy1iaWxsLXNlbmF0ZS12b3RlLTIwMjbSAQA"
        let cluster = result.items[0]
        #expect(cluster.id == token)
        #expect(cluster.url == "https://news.google.com/rss/articles/\(token)?oc=5")
        #expect(
            cluster.title == "Senate passes stopgap funding bill hours before shutdown deadline - The Associated Press"
        )
        #expect(cluster.datePublished == (try date("2026-11-22T04:12:00Z")))
        #expect(cluster.dateModified == nil)
        #expect(cluster.tributary?.guid == token)
        #expect(cluster.tributary?.source == "test-source")
        #expect(
            cluster.tributary?.origin
                == TributaryExtension.Origin(title: "The Associated Press", url: "https://apnews.com")
        )
        let html = try #require(cluster.contentHTML)
        #expect(
            html.hasPrefix("<ol><li><a href=\"https://news.google.com/rss/articles/\(token)?oc=5\" target=\"_blank\">")
        )
        #expect(html.contains("&nbsp;&nbsp;<font color=\"#6f6f6f\">The New York Times</font></li>"))
        #expect(html.contains("Shutdown averted as House follows Senate &amp; sends bill to president</a>"))
        #expect(html.hasSuffix("</li></ol>"))
        #expect(cluster.summary == nil)
        #expect(cluster.authors.isEmpty)

        let single = result.items[1]
        #expect(single.title == "NASA's Artemis III crew completes final dress rehearsal - Space.com")
        #expect(single.contentHTML?.hasSuffix("</a>&nbsp;&nbsp;<font color=\"#6f6f6f\">Space.com</font>") == true)
        #expect(single.tributary?.origin?.url == "https://www.space.com")
        #expect(
            result.items.map(\.datePublished) == [
                try date("2026-11-22T04:12:00Z"), try date("2026-11-22T03:30:15Z"), try date("2026-11-21T22:05:09Z"),
                try date("2026-11-21T19:48:00Z"),
            ]
        )
    }

    @Test func googleNewsTopStoriesInJapanese() throws {
        let result = try FixtureSupport.parseFixture("google-news-top-stories-ja.xml")
        #expect(result.metadata?.title == "トップニュース - Google ニュース")
        #expect(result.metadata?.language == "ja")
        #expect(
            result.items.map(\.title) == [
                "日銀、追加利上げを決定　政策金利0.75%に - 日本経済新聞", "東京で初雪　平年より12日早く - ウェザーニュース",
                "大谷翔平、3年連続MVP「チームのおかげ」 - スポーツ報知",
            ]
        )
        #expect(result.items.map { $0.tributary?.origin?.title } == ["日本経済新聞", "ウェザーニュース", "スポーツ報知"])
        #expect(
            result.items[0].contentHTML?.contains("住宅ローン金利への影響は</a>&nbsp;&nbsp;<font color=\"#6f6f6f\">NHK</font>")
                == true
        )
        #expect(result.items[1].datePublished == (try date("2026-11-21T23:02:31Z")))
        #expect(result.items.allSatisfy { $0.url?.hasPrefix("https://news.google.com/rss/articles/CBMi") == true })
        #expect(result.items.allSatisfy { $0.id == $0.tributary?.guid && $0.id.hasPrefix("CBMi") })
    }

    @Test func googleNewsSearchDecodesDoubleEscapedTitles() throws {
        let result = try FixtureSupport.parseFixture("google-news-search-en.xml")
        #expect(result.metadata?.title == "\"Swift language when:7d\" - Google News")
        #expect(
            result.metadata?.link == "https://news.google.com/search?q=Swift+language+when:7d&hl=en-US&gl=US&ceid=US:en"
        )
        #expect(result.items.count == 3)
        #expect(result.items[0].title == "Swift 6.3 brings faster builds and \"typed throws\" everywhere - InfoQ")
        #expect(result.items[2].datePublished == (try date("2026-11-16T09:15:30Z")))
        #expect(
            result.items[1].tributary?.origin == TributaryExtension.Origin(title: "9to5Mac", url: "https://9to5mac.com")
        )
    }

    @Test func atomBlogWithXMLBaseAndXHTMLContent() throws {
        let result = try FixtureSupport.parseFixture("atom-blog-xml-base-xhtml.xml")
        let metadata = try #require(result.metadata)
        #expect(metadata.format == .atom10)
        #expect(metadata.title == "Example Engineering Blog")
        #expect(metadata.description == "Notes on Swift & servers")
        #expect(metadata.link == "https://blog.example.org/")
        #expect(metadata.feedURL == "https://blog.example.org/feed.atom")
        #expect(metadata.generator == "Hugo")
        #expect(metadata.generatorVersion == "0.139")
        #expect(metadata.image == "https://blog.example.org/favicon.ico")
        #expect(
            metadata.authors == [
                FeedItem.Author(name: "Ada Example", url: "https://blog.example.org/about", email: "ada@example.org")
            ]
        )
        #expect(result.items.count == 3)

        let first = result.items[0]
        #expect(first.id == "tag:blog.example.org,2026:post-42")
        #expect(first.url == "https://blog.example.org/posts/fast-parsing/")
        #expect(first.title == "Parsing RSS at <300 MB/s")
        #expect(first.summary == "How we made the feed parser fast & safe.")
        #expect(first.datePublished == (try date("2026-11-21T00:30:00Z")))
        #expect(first.dateModified == (try date("2026-11-21T12:00:00Z")))
        #expect(first.tags == ["swift", "performance"])
        #expect(
            first.attachments == [
                FeedItem.Attachment(
                    url: "https://blog.example.org/media/talk.mp3",
                    mimeType: "audio/mpeg",
                    sizeInBytes: 1_234_567
                )
            ]
        )
        #expect(
            first.contentHTML
                == "<p>The parser runs at <strong>300\u{A0}MB/s</strong>.</p><p><img src=\"https://blog.example.org/posts/fast-parsing/chart.png\" alt=\"a &lt;chart&gt;\"><br><a href=\"https://blog.example.org/posts/other/\">Read more</a> about 1 &lt; 2.</p>"
        )

        let second = result.items[1]
        #expect(second.url == "https://mirror.example.net/blog/second/")
        #expect(second.title == "Second post: entities & relative links")
        #expect(second.authors == [FeedItem.Author(name: "Grace Example")])
        #expect(second.contentHTML == "<p>Hello <a href=\"https://mirror.example.net/x\">world</a></p>")
        #expect(
            second.tributary?.origin
                == TributaryExtension.Origin(title: "Mirror Blog", url: "https://mirror.example.net/", id: "tag:mirror")
        )
        #expect(second.datePublished == (try date("2026-11-20T08:00:00Z")))

        let third = result.items[2]
        #expect(third.title == "An xhtml title")
        #expect(third.contentText == "Plain text content with <no tags>.")
        #expect(third.contentHTML == nil)
        // No link: its `tag:` id is its address, as feedparser reads it.
        #expect(third.url == "tag:blog.example.org,2026:post-44")
    }

    @Test func podcastWithITunesAndEnclosures() throws {
        let result = try FixtureSupport.parseFixture("podcast-itunes-enclosures.xml")
        #expect(result.metadata?.feedURL == "https://podcast.example.com/feed.xml")
        #expect(result.metadata?.image == "https://podcast.example.com/cover.jpg")
        let episode12 = result.items[0]
        #expect(episode12.id == "ct-ep-12")
        #expect(episode12.url == "https://podcast.example.com/episodes/12")
        #expect(episode12.title == "Episode 12: Type checking & you")
        #expect(episode12.datePublished == (try date("2026-11-19T14:00:00Z")))
        #expect(episode12.authors == [FeedItem.Author(name: "Jane Host")])
        #expect(episode12.image == "https://podcast.example.com/ep12.jpg")
        #expect(episode12.summary == "We talk about type checking.")
        #expect(
            episode12.contentHTML
                == "<p>Show notes: <a href=\"https://example.com/tc\">type checking</a> &amp; more.</p>"
        )
        #expect(episode12.tags == ["Technology", "Compilers"])
        #expect(
            episode12.attachments == [
                FeedItem.Attachment(
                    url: "https://cdn.example.com/ct/ep12.mp3?src=rss&id=12",
                    mimeType: "audio/mpeg",
                    sizeInBytes: 59_834_112,
                    durationInSeconds: 3723
                )
            ]
        )
        let episode11 = result.items[1]
        #expect(episode11.id == "https://podcast.example.com/episodes/11")
        #expect(episode11.url == "https://podcast.example.com/episodes/11")
        #expect(episode11.datePublished == (try date("2026-11-12T14:00:00Z")))
        #expect(episode11.authors == [FeedItem.Author(name: "Jane Host", email: "jane@example.com")])
        #expect(episode11.image == "https://cdn.example.com/ct/ep11-thumb.jpg")
        // Its audio is a Media RSS `media:content`, not an `enclosure`: not an attachment (feedparser's enclosures
        // are `enclosure` elements only).
        #expect(episode11.attachments == [])
    }

    @Test func rdfFeedWithDublinCore() throws {
        let result = try FixtureSupport.parseFixture("rdf-rss10-dublin-core.xml")
        #expect(result.metadata?.format == .rss10)
        #expect(result.metadata?.language == "ja")
        #expect(result.metadata?.updated == (try date("2026-11-22T05:00:00Z")))
        let first = result.items[0]
        #expect(first.id == "https://www.example.jp/a")
        #expect(first.title == "Swiftで高速なフィードパーサーを書く")
        #expect(first.authors == [FeedItem.Author(name: "山田太郎")])
        #expect(first.tags == ["プログラミング", "Swift"])
        #expect(first.datePublished == (try date("2026-11-22T04:45:12Z")))
        #expect(first.contentHTML == "libxml2のSAX2を使う話")
        let second = result.items[1]
        #expect(second.contentHTML == "<p>紅葉が<strong>見頃</strong>です。</p>")
        #expect(second.summary == "紅葉が見頃です。")
        #expect(second.datePublished == (try date("2026-11-21T00:00:00Z")))
    }

    @Test func oldRSSDialects() throws {
        let rss090 = try FixtureSupport.parseFixture("rss090-netscape.xml")
        #expect(rss090.metadata?.format == .rss090)
        #expect(rss090.metadata?.image == "http://www.mozilla.org/images/moz.gif")
        #expect(rss090.metadata?.title == "Mozilla Dot Org")
        #expect(rss090.items.map(\.url) == ["http://www.mozilla.org/status/", "http://www.mozilla.org/bugs/"])

        let rss091 = try FixtureSupport.parseFixture("rss091-doctype-html-entities.xml")
        #expect(rss091.metadata?.format == .rss091)
        #expect(rss091.metadata?.authors == [FeedItem.Author(name: "Dan Editor", email: "dmwmaster@writetheweb.com")])
        #expect(rss091.items[0].title == "Giving the world a pluggable Gnutella\u{A0}— café")
        #expect(rss091.items[0].contentHTML?.hasSuffix("Gnutella…") == true)

        let rss092 = try FixtureSupport.parseFixture("rss092-relative-links-no-guid.xml")
        #expect(rss092.metadata?.format == .rss092)
        let noTitle = rss092.items[0]
        #expect(noTitle.title == nil)
        #expect(noTitle.id.hasPrefix("tributary:"))
        #expect(noTitle.id == noTitle.derivedID())
        #expect(noTitle.attachments.first?.sizeInBytes == 6_182_912)
        #expect(rss092.items[1].url == "https://feeds.example.com/archive/2001/04/13.html")
        #expect(rss092.items[1].id == "https://feeds.example.com/archive/2001/04/13.html")
    }

    @Test func atom03WithEscapedMode() throws {
        let result = try FixtureSupport.parseFixture("atom03-escaped-mode.xml")
        #expect(result.metadata?.format == .atom03)
        // `mode="escaped"` without a type is text (Atom 0.3's default type), as feedparser reads it: the escaped
        // tags are characters of the tagline. The content says `text/html` and is HTML.
        #expect(result.metadata?.description == "A <em>lot</em> of effort went into making this effortless")
        let entry = try #require(result.items.first)
        #expect(entry.id == "tag:diveintomark.org,2003:3.2397")
        #expect(entry.contentHTML == "<p>Hello, <em>world</em>!</p>")
        #expect(entry.summary == "Some text.")
        #expect(entry.datePublished == (try date("2003-12-13T12:29:29Z")))
        #expect(entry.dateModified == (try date("2003-12-13T18:30:02Z")))
        #expect(entry.url == "http://diveintomark.org/2003/12/13/atom03")
    }

    @Test func quirksCDATATitleEscapedMarkupDescriptionAndDerivedIDs() throws {
        let result = try FixtureSupport.parseFixture("double-escaped-description-cdata-title.xml")
        let first = result.items[0]
        #expect(first.title == "CDATA title & more")
        #expect(first.url == "https://example.com/cdata")
        // HTML escaped twice is shown as the escaped markup it is, as browsers, feedparser and gofeed show it.
        #expect(first.contentHTML == "&lt;p&gt;Escaped twice &amp;amp; shown as escaped markup&lt;/p&gt;")
        #expect(first.authors == [FeedItem.Author(name: "Dee Creator")])
        #expect(first.datePublished == (try date("2026-11-22T05:41:40Z")))
        let anonymous = result.items[1]
        #expect(anonymous.id.hasPrefix("tributary:"))
        #expect(anonymous.datePublished == (try date("2026-11-21T20:41:00Z")))
        let undated = result.items[2]
        #expect(undated.datePublished == nil)
        #expect(undated.id == "urn:uuid:0b1f6e0e-0000-4000-8000-000000000001")
        // Ids are stable across runs.
        #expect(
            try FixtureSupport.parseFixture("double-escaped-description-cdata-title.xml").items.map(\.id)
                == result.items.map(\.id)
        )
    }

    @Test func brokenFeedsKeepTheItemsBeforeTheDamageAndWarn() throws {
        let truncated = try FixtureSupport.parseFixture("broken-truncated.xml")
        #expect(truncated.items.map(\.title) == ["First", "Second", "Third, cut off"])
        #expect(!truncated.warnings.isEmpty)

        let unclosed = try FixtureSupport.parseFixture("broken-unclosed-tags.xml")
        #expect(unclosed.items.map(\.title) == ["Before the damage", "Has an unclosed paragraph", "After the damage"])
        #expect(unclosed.warnings.contains { $0.message.contains("Opening and ending tag mismatch") })

        let entities = try FixtureSupport.parseFixture("broken-bad-entities.xml")
        // A raw '&' and an undefined entity stay as written, as in HTML5 and feedparser.
        #expect(entities.items.map(\.title) == ["Fish & Chips", "Café © &bogus; 😀", "Last one"])
        #expect(entities.warnings.contains { $0.message.contains("bogus") })

        let junk = try FixtureSupport.parseFixture("broken-trailing-junk.xml")
        #expect(junk.items.map(\.title) == ["Only item"])
        #expect(junk.warnings.contains { $0.message.contains("Extra content") })
    }

    @Test func nonFeedInputIsRejectedWithAClearMessage() throws {
        #expect(throws: FeedParseError(.notAFeed("the root element is <html>"))) {
            _ = try FixtureSupport.parseFixture("not-a-feed-html-page.html")
        }
        #expect(throws: FeedParseError(.notAFeed("the document is empty"))) {
            _ = try FixtureSupport.parse([])
        }
        #expect(throws: FeedParseError(.notAFeed("the document is empty"))) {
            _ = try FixtureSupport.parse(Array(" \n\t".utf8))
        }
        let binary = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
        do {
            _ = try FixtureSupport.parse(binary)
            Issue.record("binary input parsed as a feed")
        } catch let error as FeedParseError {
            guard case .notAFeed(let detail) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(detail.contains("no XML root element"))
            #expect(error.description.hasPrefix("not a feed: "))
        }
        #expect(throws: FeedParseError(.notAFeed("the root element is <svg> in namespace http://www.w3.org/2000/svg")))
        {
            _ = try FixtureSupport.parse(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>".utf8))
        }
    }

    /// An `<rdf:RDF>` root makes no feed by itself: RDF of another kind is not one, an empty RSS 1.0 document is.
    @Test func rdfThatIsNoRSSIsNotAFeed() throws {
        #expect(
            throws: FeedParseError(
                .notAFeed("an <rdf:RDF> document with no RSS channel or item (RDF of another kind, such as FOAF)")
            )
        ) {
            _ = try FixtureSupport.parseFixture("not-a-feed-rdf-foaf-profile.xml")
        }
        let empty = try FixtureSupport.parse(
            Array(
                """
                <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
                </rdf:RDF>
                """.utf8
            )
        )
        #expect(empty.items.isEmpty)
        #expect(empty.metadata?.format == .rss10)
    }

    @Test func xmlBrokenBeforeTheRootElementIsMalformed() throws {
        do {
            _ = try FixtureSupport.parse(Array("<?xml version=\"1.0\"?>\n<<<>>> not really xml".utf8))
            Issue.record("broken XML parsed as a feed")
        } catch let error as FeedParseError {
            guard case .malformed(let line, _, let detail) = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(line == 2)
            #expect(!detail.isEmpty)
            #expect(error.description.hasPrefix("malformed XML at line 2"))
        }
    }

    @Test func convenienceAPIMatchesTheStreamingParser() throws {
        let data = try FixtureSupport.data("podcast-itunes-enclosures.xml")
        let convenience = try FeedParser.parse(data: data, options: FixtureSupport.options())
        let streaming = try FixtureSupport.parseFixture("podcast-itunes-enclosures.xml")
        #expect(convenience.items == streaming.items)
        #expect(convenience.metadata == streaming.metadata)
    }
}
