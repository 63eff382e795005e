import Foundation
import Testing
import TributaryCore

@testable import Renderers

@Suite struct HTMLRendererTests {
    @Test func htmlSampleMatchesGolden() throws {
        try GoldenFile.check(HTMLRenderer().render(.sample), ext: "html")
    }

    @Test func writesOneSelfContainedPageWithoutScriptsOrExternalResources() throws {
        let output = try HTMLRenderer().render(.sample)
        #expect(output.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        #expect(output.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#))
        #expect(output.contains("@media (prefers-color-scheme: dark)"))
        #expect(output.hasSuffix("</body>\n</html>\n"))
        let lowered = output.lowercased()
        for forbidden in ["<script", "<link", "<img", "<iframe", " src=", "url(", "@import", "href=\"javascript"] {
            #expect(!lowered.contains(forbidden), "found \(forbidden)")
        }
        #expect(!lowered.contains(/\son[a-z]+\s*=/), "found an event handler attribute")
    }

    @Test func drawsASectionPerDayAndAnArticlePerItem() throws {
        let sample = Digest.sample
        let output = try HTMLRenderer().render(sample)
        #expect(output.components(separatedBy: "<section ").count - 1 == sample.days.count)
        #expect(output.components(separatedBy: "<article ").count - 1 == sample.itemCount)
        #expect(output.components(separatedBy: "<strong class=\"new-mark\">").count - 1 == sample.newItemCount)
        #expect(output.contains(#"<time datetime="2026-11-22T14:41:00+09:00">2026-11-22 14:41 JST</time>"#))
        #expect(output.contains(#"<time datetime="2026-11-22T05:00:00+09:00">05:00</time>"#))
    }

    /// A digest large enough that its days' values are made in two halves side by side: every day and every entry
    /// comes out once, in the digest's order.
    @Test func aLargeDigestKeepsItsDaysAndEntriesInOrder() throws {
        let generatedAt = Date(timeIntervalSince1970: 1_795_327_200)
        let items = (0..<1_500).map { index in
            FeedItem(
                id: "item-\(index)",
                url: "https://example.org/\(index)",
                title: "Entry \(index).",
                datePublished: generatedAt.addingTimeInterval(-Double(index) * 300)
            )
        }
        let digest = DigestBuilder(title: "Large", timeZone: .gmt, generatedAt: generatedAt)
            .build(items: items, statuses: [])
        #expect(digest.days.count >= 5)
        let output = try HTMLRenderer().render(digest)
        let sections = output.matches(of: /<section id="day-([0-9-]+)"/).map { String($0.output.1) }
        #expect(sections == digest.days.map(\.id))
        let titles = output.matches(of: /Entry ([0-9]+)\./).map { String($0.output.1) }
        #expect(titles == digest.entries.map { String($0.item.id.dropFirst("item-".count)) })
    }

    @Test(arguments: TestDigest.hostileStrings)
    func escapesEveryFeedStringInTextAndAttributes(_ hostile: String) throws {
        let entry = TestDigest.entry(
            title: hostile,
            url: "https://e.example/\(hostile)\" onmouseover=\"alert(1)",
            sourceTitle: hostile,
            publisher: hostile,
            summary: hostile,
            tags: [hostile],
            related: [.init(title: hostile, url: "https://r.example/'\(hostile)", publisher: hostile)]
        )
        let output = try HTMLRenderer().render(TestDigest.digest([entry], title: hostile))
        let body = try #require(output.split(separator: "<body>\n").last)
        // Only the renderer's own tags remain: every `<` in the body starts one of them.
        let tags = Set(body.split(separator: "<").dropFirst().map { $0.prefix { $0 != " " && $0 != ">" } })
        let allowed: Set<Substring> = [
            "header", "/header", "h1", "/h1", "p", "/p", "time", "/time", "main", "/main", "section", "/section",
            "h2", "/h2", "article", "/article", "h3", "/h3", "a", "/a", "span", "/span", "ul", "/ul", "li", "/li",
            "nav", "/nav", "footer", "/footer", "/body", "/html",
        ]
        #expect(tags.isSubset(of: allowed), "unexpected tags: \(tags.subtracting(allowed))")
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\" onmouseover"))
        // Every attribute value is quoted and free of quotes: the number of quotes is even on every line.
        for line in body.split(separator: "\n") {
            #expect(line.count(where: { $0 == "\"" }) % 2 == 0, "\(line)")
            #expect(!line.contains("'"), "\(line)")
        }
    }

    @Test func escapesTheFiveSpecialCharactersAndDropsControlCharacters() {
        #expect(
            HTMLEscaping.text(#"<a href="x">Tom & 'Jerry'</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        )
        #expect(HTMLEscaping.attribute("a\"b'c\u{0}d\u{1B}[1me\nf") == "a&quot;b&#39;cde f")
        // Runs of other text are copied whole around the references, up to the first and last byte.
        #expect(HTMLEscaping.text("&é<€>ü'") == "&amp;é&lt;€&gt;ü&#39;")
        #expect(HTMLEscaping.text("plain text, nothing to escape: ß €") == "plain text, nothing to escape: ß €")
        // C1 controls (two UTF-8 bytes) and the line and paragraph separators (three) are found at either end;
        // other characters with the same lead bytes are kept.
        #expect(HTMLEscaping.text("\u{85}a\u{2028}€\u{A0}b\u{9F}") == " a €\u{A0}b")
        #expect(HTMLEscaping.text("x\u{2029}") == "x ")
        #expect(HTMLEscaping.text("\u{2030}\u{201C}q\u{201D}") == "\u{2030}\u{201C}q\u{201D}")
    }

    @Test(arguments: [
        ("https://e.example/a b?x=<1>&y=\"2\"", "https://e.example/a%20b?x=%3C1%3E&amp;y=%222%22"),
        ("HTTP://E.EXAMPLE/", "HTTP://E.EXAMPLE/"),
        ("mailto:desk@example.org", "mailto:desk@example.org"),
        ("http://[::1]:8080/a[1]?b=[2]", "http://[::1]:8080/a%5B1%5D?b=%5B2%5D"),
        ("https://例え.jp/パス", "https://%E4%BE%8B%E3%81%88.jp/%E3%83%91%E3%82%B9"),
    ])
    func linksWebAndMailURLsWithUnsafeCharactersEncoded(_ url: String, _ href: String) {
        #expect(HTMLEscaping.linkURL(url) == href)
    }

    @Test(arguments: [
        "javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,x", "vbscript:x",
        "/relative", "", "tag:example.com,2005:post-1", "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
        "yt:video:0A1ouV7iD8o",
    ])
    func showsOtherURLsAsText(_ url: String) throws {
        #expect(HTMLEscaping.linkURL(url) == nil)
        let entry = TestDigest.entry(title: "Title", url: url, related: [.init(title: "Other", url: url)])
        let output = try HTMLRenderer().render(TestDigest.digest([entry]))
        #expect(!output.contains("<a href=\"\(HTMLEscaping.attribute(url))\""))
        #expect(output.contains("<h3>Title <span class=\"url\">\(HTMLEscaping.text(url))</span></h3>"))
        #expect(output.contains("<li>Other <span class=\"url\">\(HTMLEscaping.text(url))</span></li>"))
        let hrefs = output.components(separatedBy: "href=\"").dropFirst()
        #expect(hrefs.allSatisfy { $0.hasPrefix("#") })
    }

    @Test func marksItemsInAnotherLanguageWithTheirOwnLang() throws {
        var japanese = TestDigest.entry(title: "日本語")
        japanese.item.language = "ja"
        var hostile = TestDigest.entry(title: "x")
        hostile.item.language = "en\" onclick=\"x"
        var same = TestDigest.entry(title: "y")
        same.item.language = "en"
        let output = try HTMLRenderer().render(TestDigest.digest([japanese, hostile, same]))
        #expect(output.components(separatedBy: "<article class=\"entry\" lang=\"ja\">").count == 2)
        #expect(output.components(separatedBy: "<article class=\"entry\">").count == 3)
    }

    @Test func showsSummariesAsTextNotAsMarkup() throws {
        let entry = TestDigest.entry(title: "T", summary: "<b>bold</b> <img src=x onerror=alert(1)>")
        let output = try HTMLRenderer().render(TestDigest.digest([entry]))
        #expect(
            output.contains(
                "<p class=\"summary\">&lt;b&gt;bold&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt;</p>"
            )
        )
    }

    @Test func listsEverySourceWithStateItemsAndReason() throws {
        let output = try HTMLRenderer().render(.sample)
        let table = try #require(output.split(separator: "<details id=\"sources\">").last)
        #expect(table.components(separatedBy: "<tr class=").count - 1 == Digest.sample.sources.count)
        #expect(
            table.contains(
                "<tr class=\"failed\"><th scope=\"row\">Hacker News &lt;script&gt; <span class=\"id\">hn-script</span>"
                    + "</th><td>failed</td><td class=\"count\">0</td><td>timed out after 20s;"
            )
        )
        #expect(table.contains("<li>frame 17: not valid JSON; frame skipped</li>"))
        // The table comes after the items, closed: the first screen holds the news.
        #expect(output.contains("</main>\n<details id=\"sources\">\n<summary>Sources: 7 sources, 2 failed</summary>"))
        #expect(output.contains("</table>\n</div>\n</details>\n<footer>"))
    }

    /// Failed sources are one line at the top that opens to their reasons (a closed `<details>`).
    @Test func failedSourcesAreOneLineThatOpensToTheirReasons() throws {
        let output = try HTMLRenderer().render(.sample)
        let header = try #require(output.components(separatedBy: "</header>").first)
        #expect(
            header.contains(
                "<details class=\"failures\">\n<summary><span class=\"failed\">2 of 7 failed:</span> newsroom, "
                    + "Hacker News &lt;script&gt;</summary>"
            )
        )
        #expect(header.contains("<li><strong>Hacker News &lt;script&gt;</strong>: timed out after 20s;"))
        #expect(!header.contains("<table"))
        #expect(!header.contains("<details class=\"failures\" open"))
    }

    @Test func showsASourcesHealthAndKeepsTheTableClosedWhenAllIsWell() throws {
        let sources = [
            Digest.SourceSummary(
                id: "wire",
                kind: "rss",
                title: "Wire <b>",
                state: .notModified,
                itemCount: 2,
                health: "failing for 3 runs; last success 2026-11-20 08:00"
            )
        ]
        let output = try HTMLRenderer().render(TestDigest.digest([TestDigest.entry(title: "T")], sources: sources))
        #expect(output.contains("<details id=\"sources\">\n<summary>Sources: 1 source</summary>"))
        #expect(
            output.contains(
                "<tr class=\"not-modified\"><th scope=\"row\">Wire &lt;b&gt; <span class=\"id\">wire</span></th>"
                    + "<td>not modified</td><td class=\"count\">2</td><td><span class=\"health\">failing for 3 runs; "
                    + "last success 2026-11-20 08:00</span></td></tr>"
            )
        )
    }

    @Test func hasLandmarksHeadingsInOrderAndADayNavigation() throws {
        let output = try HTMLRenderer().render(.sample)
        for landmark in ["<header>", "<nav aria-label=\"Days\">", "<main>", "<footer>"] {
            #expect(output.components(separatedBy: landmark).count == 2, "\(landmark)")
        }
        // Headings never skip a level: h1, then h2 per day, h3 per item.
        let levels = output.matches(of: /<h([1-6])[ >]/).compactMap { Int($0.output.1) }
        #expect(levels.first == 1)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $1 <= $0 + 1 })
        #expect(levels.count(where: { $0 == 2 }) == Digest.sample.days.count)
        for day in Digest.sample.days {
            let label = try #require(HTMLTemplateContext.shortLabel(ofDay: day.id))
            #expect(
                output.contains(
                    "<li><a href=\"#day-\(day.id)\" title=\"\(day.heading)\">\(label)</a> (\(day.entries.count))</li>"
                )
            )
        }
    }

    @Test func dayLabelsAreShortAndRight() {
        #expect(HTMLTemplateContext.shortLabel(ofDay: "2026-11-22") == "Sun 22 Nov")
        #expect(HTMLTemplateContext.shortLabel(ofDay: "2024-02-29") == "Thu 29 Feb")
        #expect(HTMLTemplateContext.shortLabel(ofDay: "2000-01-01") == "Sat 1 Jan")
        #expect(HTMLTemplateContext.shortLabel(ofDay: "not-a-day") == nil)
    }

    @Test func anEmptyDigestSaysSo() throws {
        var digest = TestDigest.digest([])
        digest.days = []
        let output = try HTMLRenderer().render(digest)
        #expect(output.contains("<main>\n<p class=\"empty\">No items.</p>\n</main>"))
        #expect(!output.contains("<nav"))
    }
}
