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

    @Test func manyFeedsOfOneHostAllSucceedWhateverTheirTurn() async throws {
        // 40 feeds of one host, answered 150 ms each, two at a time: the last waits about 3 s for its turn, three
        // times its 1 s timeout. The wait is not the source's fault; every one must succeed.
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let context = SourceContext(
                    baseDirectory: directory,
                    hostLimiter: HostLimiter(maxConcurrentRequests: 2, minimumInterval: .zero)
                )
                let sources = try (0..<40).map { index in
                    PipelineSource(
                        source: try RSSSource(
                            id: SourceID(stringLiteral: "feed-\(index)"),
                            options: RSSOptions(url: "http://127.0.0.1:\(port)/delayed/\(index)", timeout: "1s"),
                            context: context
                        ),
                        kind: "rss",
                        timeout: .seconds(1)
                    )
                }
                let result = try await Pipeline(
                    sources: sources,
                    settings: PipelineSettings(defaultTimeout: .seconds(1)),
                    store: InMemoryItemStore()
                )
                .run()
                let failed = result.statuses.filter { $0.error != nil }
                #expect(failed.isEmpty, "\(failed.map { $0.error?.description ?? "" })")
                #expect(result.statuses.allSatisfy { $0.state == .succeeded })
                // The same four stories in every feed: kept once, the other 39 sources named in `also_in`.
                #expect(result.items.count == 4)
                #expect(result.items.allSatisfy { $0.tributary?.alsoIn.count == 39 })
            }
        }
    }

    @Test func aHostThatAsksForAPauseIsLeftAloneByTheOtherSourcesToo() async throws {
        // The first source meets a 429 with Retry-After: 3600; the sources after it do not ask the host again.
        try await withTemporaryDirectory { directory in
            let requests = FeedServer.RequestCounter()
            try await withTestServer(FeedServer.router(counting: requests)) { port in
                let context = SourceContext(
                    baseDirectory: directory,
                    hostLimiter: HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
                )
                let urls = ["throttled"] + (0..<5).map { "delayed/\($0)" }
                let sources = try urls.enumerated().map { index, path in
                    PipelineSource(
                        source: try RSSSource(
                            id: SourceID(stringLiteral: "s\(index)"),
                            options: RSSOptions(url: "http://127.0.0.1:\(port)/\(path)"),
                            context: context
                        ),
                        kind: "rss"
                    )
                }
                let result = try await Pipeline(
                    sources: sources,
                    settings: PipelineSettings(defaultTimeout: .seconds(10)),
                    store: InMemoryItemStore()
                )
                .run()
                // Each source runs in a task of its own, so a source may reach the host before the throttled one
                // does; after the 429, no source asks the host again: every other source is held off.
                let described = "\(result.statuses.map { $0.error?.description ?? "ok" })"
                let succeeded = result.statuses.filter { $0.error == nil }.count
                let throttled = result.statuses.filter { status in
                    if case .throttled = status.error?.reason { return true }
                    return false
                }
                #expect(succeeded + throttled.count == urls.count, "\(described)")
                #expect(throttled.count >= 1, "\(described)")
                #expect(await requests.count == succeeded + 1, "\(described)")
                #expect(result.statuses.first?.error != nil, "the throttled source itself fails: \(described)")
            }
        }
    }
}
