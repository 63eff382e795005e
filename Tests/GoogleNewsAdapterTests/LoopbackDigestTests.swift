import Foundation
import GoogleNewsAdapter
import Hummingbird
import NIOCore
import RSSAdapter
import TestSupport
import Testing
import TributaryCore

/// One pipeline run over Google News and plain RSS sources served from 127.0.0.1, as a digest would run them.
@Suite struct LoopbackDigestTests {
    private static let rssFixtures = ["google-news-top-stories-en.xml", "google-news-search-en.xml"]

    private static func router() -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func serve(_ name: String) throws -> Response {
            Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml; charset=UTF-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: try Fixture.data(name)))
            )
        }
        router.get("/rss") { _, _ in try serve("google-news-top-stories-ja.xml") }
        router.get("/rss/search") { _, _ in try serve("google-news-search-en.xml") }
        router.get("/rss/headlines/section/topic/:topic") { _, _ in try serve("google-news-top-stories-en.xml") }
        router.get("/plain/:name") { _, context in try serve(try context.parameters.require("name")) }
        return router
    }

    @Test func digestHoldsEveryFixturesItemsWithGoogleNewsShaping() async throws {
        try await withTestServer(Self.router()) { port in
            let base = "http://127.0.0.1:\(port)"
            let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/"))
            let throttle = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .milliseconds(20))
            func google(_ id: SourceID, _ options: GoogleNewsOptions) throws -> PipelineSource {
                var options = options
                options.baseURL = base
                let source = try GoogleNewsSource(id: id, options: options, context: context, throttle: throttle)
                return PipelineSource(source: source, kind: GoogleNewsSource.kind)
            }
            let sources = [
                try google("jp", GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja")),
                try google(
                    "search",
                    GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", search: "Swift language when:7d")
                ),
                try google("world", GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", topic: "WORLD")),
                PipelineSource(
                    source: try RSSSource(
                        id: "plain",
                        options: RSSOptions(url: "\(base)/plain/google-news-top-stories-en.xml"),
                        context: context
                    ),
                    kind: RSSSource.kind
                ),
            ]
            let pipeline = Pipeline(sources: sources, settings: PipelineSettings(), store: InMemoryItemStore())
            let result = try await pipeline.run()
            #expect(!result.hasFailures, "\(result.statuses.compactMap(\.error))")
            func items(_ id: SourceID) -> [FeedItem] { result.items.filter { $0.sourceID == id } }

            #expect(items("jp").count == 3)
            #expect(items("search").count == 3)
            // "world" and "plain" read the same stories: the first listed source keeps them.
            #expect(items("world").count == 4)
            #expect(items("plain").isEmpty)

            let nikkei = try #require(items("jp").first { $0.tributary?.origin?.title == "日本経済新聞" })
            // The title as the parser made it: the ideographic space (U+3000) is a character of the title.
            #expect(nikkei.title == "日銀、追加利上げを決定\u{3000}政策金利0.75%に")
            #expect(nikkei.tributary?.related.map(\.publisher) == ["NHK"])
            for item in items("jp") + items("search") + items("world") {
                let publisher = try #require(item.tributary?.origin?.title)
                #expect(item.title?.hasSuffix(" - \(publisher)") == false)
                #expect(item.summary == nil && item.contentHTML == nil)
            }
            #expect(items("world").contains { !($0.tributary?.related.isEmpty ?? true) })
        }
    }

    @Test func idsAreStableAcrossRuns() async throws {
        try await withTestServer(Self.router()) { port in
            let options = GoogleNewsOptions(hl: "ja", gl: "JP", ceid: "JP:ja", baseURL: "http://127.0.0.1:\(port)")
            let source = try GoogleNewsSource(
                id: "jp",
                options: options,
                context: SourceContext(baseDirectory: URL(fileURLWithPath: "/")),
                throttle: HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
            )
            let first = EventRecorder()
            try await source.run(into: first.sink)
            let second = EventRecorder()
            try await source.run(into: second.sink)
            let ids = await first.items.map(\.id)
            #expect(ids.count == 3)
            #expect(Set(ids).count == 3)
            #expect(await second.items.map(\.id) == ids)
        }
    }
}
