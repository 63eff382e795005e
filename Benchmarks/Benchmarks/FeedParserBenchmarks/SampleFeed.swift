import Foundation
import TributaryCore

/// Deterministic Google-News-like data for the in-memory benchmarks: the same shape as
/// `scripts/bench/gen-feeds.py` writes to disk (titles "Headline - Publisher", `CBMi…` tokens, RFC 822 dates,
/// `<source url>`, entity-escaped `<a>…<font>` descriptions, some `<ol><li>` clusters, a quarter in Japanese).
enum SampleFeed {
    /// `count` normalised items, as a parser should produce them from ``rss(for:)``.
    static func items(count: Int, seed: UInt64 = 42) -> [FeedItem] {
        var random = SplitMix64(seed: seed)
        var published = Date(timeIntervalSince1970: 1_795_412_500)  // 2026-11-22T05:41:40Z
        return (0..<count).map { _ in
            let japanese = Int.random(in: 0..<4, using: &random) == 0
            let story = Story.make(japanese: japanese, using: &random)
            published -= TimeInterval(Int.random(in: 5...600, using: &random))
            var related: [TributaryExtension.RelatedLink] = []
            if Int.random(in: 0..<10, using: &random) < 3 {
                related = (0..<Int.random(in: 2...5, using: &random)).map { _ in
                    let other = Story.make(japanese: japanese, using: &random)
                    return .init(title: other.headline, url: other.link, publisher: other.publisher)
                }
            }
            let html =
                related.isEmpty
                ? story.anchor
                : "<ol>"
                    + ([story.anchor] + related.map { Story.anchor($0.title, $0.url ?? "", $0.publisher ?? "") })
                    .map { "<li>\($0)</li>" }.joined() + "</ol>"
            return FeedItem(
                id: story.token,
                url: story.link,
                title: "\(story.headline) - \(story.publisher)",
                contentHTML: html,
                datePublished: published,
                language: japanese ? "ja" : "en",
                tributary: TributaryExtension(
                    origin: .init(title: story.publisher, url: story.publisherURL),
                    related: related,
                    guid: story.token
                )
            )
        }
    }

    /// A Google News RSS 2.0 document holding `items` (as built by ``items(count:seed:)``).
    static func rss(for items: [FeedItem]) -> [UInt8] {
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><rss xmlns:media="http://search.yahoo.com/mrss/" \
            version="2.0"><channel><generator>NFE/5.0</generator><title>Top stories - Google News</title>\
            <link>https://news.google.com/?hl=en-US&amp;gl=US&amp;ceid=US:en</link><language>en-US</language>\
            <lastBuildDate>Sun, 22 Nov 2026 05:41:40 GMT</lastBuildDate><description>Google News</description>

            """
        for item in items {
            xml += "<item><title>\(escaped(item.title ?? ""))</title><link>\(item.url ?? "")</link>"
            xml += "<guid isPermaLink=\"false\">\(item.id)</guid>"
            xml += "<pubDate>\(rfc822(item.datePublished ?? Date(timeIntervalSince1970: 0)))</pubDate>"
            xml += "<description>\(escaped(item.contentHTML ?? ""))</description>"
            let origin = item.tributary?.origin
            xml += "<source url=\"\(origin?.url ?? "")\">\(escaped(origin?.title ?? ""))</source></item>\n"
        }
        xml += "</channel></rss>\n"
        return Array(xml.utf8)
    }

    /// Escapes text for XML element content.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `Sun, 22 Nov 2026 05:41:40 GMT`.
    static func rfc822(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = RFC3339.civilFromDays(days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let monthName = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]
        let time = seconds - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekday), \(two(day)) \(monthName) \(year) \(two(time / 3600)):\(two(time % 3600 / 60)):\(two(time % 60)) GMT"
    }
}

/// One generated story: a headline, its publisher and its Google News token.
private struct Story {
    var headline: String
    var publisher: String
    var publisherURL: String
    var token: String

    var link: String { "https://news.google.com/rss/articles/\(token)?oc=5" }
    var anchor: String { Self.anchor(headline, link, publisher) }

    static func anchor(_ headline: String, _ link: String, _ publisher: String) -> String {
        "<a href=\"\(link)\" target=\"_blank\">\(SampleFeed.escaped(headline))</a>&nbsp;&nbsp;"
            + "<font color=\"#6f6f6f\">\(SampleFeed.escaped(publisher))</font>"
    }

    static func make(japanese: Bool, using random: inout SplitMix64) -> Story {
        let tokenAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let token =
            "CBMi"
            + String(
                (0..<Int.random(in: 90...190, using: &random)).map { _ in
                    tokenAlphabet.randomElement(using: &random) ?? "A"
                }
            )
        let headline: String
        let publisher: (String, String)
        if japanese {
            let words = (0..<Int.random(in: 4...8, using: &random)).map { _ in
                wordsJA.randomElement(using: &random) ?? ""
            }
            headline = words.enumerated().map { $0.offset % 2 == 0 ? $0.element + "が" : $0.element }.joined()
            publisher = publishersJA.randomElement(using: &random) ?? ("", "")
        } else {
            var words = (0..<Int.random(in: 6...13, using: &random)).map { _ in
                wordsEN.randomElement(using: &random) ?? ""
            }
            words[0] = words[0].capitalized
            if Int.random(in: 0..<12, using: &random) == 0 { words.append("& more") }
            headline = words.joined(separator: " ")
            publisher = publishersEN.randomElement(using: &random) ?? ("", "")
        }
        return Story(headline: headline, publisher: publisher.0, publisherURL: publisher.1, token: token)
    }

    private static let publishersEN = [
        ("Reuters", "https://www.reuters.com"), ("BBC", "https://www.bbc.com"), ("CNN", "https://www.cnn.com"),
        ("The Guardian", "https://www.theguardian.com"), ("AT&T Newsroom", "https://about.att.com"),
        ("Ars Technica", "https://arstechnica.com"), ("NPR", "https://www.npr.org"),
    ]
    private static let publishersJA = [
        ("NHKニュース", "https://www3.nhk.or.jp"), ("日本経済新聞", "https://www.nikkei.com"),
        ("読売新聞オンライン", "https://www.yomiuri.co.jp"), ("朝日新聞デジタル", "https://www.asahi.com"),
    ]
    private static let wordsEN = """
        government minister election market shares rally storm warning court ruling company profits record talks \
        ceasefire summit leaders climate deal tech giant launches new phone chip shortage inflation rate cut bank \
        says report finds study scientists space mission launch delayed officials fire crash city council votes
        """.split(separator: " ").map(String.init)
    private static let wordsJA = """
        政府 首相 選挙 株価 上昇 台風 警報 裁判所 判決 企業 決算 過去最高 会談 停戦 首脳 気候 合意 新型 半導体 物価 日銀 \
        調査 研究 宇宙 打ち上げ 延期 火災 事故 予算 学校 選手 優勝 病院 法案 成立 警察 原油 価格 住宅 賃金 輸出 関税 東京
        """.split(separator: " ").map(String.init)
}
