import Foundation
import GoogleNewsAdapter
import Hummingbird
import NIOCore
import TestSupport
import Testing
import TributaryCore

@Suite struct GoogleNewsSourceTests {
    private static let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/"))

    private static func make(
        _ options: GoogleNewsOptions,
        throttle: HostLimiter = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
    ) throws
        -> GoogleNewsSource
    {
        try GoogleNewsSource(id: "news", options: options, context: context, throttle: throttle)
    }

    // MARK: - URL building

    @Test func topStoriesURL() throws {
        let source = try Self.make(GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en"))
        #expect(source.feedURL.absoluteString == "https://news.google.com/rss?hl=en-US&gl=US&ceid=US:en")
        let japanese = try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja"))
        #expect(japanese.feedURL.absoluteString == "https://news.google.com/rss?hl=ja&gl=JP&ceid=JP:ja")
    }

    @Test(arguments: ["WORLD", "NATION", "BUSINESS", "TECHNOLOGY", "ENTERTAINMENT", "SPORTS", "SCIENCE", "HEALTH"])
    func topicSectionURL(_ topic: String) throws {
        let source = try Self.make(GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", topic: topic))
        #expect(
            source.feedURL.absoluteString
                == "https://news.google.com/rss/headlines/section/topic/\(topic)?hl=en-US&gl=US&ceid=US:en"
        )
    }

    @Test func topicIsCaseInsensitive() throws {
        let source = try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", topic: "technology"))
        #expect(source.feedURL.path == "/rss/headlines/section/topic/TECHNOLOGY")
    }

    @Test(arguments: [
        ("Swift language when:7d", "Swift%20language%20when:7d"),
        ("site:swift.org concurrency", "site:swift.org%20concurrency"),
        ("intitle:Swift OR intitle:Vapor", "intitle:Swift%20OR%20intitle:Vapor"),
        ("\"typed throws\" C++ & Rust #1 =?", "%22typed%20throws%22%20C%2B%2B%20%26%20Rust%20%231%20%3D%3F"),
        ("東京 when:1h", "%E6%9D%B1%E4%BA%AC%20when:1h"),
    ])
    func searchURLEncodesTheQueryWithItsOperators(_ query: String, encoded: String) throws {
        let source = try Self.make(GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", search: query))
        #expect(
            source.feedURL.absoluteString == "https://news.google.com/rss/search?q=\(encoded)&hl=en-US&gl=US&ceid=US:en"
        )
        let components = try #require(URLComponents(url: source.feedURL, resolvingAgainstBaseURL: false))
        #expect(components.queryItems?.first(where: { $0.name == "q" })?.value == query)
    }

    @Test func geoSectionURL() throws {
        let source = try Self.make(GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", geo: "San Francisco"))
        #expect(
            source.feedURL.absoluteString
                == "https://news.google.com/rss/headlines/section/geo/San%20Francisco?hl=en-US&gl=US&ceid=US:en"
        )
        let tokyo = try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", geo: "東京"))
        #expect(
            tokyo.feedURL.absoluteString.hasPrefix(
                "https://news.google.com/rss/headlines/section/geo/%E6%9D%B1%E4%BA%AC?"
            )
        )
    }

    @Test func baseURLIsConfigurable() throws {
        let source = try Self.make(
            GoogleNewsOptions(
                hl: "es-419",
                gl: "MX",
                ceid: "MX:es-419",
                topic: "SPORTS",
                baseURL: "http://127.0.0.1:8080/"
            )
        )
        #expect(
            source.feedURL.absoluteString
                == "http://127.0.0.1:8080/rss/headlines/section/topic/SPORTS?hl=es-419&gl=MX&ceid=MX:es-419"
        )
    }

    // MARK: - Option checks

    @Test(arguments: [
        (GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "US:en"), "ceid", "JP:ja"),
        (GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:ja"), "ceid", "US:en"),
        (GoogleNewsOptions(hl: "en-US", gl: "GB", ceid: "US:en"), "ceid", "GB:en"),
        (GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP"), "ceid", "JP:ja"),
        (GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP-ja"), "ceid", "JP:ja"),
        (GoogleNewsOptions(hl: "", gl: "JP", ceid: "JP:ja"), "hl", "en-US"),
        (GoogleNewsOptions(hl: "japanese", gl: "JP", ceid: "JP:ja"), "hl", "en-US"),
        (GoogleNewsOptions(hl: "ja", gl: "Japan", ceid: "JP:ja"), "gl", "JP"),
    ])
    func inconsistentLocaleIsRejectedNamingTheKey(_ options: GoogleNewsOptions, key: String, hint: String) {
        let error = #expect(throws: SourceOptionError.self) { try Self.make(options) }
        #expect(error?.key == key)
        #expect(error?.message.contains(hint) == true, "\(error?.message ?? "")")
    }

    @Test func sectionsCannotBeCombinedAndTopicsAreChecked() {
        let combined = #expect(throws: SourceOptionError.self) {
            try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", topic: "WORLD", search: "x"))
        }
        #expect(combined?.key == "search")
        let unknown = #expect(throws: SourceOptionError.self) {
            try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", topic: "WEATHER"))
        }
        #expect(unknown?.key == "topic")
        #expect(unknown?.message.contains("TECHNOLOGY") == true)
        let empty = #expect(throws: SourceOptionError.self) {
            try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", search: "  "))
        }
        #expect(empty?.key == "search")
        let base = #expect(throws: SourceOptionError.self) {
            try Self.make(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", baseURL: "news.google.com"))
        }
        #expect(base?.key == "baseURL")
    }

    // MARK: - Fetching and shaping against a real server

    /// Serves the fixtures as Google News would: top stories in Japanese, a search in English, a topic section,
    /// and records every request's path and query.
    private static func router(log: RequestLog) -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func serve(_ name: String) throws -> Response {
            let data = try Fixture.data(name)
            return Response(
                status: .ok,
                headers: [.contentType: "application/xml; charset=UTF-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        router.get("/rss") { request, _ -> Response in
            await log.append(request.uri.description)
            let query = request.uri.queryParameters
            return try serve(
                query["gl"] == "GB" ? "google-news-consent-wrapped-no-source.xml" : "google-news-top-stories-ja.xml"
            )
        }
        router.get("/rss/search") { request, _ -> Response in
            await log.append(request.uri.description)
            return try serve("google-news-search-en.xml")
        }
        router.get("/rss/headlines/section/topic/:topic") { request, _ -> Response in
            await log.append(request.uri.description)
            return try serve("google-news-top-stories-en.xml")
        }
        return router
    }

    private static func run(_ options: GoogleNewsOptions) async throws -> (EventRecorder, [String]) {
        let log = RequestLog()
        return try await withTestServer(router(log: log)) { port in
            var options = options
            options.baseURL = "http://127.0.0.1:\(port)"
            let recorder = EventRecorder()
            try await make(options).run(into: recorder.sink)
            return (recorder, await log.entries)
        }
    }

    @Test func japaneseTopStoriesAreShaped() async throws {
        let (recorder, requests) = try await Self.run(GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja"))
        #expect(requests == ["/rss?hl=ja&gl=JP&ceid=JP:ja"])
        #expect(await recorder.finished)
        let items = await recorder.items
        #expect(items.map(\.title) == ["日銀、追加利上げを決定　政策金利0.75%に", "東京で初雪　平年より12日早く", "大谷翔平、3年連続MVP「チームのおかげ」"])
        #expect(items.map { $0.tributary?.origin?.title } == ["日本経済新聞", "ウェザーニュース", "スポーツ報知"])
        #expect(items.first?.tributary?.origin?.url == "https://www.nikkei.com")
        #expect(
            items.first?.id
                == "CBMiWmh0dHBzOi8vd3d3Lm5pa2tlaS5jb20vYXJ0aWNsZS9ER1haUVNHMjFCSlUwUjIxQzI2QTExMDAwMDAv0gEA"
        )
        // The cluster's related coverage, without the item's own entry.
        #expect(
            items.first?.tributary?.related == [
                TributaryExtension.RelatedLink(
                    title: "住宅ローン金利への影響は",
                    url:
                        "https://news.google.com/rss/articles/CBMiQWh0dHBzOi8vd3d3My5uaGsub3IuanAvbmV3cy9odG1sLzIwMjYxMTIyL2sxMDAxNDY1NDMyMTAwMC5odG1s0gEA?oc=5",
                    publisher: "NHK"
                )
            ]
        )
        #expect(items.dropFirst().allSatisfy { $0.tributary?.related.isEmpty == true })
        // The description is a list of links, not article text: it is not kept as content or summary.
        #expect(items.allSatisfy { $0.contentHTML == nil && $0.contentText == nil && $0.summary == nil })
        #expect(items.allSatisfy { $0.url?.hasPrefix("https://news.google.com/rss/articles/") == true })
        #expect(items.allSatisfy { $0.sourceID == "news" })
    }

    @Test func englishTopicAndSearchAreShaped() async throws {
        let (topic, topicRequests) = try await Self.run(
            GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", topic: "WORLD")
        )
        #expect(topicRequests == ["/rss/headlines/section/topic/WORLD?hl=en-US&gl=US&ceid=US:en"])
        let items = await topic.items
        #expect(items.count == 4)
        #expect(items.first?.title == "Senate passes stopgap funding bill hours before shutdown deadline")
        #expect(items.first?.tributary?.origin?.title == "The Associated Press")
        let related = try #require(items.first?.tributary?.related)
        #expect(!related.isEmpty)
        #expect(related.allSatisfy { $0.publisher != nil && $0.url != nil && !$0.title.isEmpty })
        #expect(!related.contains { $0.publisher == "The Associated Press" && $0.title == items.first?.title })
        #expect(
            items.map { $0.tributary?.origin?.title } == ["The Associated Press", "Space.com", "CNBC", "Fox Weather"]
        )

        let (search, searchRequests) = try await Self.run(
            GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", search: "Swift language when:7d")
        )
        #expect(searchRequests == ["/rss/search?q=Swift%20language%20when:7d&hl=en-US&gl=US&ceid=US:en"])
        let found = await search.items
        #expect(found.map { $0.tributary?.origin?.title } == ["InfoQ", "9to5Mac", "The New Stack"])
        #expect(
            found.dropFirst().map(\.title) == [
                "Apple open-sources Swift Build", "Server-side Swift on Linux: a year in production",
            ]
        )
        #expect(found.allSatisfy { $0.title?.hasSuffix(" - \($0.tributary?.origin?.title ?? "")") == false })
    }

    @Test func consentLinksAreUnwrappedAndTitlesSplitOnlyOnThePublisher() async throws {
        let (recorder, _) = try await Self.run(GoogleNewsOptions(hl: "en-GB", gl: "GB", ceid: "GB:en"))
        let items = await recorder.items
        #expect(items.count == 2)
        // No <source>: split on the last " - ", and the suffix becomes the publisher.
        #expect(items.first?.title == "Rail strike called off after late talks")
        #expect(items.first?.tributary?.origin?.title == "Evening Courier")
        #expect(items.first?.url == "https://news.google.com/rss/articles/CBMiTokenRailStrike0001?oc=5")
        #expect(items.first?.id == "CBMiTokenRailStrike0001")
        // The suffix is not the <source> publisher: the title is left whole.
        #expect(items.last?.title == "Spider-Man - No Way Home sequel confirmed - Film Weekly")
        #expect(items.last?.tributary?.origin?.title == "Cinema Daily")
    }

    @Test func aFailingServerIsAFailedSource() async throws {
        try await withTestServer(Router()) { port in
            let source = try Self.make(
                GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", baseURL: "http://127.0.0.1:\(port)")
            )
            let recorder = EventRecorder()
            try await source.run(into: recorder.sink)
            #expect(
                await recorder.failure?.reason
                    == .httpStatus(url: "http://127.0.0.1:\(port)/rss?hl=ja&gl=JP&ceid=JP:ja", status: 404)
            )
        }
    }
}

/// The requests a test server saw.
actor RequestLog {
    private(set) var entries: [String] = []

    func append(_ entry: String) {
        entries.append(entry)
    }
}
