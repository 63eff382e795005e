public import Foundation
import HTMLSanitizer
public import TributaryCore

/// The simulator's deterministic item generator: item `seq` of seed `seed` is always the same item.
///
/// Items have a headline, a URL on an example domain (`example.com`, `example.org`, `example.net`), a publisher
/// (as author and as `_tributary.origin`), a publication time (see ``publicationTime(of:)``), tags and a language.
/// Some headlines are Japanese; some hold characters that renderers must escape (`<`, `&`, quotes, `*`, `_`,
/// backticks). The generator is a pure function of `(seed, seq)`, so a server can replay any item without keeping
/// it, and the in-process `simulate` source and `tributary simulate` produce the same items.
public struct PushSimulator: Sendable, Hashable {
    /// The seed: equal seeds give equal items.
    public var seed: UInt64
    /// When the simulator starts: the backlog was published before it, later items appear after it.
    public var epoch: Date
    /// How many items exist at ``epoch``.
    public var backlog: Int
    /// New items per second after ``epoch``.
    public var rate: Double

    /// The mean time between two items of the backlog: a wire's pace, so that a digest shows the backlog over the
    /// hours before the start, at distinct times, rather than in one minute.
    public static let backlogSpacing: TimeInterval = 7 * 60

    /// Creates a generator.
    /// - Parameters:
    ///   - seed: equal seeds give equal items.
    ///   - epoch: when the simulator starts.
    ///   - backlog: how many items exist at `epoch`.
    ///   - rate: new items per second after `epoch`.
    public init(seed: UInt64, epoch: Date, backlog: Int = 0, rate: Double = 1) {
        self.seed = seed
        self.epoch = epoch
        self.backlog = backlog
        self.rate = rate
    }

    /// The epoch of a simulator started in-process at `date`: the last multiple of ``backlogSpacing`` since
    /// 1970, so that runs within the same seven minutes see the same items with the same times (a source's items
    /// depend on its input, not on the moment it runs) while the times stay close to the time of the run.
    public static func epoch(containing date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / backlogSpacing).rounded(.down) * backlogSpacing)
    }

    /// When item `seq` was published: items of the backlog (`seq` up to ``backlog``) about ``backlogSpacing``
    /// apart before ``epoch``, each a few minutes off the even pace, never out of order and the newest at least a
    /// minute before the epoch; later items at the second they appear, `rate` per second. A pure function of the
    /// generator and `seq`, like the rest of the item.
    public func publicationTime(of seq: Int64) -> Date {
        let newestOfBacklog = Int64(backlog)
        guard seq <= newestOfBacklog else {
            // Whole seconds, as the wire's RFC 3339 times carry them.
            return epoch.addingTimeInterval(rate > 0 ? (Double(seq - newestOfBacklog) / rate).rounded(.down) : 0)
        }
        // Up to 359 s later than the even pace: consecutive items stay at least 61 s apart.
        var random = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(bitPattern: seq))
        let offPace = TimeInterval(random.next() % 360)
        return epoch.addingTimeInterval(-Double(newestOfBacklog - seq + 1) * Self.backlogSpacing + offPace)
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
            datePublished: publicationTime(of: seq),
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
