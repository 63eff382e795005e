import FeedParser
import Foundation
import Hummingbird
import Logging
import TestSupport
import Testing
import TributaryCore

@testable import RSSAdapter

@Suite struct RSSSourceTests {
    private static func makeSource(_ options: RSSOptions, directory: URL, id: SourceID = "feed") throws -> RSSSource {
        try RSSSource(id: id, options: options, context: SourceContext(baseDirectory: directory))
    }

    /// Runs a source over `options` and returns what it sent.
    private static func run(_ options: RSSOptions, directory: URL) async throws -> EventRecorder {
        let recorder = EventRecorder()
        try await makeSource(options, directory: directory).run(into: recorder.sink)
        return recorder
    }

    /// What parsing the fixture directly (no HTTP) gives: the oracle for the fetched result.
    private static func expectedItems(
        _ name: String,
        baseURL: URL? = nil,
        httpCharset: String? = nil
    ) throws -> [FeedItem]? {
        let options = FeedParserOptions(baseURL: baseURL, sourceID: "feed", httpCharset: httpCharset)
        let parser = try StreamingFeedParser(options: options)
        do {
            return try parser.parse([UInt8](try Fixture.data(name))) + parser.finish()
        } catch let error as FeedParseError {
            if case .notAFeed = error.reason { return nil }
            throw error
        }
    }

    @Test(arguments: Fixture.feedNames)
    func fixtureArrivesCompleteOverHTTP(_ name: String) async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let url = "http://127.0.0.1:\(port)/fixtures/\(name)"
                let recorder = try await Self.run(RSSOptions(url: url), directory: directory)
                let events = await recorder.events
                #expect(events.first == .started)
                let charset = name == "encoding-http-charset-contradicts-declaration.xml" ? "windows-1252" : nil
                guard let expected = try Self.expectedItems(name, baseURL: URL(string: url), httpCharset: charset)
                else {
                    let failure = try #require(await recorder.failure)
                    guard case .notAFeed(let path, _) = failure.reason else {
                        Issue.record("expected notAFeed, got \(failure)")
                        return
                    }
                    #expect(path?.hasSuffix(name) == true)
                    return
                }
                #expect(await recorder.finished, "\(events.last.map { "\($0)" } ?? "no events")")
                let items = await recorder.items
                #expect(items.map(\.id) == expected.map(\.id))
                #expect(items.map(\.title) == expected.map(\.title))
                #expect(items.map(\.contentHTML) == expected.map(\.contentHTML))
                #expect(items.allSatisfy { $0.sourceID == "feed" })
            }
        }
    }

    /// The parser keeps an RSS enclosure's relative URL as written (feedparser's reading); the source resolves it
    /// against the address it fetched the feed from.
    @Test func aRelativeEnclosureURLIsResolvedAgainstTheFeedsAddress() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/fixtures/rss-relative-enclosure-url.xml"),
                    directory: directory
                )
                let items = await recorder.items
                try #require(items.count == 2)
                #expect(
                    items[0].attachments.map(\.url) == [
                        "http://127.0.0.1:\(port)/fixtures/media/episode-1.mp3?q=a#fragment"
                    ]
                )
                #expect(
                    items[1].attachments.map(\.url) == [
                        "https://cdn.example/episode-2.mp3", "http://127.0.0.1:\(port)/fixtures/episode-2.ogg",
                    ]
                )
            }
        }
    }

    @Test func httpCharsetFromContentTypeReachesTheParser() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let recorder = try await Self.run(
                    RSSOptions(
                        url: "http://127.0.0.1:\(port)/fixtures/encoding-http-charset-contradicts-declaration.xml"
                    ),
                    directory: directory
                )
                let title = try #require(await recorder.items.first?.title)
                // Bytes 0x93/0x94 are curly quotes in windows-1252, but C1 controls in the declared ISO-8859-1.
                #expect(title.contains("\u{201C}quoted\u{201D}"), "\(title)")
            }
        }
    }

    /// The language a feed is served in (`Content-Language`) is the feed's when the feed names none.
    @Test func httpContentLanguageIsTheLanguageOfAFeedThatNamesNone() async throws {
        try await withTestServer(FeedServer.router()) { port in
            let reader = FeedReader(sourceID: "feed", logger: Logger(label: "test"))
            let result = try await reader.read(
                from: try #require(URL(string: "http://127.0.0.1:\(port)/fixtures/atom03-escaped-mode.xml")),
                into: EventRecorder().sink
            )
            #expect(result.metadata?.language == "fr-CA")
            let named = try await reader.read(
                from: try #require(URL(string: "http://127.0.0.1:\(port)/fixtures/google-news-top-stories-en.xml")),
                into: EventRecorder().sink
            )
            #expect(named.metadata?.language == "en-US")
        }
    }

    @Test func firstItemsReachTheSinkBeforeTheBodyEnds() async throws {
        let gate = Gate()
        let outcome = PacedOutcome()
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router(gate: gate, pacedOutcome: outcome)) { port in
                let recorder = EventRecorder { event in
                    if case .items = event { await gate.open() }
                }
                let source = try Self.makeSource(
                    RSSOptions(url: "http://127.0.0.1:\(port)/paced"),
                    directory: directory
                )
                try await source.run(into: recorder.sink)
                #expect(await recorder.finished)
                #expect(await recorder.items.count == 40)
                let batches = await recorder.events.filter { if case .items = $0 { true } else { false } }
                #expect(batches.count >= 2)
            }
        }
        // The server held back the second half until the first items had arrived.
        #expect(await outcome.openedBeforeEnd == true)
    }

    @Test(arguments: ["gzip", "deflate", "deflate-raw", "gzip-members"])
    func compressedBodyIsDecompressed(_ encoding: String) async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/\(encoding)"),
                    directory: directory
                )
                #expect(await recorder.finished)
                let expected = try #require(try Self.expectedItems("podcast-itunes-enclosures.xml"))
                #expect(await recorder.items.map(\.id) == expected.map(\.id))
                #expect(!expected.isEmpty)
            }
        }
    }

    @Test(arguments: [
        ("gzip-truncated", "ends before its end marker"),
        ("brotli", "compressed as \"br\", which Tributary did not ask for"),
    ])
    func anUnreadableCompressedBodyFailsWithAReason(path: String, reason: String) async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/\(path)"),
                    directory: directory
                )
                let failure = try #require(await recorder.failure)
                #expect(failure.description.contains(reason), "\(failure)")
            }
        }
    }

    @Test func decompressionBombIsRefusedAsTooLarge() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                // 5 KiB of gzip that inflates to 5 MiB: well under maxBytes, but 1000 times its compressed size.
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/gzip-bomb"),
                    directory: directory
                )
                let failure = try #require(await recorder.failure)
                guard case .tooLarge(100, let unit) = failure.reason else {
                    Issue.record("expected tooLarge, got \(failure)")
                    return
                }
                #expect(unit.contains("compressed size"))
            }
        }
    }

    @Test func redirectsWithinTheLimitAreFollowed() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/redirect/3", maxRedirects: 3),
                    directory: directory
                )
                #expect(await recorder.finished)
                let expected = try #require(try Self.expectedItems("rss090-netscape.xml"))
                #expect(await recorder.items.map(\.title) == expected.map(\.title))
            }
        }
    }

    @Test func redirectsOverTheLimitFail() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let url = "http://127.0.0.1:\(port)/redirect/4"
                let recorder = try await Self.run(RSSOptions(url: url, maxRedirects: 3), directory: directory)
                let failure = try #require(await recorder.failure)
                guard case .connection(let failedURL, let detail) = failure.reason else {
                    Issue.record("expected a connection failure, got \(failure)")
                    return
                }
                #expect(failedURL == url)
                #expect(detail.contains("more than 3 redirects"))
                #expect(await recorder.items.isEmpty)
            }
        }
    }

    @Test func aRedirectToAnotherHostInsideAPrivateNetworkIsRefused() async throws {
        // 127.0.0.1 sends the client to localhost: another host, on a loopback address. A feed on the internet
        // could do the same to reach services inside the network the client runs in.
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let url = "http://127.0.0.1:\(port)/to-localhost"
                let refused = try await Self.run(RSSOptions(url: url), directory: directory)
                let failure = try #require(await refused.failure)
                #expect(failure.description.contains("not following the redirect"), "\(failure)")
                #expect(failure.description.contains("to localhost"), "\(failure)")
                #expect(failure.description.contains("allowPrivateRedirects"), "\(failure)")
                #expect(await refused.items.isEmpty)

                // The source that trusts its feed follows it.
                let allowed = try await Self.run(
                    RSSOptions(url: url, allowPrivateRedirects: true),
                    directory: directory
                )
                #expect(await allowed.finished)
                #expect(await allowed.items.count == (try Self.expectedItems("rss090-netscape.xml")?.count ?? -1))
            }
        }
    }

    @Test(arguments: [
        ("/to-file", "not an http or https URL"),
        ("/redirect-cycle", "cycle"),
    ])
    func aRedirectThatCannotBeFollowedFailsWithAReason(path: String, reason: String) async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)\(path)", allowPrivateRedirects: true),
                    directory: directory
                )
                let failure = try #require(await recorder.failure)
                #expect(failure.description.contains(reason), "\(failure)")
            }
        }
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("10.1.2.3", true), ("172.16.0.1", true), ("172.32.0.1", false), ("192.168.1.1", true),
        ("169.254.169.254", true), ("100.64.0.1", true), ("0.0.0.0", true), ("8.8.8.8", false),
        ("93.184.216.34", false),
        ("::1", true), ("fe80::1", true), ("fd00::1", true), ("::ffff:10.0.0.1", true), ("2606:4700::1111", false),
    ])
    func privateAddressesAreTold(address: String, isPrivate: Bool) async throws {
        let resolved = await RedirectPolicy.resolve(address)
        #expect(resolved.count >= 1)
        #expect(resolved.allSatisfy { RedirectPolicy.isNonPublic($0) == isPrivate }, "\(resolved)")
    }

    @Test func slowServerTimesOutWithinTheTimeout() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let clock = ContinuousClock()
                let start = clock.now
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/slow", timeout: "500ms"),
                    directory: directory
                )
                let elapsed = clock.now - start
                #expect(await recorder.failure?.reason == .timedOut(after: .milliseconds(500)))
                #expect(elapsed < .seconds(2), "took \(elapsed)")
            }
        }
    }

    @Test func oversizedBodyIsAbortedAsTooLarge() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let clock = ContinuousClock()
                let start = clock.now
                let recorder = try await Self.run(
                    RSSOptions(url: "http://127.0.0.1:\(port)/huge", maxBytes: 100_000),
                    directory: directory
                )
                #expect(await recorder.failure?.reason == .tooLarge(limit: 100_000, unit: "bytes"))
                // The items read before the limit were delivered.
                #expect(await !recorder.items.isEmpty)
                #expect(clock.now - start < .seconds(5))
            }
        }
    }

    @Test func notFoundFailsWithTheHTTPStatus() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let url = "http://127.0.0.1:\(port)/missing"
                let recorder = try await Self.run(RSSOptions(url: url), directory: directory)
                let failure = try #require(await recorder.failure)
                #expect(failure.reason == .httpStatus(url: url, status: 404))
                #expect(failure.description.contains("HTTP status 404"))
                #expect(failure.description.contains("feed"))
            }
        }
    }

    @Test func refusedConnectionFailsAsConnectionError() async throws {
        try await withTemporaryDirectory { directory in
            // Find a port nobody listens on: start a server, note its port, stop it.
            let port = try await withTestServer(FeedServer.router()) { $0 }
            let url = "http://127.0.0.1:\(port)/fixtures/rss090-netscape.xml"
            let recorder = try await Self.run(RSSOptions(url: url, timeout: "5s"), directory: directory)
            let failure = try #require(await recorder.failure)
            guard case .connection(let failedURL, _) = failure.reason else {
                Issue.record("expected a connection failure, got \(failure)")
                return
            }
            #expect(failedURL == url)
        }
    }

    @Test func sendsARealUserAgent() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let url = "http://127.0.0.1:\(port)/user-agent"
                let standard = try await Self.run(RSSOptions(url: url), directory: directory)
                #expect(await standard.items.first?.title == FeedFetchSettings.defaultUserAgent)
                let custom = try await Self.run(RSSOptions(url: url, userAgent: "Tester/2"), directory: directory)
                #expect(await custom.items.first?.title == "Tester/2")
            }
        }
    }

    @Test func cancellingMidDownloadReturnsWithinASecond() async throws {
        try await withTemporaryDirectory { directory in
            try await withTestServer(FeedServer.router()) { port in
                let source = try Self.makeSource(RSSOptions(url: "http://127.0.0.1:\(port)/hang"), directory: directory)
                let gate = Gate()
                let recorder = EventRecorder { event in
                    if case .items = event { await gate.open() }
                }
                let clock = ContinuousClock()
                let elapsed = await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await source.run(into: recorder.sink) }
                    #expect(await gate.wait(atMost: .seconds(10)), "items arrived while the body was still open")
                    let start = clock.now
                    group.cancelAll()
                    _ = await group.nextResult()
                    return clock.now - start
                }
                #expect(elapsed < .seconds(1), "run returned \(elapsed) after cancellation")
                #expect(await !recorder.items.isEmpty)
            }
        }
    }

    @Test func readsFilesByPathAndFileURLInChunks() async throws {
        try await withTemporaryDirectory { directory in
            // A feed larger than one 64 KiB chunk.
            let feed = FeedServer.generatedFeed(items: 700)
            #expect(feed.utf8.count > 2 * 64 * 1024)
            try Data(feed.utf8).write(to: directory.appendingPathComponent("big.xml"))
            let byPath = try await Self.run(RSSOptions(url: "big.xml"), directory: directory)
            #expect(await byPath.finished)
            #expect(await byPath.items.count == 700)
            let batches = await byPath.events.filter { if case .items = $0 { true } else { false } }
            #expect(batches.count >= 3)
            let fileURL = directory.appendingPathComponent("big.xml").absoluteString
            let byURL = try await Self.run(RSSOptions(url: fileURL), directory: directory)
            #expect(await byURL.items.map(\.id) == byPath.items.map(\.id))
        }
    }

    @Test func missingAndOutsideFilesFailClearly() async throws {
        try await withTemporaryDirectory { directory in
            let missing = try await Self.run(RSSOptions(url: "nope.xml"), directory: directory)
            guard case .fileNotFound = try #require(await missing.failure).reason else {
                Issue.record("expected fileNotFound, got \(String(describing: await missing.failure))")
                return
            }
            // Leading outside by its spelling is refused when the source is made (so `validate` says it, at "url").
            let error = #expect(throws: SourceOptionError.self) {
                _ = try Self.makeSource(RSSOptions(url: "../elsewhere.xml"), directory: directory)
            }
            #expect(error?.key == "url")
            // Through a symbolic link, it is found when the source runs.
            let outsideDirectory = directory.deletingLastPathComponent()
                .appendingPathComponent("outside-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: outsideDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: outsideDirectory) }
            try Data("<rss/>".utf8).write(to: outsideDirectory.appendingPathComponent("feed.xml"))
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent("link"),
                withDestinationURL: outsideDirectory
            )
            let outside = try await Self.run(RSSOptions(url: "link/feed.xml"), directory: directory)
            #expect(await outside.failure?.reason == .pathOutsideConfigDirectory(path: "link/feed.xml"))
        }
    }

    @Test(arguments: [
        (RSSOptions(url: ""), "url"),
        (RSSOptions(url: "ftp://example.com/feed.xml"), "url"),
        (RSSOptions(url: "https://"), "url"),
        (RSSOptions(url: "https://example.com/feed", timeout: "soon"), "timeout"),
        (RSSOptions(url: "https://example.com/feed", maxBytes: 0), "maxBytes"),
        (RSSOptions(url: "https://example.com/feed", maxRedirects: -1), "maxRedirects"),
        (RSSOptions(url: "https://example.com/feed", userAgent: " "), "userAgent"),
    ])
    func unusableOptionsAreRejectedByKey(_ options: RSSOptions, key: String) throws {
        let error = #expect(throws: SourceOptionError.self) {
            try RSSSource(
                id: "feed",
                options: options,
                context: SourceContext(baseDirectory: URL(fileURLWithPath: "/"))
            )
        }
        #expect(error?.key == key)
    }

    @Test func initDoesNoIO() throws {
        // A server that does not exist and a file that does not exist: init succeeds, nothing is touched.
        let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
        _ = try RSSSource(id: "a", options: RSSOptions(url: "http://127.0.0.1:9/feed.xml"), context: context)
        _ = try RSSSource(id: "b", options: RSSOptions(url: "missing/feed.xml"), context: context)
    }
}
