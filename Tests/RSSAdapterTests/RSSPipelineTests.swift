import FeedParser
import Foundation
import RSSAdapter
import TestSupport
import Testing
import TributaryCore

/// Failing feeds end as failed sources with a clear reason while a healthy feed in the same run is complete.
@Suite struct RSSPipelineTests {
    @Test func failuresAreIsolatedWhileTheHealthySourceRendersCompletely() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let base = "http://127.0.0.1:\(port)"
                let context = SourceContext(baseDirectory: directory)
                func source(_ id: SourceID, _ options: RSSOptions) throws -> PipelineSource {
                    PipelineSource(source: try RSSSource(id: id, options: options, context: context), kind: "rss")
                }
                let sources = [
                    try source("healthy", RSSOptions(url: "\(base)/fixtures/google-news-top-stories-en.xml")),
                    try source("missing", RSSOptions(url: "\(base)/missing")),
                    try source("slow", RSSOptions(url: "\(base)/slow", timeout: "700ms")),
                    try source("huge", RSSOptions(url: "\(base)/huge", maxBytes: 50_000)),
                    try source("loop", RSSOptions(url: "\(base)/redirect/9", maxRedirects: 2)),
                    try source("html", RSSOptions(url: "\(base)/fixtures/not-a-feed-html-page.html")),
                ]
                let pipeline = Pipeline(
                    sources: sources,
                    settings: PipelineSettings(defaultTimeout: .seconds(10)),
                    store: InMemoryItemStore()
                )
                let clock = ContinuousClock()
                let start = clock.now
                let result = try await pipeline.run()
                #expect(clock.now - start < .seconds(5))

                let statuses = Dictionary(uniqueKeysWithValues: result.statuses.map { ($0.sourceID, $0) })
                #expect(statuses["healthy"]?.error == nil)
                #expect(statuses["healthy"]?.itemCount == 4)
                #expect(result.items.filter { $0.sourceID == "healthy" }.count == 4)

                #expect(statuses["missing"]?.error?.reason == .httpStatus(url: "\(base)/missing", status: 404))
                #expect(statuses["slow"]?.error?.reason == .timedOut(after: .milliseconds(700)))
                #expect(statuses["huge"]?.error?.reason == .tooLarge(limit: 50_000, unit: "bytes"))
                guard case .connection = statuses["loop"]?.error?.reason else {
                    Issue.record("loop: \(String(describing: statuses["loop"]))")
                    return
                }
                guard case .notAFeed = statuses["html"]?.error?.reason else {
                    Issue.record("html: \(String(describing: statuses["html"]))")
                    return
                }
                for id: SourceID in ["missing", "slow", "huge", "loop", "html"] {
                    let description = try #require(statuses[id]?.error).description
                    #expect(description.hasPrefix("source '\(id)': "), "\(description)")
                }
                #expect(result.hasFailures)
            }
        }
    }
}
