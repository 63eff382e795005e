import Testing
import TributaryCore

@Suite struct KeywordFilterTests {
    @Test func anEmptyFilterAllowsEverything() {
        let filter = KeywordFilter()
        #expect(filter.isEmpty)
        #expect(filter.allows(FeedItem(id: "x")))
    }

    @Test func includeNeedsAtLeastOneKeyword() {
        let filter = KeywordFilter(include: ["swift", "rust"])
        #expect(filter.allows(makeItem("a", title: "Swift 6")))
        #expect(filter.allows(makeItem("b", title: "Rust 2")))
        #expect(!filter.allows(makeItem("c", title: "Go 1.30")))
    }

    @Test func excludeDropsOnAnyKeyword() {
        let filter = KeywordFilter(exclude: ["ad", "sponsored"])
        #expect(!filter.allows(makeItem("a", title: "A SPONSORED post")))
        #expect(filter.allows(makeItem("b", title: "News")))
    }

    @Test func excludeWinsOverInclude() {
        let filter = KeywordFilter(include: ["swift"], exclude: ["jobs"])
        #expect(!filter.allows(makeItem("a", title: "Swift jobs")))
        #expect(filter.allows(makeItem("b", title: "Swift news")))
    }

    @Test func matchingIgnoresCaseDiacriticsAndWidth() {
        let filter = KeywordFilter(include: ["CAFE", "ｓｗｉｆｔ"])
        #expect(filter.allows(makeItem("a", title: "Le café")))
        #expect(filter.allows(makeItem("b", title: "Swift")))
        #expect(!filter.allows(makeItem("c", title: "Coffee")))
    }

    @Test func japaneseKeywordsMatch() {
        let filter = KeywordFilter(include: ["東京"], exclude: ["広告"])
        #expect(filter.allows(makeItem("a", title: "東京で新しい駅")))
        #expect(!filter.allows(makeItem("b", title: "大阪の話")))
        #expect(!filter.allows(makeItem("c", title: "東京 広告")))
    }

    @Test func looksInTitleSummaryContentTextAndTags() {
        let filter = KeywordFilter(include: ["needle"])
        #expect(filter.allows(FeedItem(id: "a", title: "a needle")))
        #expect(filter.allows(FeedItem(id: "b", summary: "Needle here")))
        #expect(filter.allows(FeedItem(id: "c", contentText: "the NEEDLE")))
        #expect(filter.allows(FeedItem(id: "d", tags: ["needle"])))
        #expect(!filter.allows(FeedItem(id: "e", url: "https://needle.example", contentHTML: "<p>needle</p>")))
    }

    @Test func blankKeywordsAreIgnored() {
        let filter = KeywordFilter(include: ["  ", ""], exclude: [""])
        #expect(filter.isEmpty)
        #expect(filter.allows(makeItem("a", title: "Anything")))
    }
}
