public import Foundation
import HTMLSanitizer
public import TributaryCore

/// The simulator's deterministic item generator: item `seq` of seed `seed` is always the same item.
///
/// Items have a headline, a URL on an example domain (`example.com`, `example.org`, `example.net`), a publisher
/// (as author and as `_tributary.origin`), a publication time (``epoch`` plus `seq` seconds), tags and a language.
/// Some headlines are Japanese; some hold characters that renderers must escape (`<`, `&`, quotes, `*`, `_`,
/// backticks). The generator is a pure function of `(seed, seq)`, so a server can replay any item without keeping
/// it, and the in-process `simulate` source and `tributary simulate` produce the same items.
public struct PushSimulator: Sendable, Hashable {
    /// The seed: equal seeds give equal items.
    public var seed: UInt64
    /// The publication time of item 0; item `seq` is published `seq` seconds later.
    public var epoch: Date

    /// Creates a generator.
    /// - Parameters:
    ///   - seed: equal seeds give equal items.
    ///   - epoch: the publication time of item 0.
    public init(seed: UInt64, epoch: Date) {
        self.seed = seed
        self.epoch = epoch
    }

    /// The item with sequence number `seq`.
    public func item(seq: Int64) -> FeedItem {
        var random = SplitMix64(seed: seed ^ (UInt64(bitPattern: seq) &* 0xD1B5_4A32_D192_ED03))
        let publisher = random.pick(Self.publishers)
        let japanese = random.index(below: 5) == 0
        let headline: String
        let language: String
        if japanese {
            headline = "\(random.pick(Self.japaneseSubjects))\(random.pick(Self.japanesePredicates))"
            language = "ja"
        } else {
            headline = "\(random.pick(Self.subjects)) \(random.pick(Self.predicates))"
            language = "en"
        }
        let tags = Array(Set((0..<(1 + random.index(below: 3))).map { _ in random.pick(Self.tags) })).sorted()
        let slug = "story-\(seq)-\(String(random.next() % 1_000_000, radix: 36))"
        let url = "https://\(publisher.domain)/news/\(slug)"
        let paragraph = HTMLTextEscaping.escape(headline)
        return FeedItem(
            id: "sim-\(seed)-\(seq)",
            url: url,
            title: headline,
            // In the sanitizer's form (the publisher name escaped too), so the client's sanitizing keeps it as it is.
            contentHTML: HTMLSanitizer().sanitize(
                "<p>\(paragraph)</p><p>Simulated story \(seq) from \(HTMLTextEscaping.escape(publisher.name)).</p>",
                baseURL: nil
            ),
            summary: headline,
            datePublished: epoch.addingTimeInterval(TimeInterval(seq)),
            authors: [FeedItem.Author(name: publisher.name, url: "https://\(publisher.domain)/")],
            tags: tags,
            language: language,
            tributary: TributaryExtension(
                origin: TributaryExtension.Origin(title: publisher.name, url: "https://\(publisher.domain)/")
            )
        )
    }

    // MARK: - Private

    private static let publishers: [(name: String, domain: String)] = [
        ("Example Wire", "example.com"),
        ("The Example Times", "news.example.org"),
        ("Example & Sons Gazette", "gazette.example.net"),
        ("例新聞", "jp.example.com"),
        ("O'Example Daily", "daily.example.org"),
    ]

    private static let subjects = [
        "Swift 6.3", "City council", "Local bakery", "Rates < 2%", "AT&T-style merger",
        "\"Quoted\" CEO", "Markdown *bold* fans", "snake_case advocates", "`code` reviewers",
        "Open-source maintainers", "Tide tables", "Night trains",
    ]
    private static let predicates = [
        "announces new plans", "beats estimates (3 > 2)", "ships a release & a roadmap",
        "says \"not yet\"", "draws *record* crowds", "breaks the __build__", "adopts `async let`",
        "opens on Sunday", "doubles its output", "warns of delays",
    ]
    private static let japaneseSubjects = ["東京の新駅", "京都の老舗", "大阪の開発者", "北海道の雪まつり", "「速報」Swift勉強会"]
    private static let japanesePredicates = ["が開業", "で新製品を発表", "が過去最高を記録", "に人が殺到", "を延期"]
    private static let tags = ["world", "tech", "local", "science", "business", "culture", "速報"]
}

/// Escapes text for an HTML text node (the generator builds `content_html` from plain headlines).
private enum HTMLTextEscaping {
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
