import AdapterConformance
import Foundation
import GoogleNewsAdapter
import Hummingbird
import NIOCore
import TestSupport
import Testing
import TributaryCore

/// The conformance kit over the `google-news` source, fetching each fixture from a real server on 127.0.0.1.
@Suite struct GoogleNewsConformanceTests {
    /// The fixture served at `/rss`, or an empty channel, or a page that is not a feed.
    static let cases: [(name: String, expectation: ConformanceFixture.Expectation)] = [
        ("google-news-top-stories-ja.xml", .items),
        ("google-news-top-stories-en.xml", .items),
        ("google-news-search-en.xml", .items),
        ("google-news-consent-wrapped-no-source.xml", .items),
        ("empty-channel", .empty),
        ("html-page", .malformed),
    ]

    @Test(arguments: cases)
    func conformsToSourceContract(_ name: String, _ expectation: ConformanceFixture.Expectation) async throws {
        let body: Data
        switch name {
        case "empty-channel":
            body = Data(
                #"<?xml version="1.0"?><rss version="2.0"><channel><title>Google News</title></channel></rss>"#.utf8
            )
        case "html-page":
            body = Data(
                "<!doctype html><html><head><title>Sorry</title></head><body>Unusual traffic</body></html>".utf8
            )
        default:
            body = try Fixture.data(name)
        }
        let router = Router()
        router.get("/rss") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "application/xml; charset=UTF-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
        try await withTestServer(router) { port in
            let context = SourceContext(baseDirectory: URL(fileURLWithPath: "/"))
            let throttle = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
            try await SourceConformance.check(
                {
                    try GoogleNewsSource(
                        id: "kit",
                        options: GoogleNewsOptions(
                            hl: "ja",
                            gl: "JP",
                            ceid: "JP:ja",
                            baseURL: "http://127.0.0.1:\(port)"
                        ),
                        context: context,
                        throttle: throttle
                    )
                },
                fixture: ConformanceFixture(name, expectation: expectation)
            )
        }
    }

    @Test func anUnreachableServerIsAFailedSourceThatConforms() async throws {
        try await SourceConformance.check(
            {
                try GoogleNewsSource(
                    id: "kit",
                    options: GoogleNewsOptions(hl: "en-US", gl: "US", ceid: "US:en", baseURL: "http://127.0.0.1:1"),
                    context: SourceContext(baseDirectory: URL(fileURLWithPath: "/")),
                    throttle: HostLimiter(maxConcurrentRequests: 1, minimumInterval: .zero)
                )
            },
            fixture: ConformanceFixture("closed port", expectation: .unreachable)
        )
    }
}
