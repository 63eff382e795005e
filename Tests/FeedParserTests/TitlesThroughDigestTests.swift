import FeedParser
import Foundation
import Testing
import TributaryCore

/// Text is made plain once, by the parser: the pipeline and the digest show a title exactly as `parse` gives it.
/// Titles that hold markup written as text (tech news is full of them) used to be cut by a second tag stripping.
@Suite struct TitlesThroughDigestTests {
    @Test func literalMarkupInTitlesIsKept() throws {
        let result = try FixtureSupport.parseFixture("titles-with-literal-markup.xml")
        #expect(
            result.items.map(\.title) == [
                "History of the <blink> tag", "<script> considered harmful", "Using <dialog> in 2026",
                "Bold claims & AT&T", "x < y && z",
            ]
        )
        #expect(Self.digestTitles(of: result.items) == result.items.compactMap(\.title))
    }

    /// An RSS title is HTML only when it looks like HTML, as feedparser guesses; otherwise its markup is text.
    @Test func rssTitlesAreHTMLOnlyWhenTheyLookLikeIt() throws {
        let result = try FixtureSupport.parseFixture("rss-titles-with-literal-markup.xml")
        #expect(result.metadata?.title == "The <canvas> weekly")
        #expect(
            result.items.map(\.title) == [
                "History of the <blink> tag", "<script> considered harmful", "Using <dialog> in 2026",
                "AT&T <b> x < y", "Using bold text", "Emphasis & more", "It's here",
            ]
        )
        #expect(Self.digestTitles(of: result.items) == result.items.compactMap(\.title))
    }

    /// Every fixture and every corpus file: the digest's title of an item is the parser's title.
    @Test(arguments: Self.allFeedFiles())
    func theDigestShowsTheParsersTitle(_ path: String) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        guard let result = try? FixtureSupport.parse(bytes) else { return }  // Not a feed: nothing to compare.
        let titled = result.items.filter { $0.title != nil }
        #expect(Self.digestTitles(of: titled) == titled.compactMap(\.title), "\(path)")
    }

    /// The items through the pipeline's normaliser and the digest builder, in their order.
    static func digestTitles(of items: [FeedItem]) -> [String] {
        let normaliser = Normaliser()
        let normalised = items.map { normaliser.normalise($0, from: "test-source").item }
        let builder = DigestBuilder(title: "t", timeZone: TimeZone(identifier: "UTC") ?? .current, generatedAt: Date())
        let digest = builder.build(items: normalised, statuses: [])
        // Entries come grouped by day; map them back to the items' order by id.
        let titles = Dictionary(
            digest.days.flatMap(\.entries).map { ($0.item.id, $0.title) },
            uniquingKeysWith: { first, _ in first }
        )
        return normalised.compactMap { titles[$0.id] }
    }

    static func allFeedFiles() -> [String] {
        var paths: [String] = []
        for folder in ["Fixtures", "Corpus"] {
            guard let root = Bundle.module.url(forResource: folder, withExtension: nil),
                let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            else { continue }
            for case let url as URL in walker where ["xml", "rss", "atom", "rdf"].contains(url.pathExtension) {
                paths.append(url.path)
            }
        }
        return paths.sorted()
    }
}
