import Foundation

extension Digest {
    /// A realistic, fixed digest for golden-file tests and previews, built by ``DigestBuilder`` from a fixed clock
    /// (2026-11-22 14:41 in Asia/Tokyo; previous digest at 06:00 the same morning).
    ///
    /// It holds Japanese and English Google News items with publishers and related coverage, an item published at
    /// 2026-11-21T20:00Z (which is 22 November in Tokyo), an item without a title, a reading-list item without a
    /// date, an item whose title and URL carry Markdown, HTML and terminal control characters, a related link with
    /// a `javascript:` URL, a source with warnings, a source that was not modified and two failed sources.
    public static var sample: Digest {
        let builder = DigestBuilder(
            title: "Morning digest",
            timeZone: TimeZone(identifier: "Asia/Tokyo") ?? TimeZone(secondsFromGMT: 9 * 3600) ?? .gmt,
            generatedAt: sampleDate("2026-11-22T05:41:00Z"),
            language: "en",
            previousDigestAt: sampleDate("2026-11-21T21:00:00Z")
        )
        return builder.build(items: sampleItems, statuses: sampleStatuses)
    }

    private static func sampleDate(_ text: String) -> Date {
        RFC3339.parse(text) ?? Date(timeIntervalSince1970: 0)
    }

    private static var sampleItems: [FeedItem] {
        [
            FeedItem(
                id: "CBMiK2h0dHBzOi8vd3d3My5uaGsub3IuanAvbmV3cy9odG1sLzIwMjYxMTIy",
                url:
                    "https://news.google.com/rss/articles/CBMiK2h0dHBzOi8vd3d3My5uaGsub3IuanAvbmV3cy9odG1sLzIwMjYxMTIy?oc=5",
                title: "政府、来年度予算案の概算要求を発表 過去最大の規模に",
                datePublished: sampleDate("2026-11-22T04:30:00Z"),
                language: "ja",
                tributary: TributaryExtension(
                    source: "google-news-jp",
                    origin: .init(title: "NHKニュース", url: "https://www3.nhk.or.jp"),
                    related: [
                        .init(
                            title: "来年度予算案、閣議決定へ 社会保障費が膨らむ",
                            url: "https://news.google.com/rss/articles/CBMiQmh0dHBzOi8vd3d3Lm5pa2tlaS5jb20?oc=5",
                            publisher: "日本経済新聞"
                        ),
                        .init(
                            title: "予算案のポイントをわかりやすく解説",
                            url: "https://news.google.com/rss/articles/CBMiPmh0dHBzOi8vd3d3LmFzYWhpLmNvbQ?oc=5",
                            publisher: "朝日新聞デジタル"
                        ),
                    ],
                    guid: "CBMiK2h0dHBzOi8vd3d3My5uaGsub3IuanAvbmV3cy9odG1sLzIwMjYxMTIy",
                    firstSeen: sampleDate("2026-11-22T05:40:00Z")
                )
            ),
            FeedItem(
                id: "wire-42",
                url: "https://wire.example/items/42?q=a b&x=<y>",
                title: "Breaking: <script>alert(1)</script> *bold* _under_ [link](x) | pipe # hash `code` & co\n"
                    + "\u{1B}[31mred\u{1B}[0m alert",
                contentHTML:
                    "<p>Markup in the <b>summary</b> &amp; entities like &lt;script&gt; become plain text.</p>"
                    + "<script>document.title = 'pwned'</script><p>Second&nbsp;paragraph.</p>",
                datePublished: sampleDate("2026-11-22T03:15:00Z"),
                authors: [.init(name: "Wire Desk")],
                tags: ["security", "<tag>"],
                tributary: TributaryExtension(
                    source: "wire",
                    related: [
                        .init(
                            title: "Analysis: what the <b>markup</b> hides",
                            url: "javascript:alert(1)",
                            publisher: "Example & Co"
                        )
                    ],
                    firstSeen: sampleDate("2026-11-22T03:16:00Z")
                )
            ),
            FeedItem(
                id: "CBMiVWh0dHBzOi8vd3d3LmluZm93b3JsZC5jb20vYXJ0aWNsZS9zd2lmdC02LTM",
                url:
                    "https://news.google.com/rss/articles/CBMiVWh0dHBzOi8vd3d3LmluZm93b3JsZC5jb20vYXJ0aWNsZS9zd2lmdC02LTM?oc=5",
                title: "Swift 6.3 arrives with faster builds and better C++ interoperability",
                datePublished: sampleDate("2026-11-22T01:05:00Z"),
                tags: ["swift"],
                language: "en",
                tributary: TributaryExtension(
                    source: "swift-search",
                    origin: .init(title: "InfoWorld", url: "https://www.infoworld.com"),
                    related: [
                        .init(
                            title: "What's new in Swift 6.3",
                            url: "https://news.google.com/rss/articles/CBMiK2h0dHBzOi8vd3d3LnN3aWZ0Lm9yZy9ibG9n?oc=5",
                            publisher: "Swift.org"
                        ),
                        .init(
                            title: "Apple's Swift 6.3 brings embedded improvements",
                            url: "https://news.google.com/rss/articles/CBMiL2h0dHBzOi8vd3d3LnRoZXJlZ2lzdGVyLmNvbQ?oc=5",
                            publisher: "The Register"
                        ),
                    ],
                    firstSeen: sampleDate("2026-11-22T01:30:00Z"),
                    alsoIn: [.init(source: "swift-org", id: "https://www.swift.org/blog/swift-6.3-released/")]
                )
            ),
            FeedItem(
                id: "CBMiN2h0dHBzOi8vd2VhdGhlcm5ld3MuY29tL2phL25ld3Mvd2VhdGhlcg",
                url:
                    "https://news.google.com/rss/articles/CBMiN2h0dHBzOi8vd2VhdGhlcm5ld3MuY29tL2phL25ld3Mvd2VhdGhlcg?oc=5",
                title: "東京都心で今季一番の冷え込み、各地で初霜や初氷を観測 週明けも寒さ続く見通し",
                datePublished: sampleDate("2026-11-21T20:00:00Z"),
                language: "ja",
                tributary: TributaryExtension(
                    source: "google-news-jp",
                    origin: .init(title: "ウェザーニュース", url: "https://weathernews.jp"),
                    firstSeen: sampleDate("2026-11-21T20:10:00Z")
                )
            ),
            FeedItem(
                id: "wire-41",
                contentText: "Power restored to 12,000 homes in the harbour district after the overnight storm; crews "
                    + "expect the remaining outages to be fixed by noon.",
                datePublished: sampleDate("2026-11-21T12:34:00Z"),
                tributary: TributaryExtension(source: "wire", firstSeen: sampleDate("2026-11-21T12:35:00Z"))
            ),
            FeedItem(
                id: "https://www.swift.org/blog/swift-6.3-released/",
                url: "https://www.swift.org/blog/swift-6.3-released/",
                title: "Swift 6.3 Released",
                contentHTML: "<p>We are pleased to announce Swift&nbsp;6.3 &mdash; with faster incremental builds, "
                    + "better diagnostics &amp; new <code>Span</code> APIs.</p>",
                datePublished: sampleDate("2026-11-21T09:00:00Z"),
                authors: [.init(name: "The Swift Project")],
                tags: ["release", "swift"],
                tributary: TributaryExtension(source: "swift-org", firstSeen: sampleDate("2026-11-21T09:20:00Z"))
            ),
            FeedItem(
                id: "CBMiSWh0dHBzOi8vd3d3LnRoZXZlcmdlLmNvbS9hcHBsZS94Y29kZQ",
                url: "https://news.google.com/rss/articles/CBMiSWh0dHBzOi8vd3d3LnRoZXZlcmdlLmNvbS9hcHBsZS94Y29kZQ?oc=5",
                title: "Xcode's new agent mode writes Swift tests for you 🤖",
                datePublished: sampleDate("2026-11-21T06:00:00Z"),
                tributary: TributaryExtension(
                    source: "swift-search",
                    origin: .init(title: "The Verge", url: "https://www.theverge.com"),
                    firstSeen: sampleDate("2026-11-21T06:30:00Z")
                )
            ),
            FeedItem(
                id: "https://example.org/essays/structured-concurrency",
                url: "https://example.org/essays/structured-concurrency",
                title: "Structured concurrency, two years on",
                contentText: """
                    Two years after adopting structured concurrency across our server codebase, we look back at what \
                    worked, what did not, and what we would tell a team starting today. Task groups replaced most of \
                    our hand-written fan-out code; actors removed a class of data races but introduced reentrancy \
                    surprises; and the strict checking of Swift 6 turned out to be the most valuable migration we did.
                    """,
                authors: [.init(name: "Ada Example")],
                tags: ["swift", "concurrency"],
                tributary: TributaryExtension(source: "reading-list", firstSeen: sampleDate("2026-11-20T09:00:00Z"))
            ),
        ]
    }

    private static var sampleStatuses: [SourceStatus] {
        [
            SourceStatus(
                sourceID: "google-news-jp",
                kind: "google-news",
                title: "Google News (Japan)",
                state: .succeeded,
                itemCount: 2
            ),
            SourceStatus(sourceID: "swift-search", kind: "google-news", title: "Swift news", state: .succeeded),
            SourceStatus(sourceID: "swift-org", kind: "rss", title: "Swift.org", state: .notModified),
            SourceStatus(
                sourceID: "wire",
                kind: "push",
                state: .succeeded,
                warnings: [
                    SourceWarning("not valid JSON; frame skipped", location: "frame 17"),
                    SourceWarning("item without \"id\"; frame skipped", location: "frame 23"),
                ]
            ),
            SourceStatus(
                sourceID: "newsroom",
                kind: "push",
                state: .failed(
                    SourceError(
                        sourceID: "newsroom",
                        reason: .connection(
                            url: "ws://127.0.0.1:8765/feed",
                            detail: "connection refused; start the server with `tributary simulate --port 8765`"
                        )
                    )
                )
            ),
            SourceStatus(sourceID: "reading-list", kind: "json-file", title: "Reading list", state: .succeeded),
            SourceStatus(
                sourceID: "hn-script",
                kind: "exec",
                title: "Hacker News <script>",
                state: .failed(SourceError(sourceID: "hn-script", reason: .timedOut(after: .seconds(20))))
            ),
        ]
    }
}
