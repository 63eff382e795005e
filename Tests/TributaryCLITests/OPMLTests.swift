import Foundation
import Testing

@testable import TributaryCLI

/// OPML import and export with the shapes newsboat, Miniflux, FreshRSS and Feedly write, through the binary.
@Suite(.serialized) struct OPMLTests {
    /// What each fixture holds: (url, title, category).
    static let expected: [String: [(String, String?, String?)]] = [
        "opml-newsboat.opml": [
            ("https://www.swift.org/atom.xml", "Swift.org", nil),
            ("https://news.ycombinator.com/rss", "Hacker News", nil),
            ("https://lwn.net/headlines/rss", nil, nil),
        ],
        "opml-miniflux.opml": [
            ("https://www.swift.org/atom.xml", "Swift.org", "All"),
            ("https://lwn.net/headlines/rss", "LWN.net", "Tech"),
            ("https://jvns.ca/atom.xml", "Julia Evans", "Tech"),
        ],
        "opml-freshrss.opml": [
            ("https://www3.nhk.or.jp/rss/news/cat0.xml", "NHKニュース", "Uncategorized"),
            ("https://www.swift.org/atom.xml", "Swift.org & friends", "Dev"),
            ("https://this-week-in-rust.org/rss.xml", "This Week in Rust", "Dev/Rust"),
        ],
        "opml-feedly.opml": [
            ("https://www.theverge.com/rss/index.xml", "The Verge", "Tech"),
            ("https://feeds.arstechnica.com/arstechnica/index", "Ars Technica", "Tech"),
            ("https://feeds.bbci.co.uk/news/rss.xml", "BBC News", "News"),
            ("https://www.theverge.com/rss/index.xml/", "The Verge", "News"),
        ],
    ]

    @Test(arguments: ["opml-newsboat.opml", "opml-miniflux.opml", "opml-freshrss.opml", "opml-feedly.opml"])
    func readsEachReadersShape(_ name: String) throws {
        let workspace = try Workspace(fixtures: [name])
        let data = try Data(contentsOf: workspace.url.appendingPathComponent(name))
        let read = try OPML.subscriptions(in: data).map { ($0.url, $0.title, $0.category) }
        let expected = try #require(Self.expected[name])
        #expect(read.map(\.0) == expected.map(\.0))
        #expect(read.map(\.1) == expected.map(\.1))
        #expect(read.map(\.2) == expected.map(\.2))
    }

    /// Import makes valid sources (ids from titles, or the host), skips URLs already listed (also written with a
    /// trailing slash), and export gives the same feeds in the same folders back.
    @Test(arguments: ["opml-newsboat.opml", "opml-miniflux.opml", "opml-freshrss.opml", "opml-feedly.opml"])
    func importThenExportGivesTheFeedsBack(_ name: String) throws {
        let workspace = try Workspace(fixtures: [name])
        let imported = try TributaryProcess.run(["import", name], in: workspace.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let validated = try TributaryProcess.run(["validate"], in: workspace.url)
        #expect(validated.status == 0, "\(validated.standardError)")
        let exported = try TributaryProcess.run(["export", "--opml"], in: workspace.url)
        #expect(exported.status == 0, "\(exported.standardError)")
        let back = try OPML.subscriptions(in: Data(exported.standardOutput.utf8))
        let original = try OPML.subscriptions(in: Data(contentsOf: workspace.url.appendingPathComponent(name)))
        // Feedly lists The Verge twice (in two folders): the second is the same feed and is not added again.
        var seen = Set<String>()
        let unique = original.filter { seen.insert(SubscriptionList.key(for: $0.url)).inserted }
        #expect(back.map(\.url) == unique.map(\.url))
        #expect(back.map(\.category) == unique.map(\.category))
        #expect(back.map(\.title) == unique.map { $0.title ?? "lwn-net" })

        let again = try TributaryProcess.run(["import", name], in: workspace.url)
        #expect(
            again.standardError.contains("added 0 feeds, \(original.count) already listed"),
            "\(again.standardError)"
        )
    }

    @Test func importKeepsTheLayoutOfAnExistingFile() throws {
        let workspace = try Workspace(fixtures: ["opml-newsboat.opml"])
        let original = """
            {
                "title": "Morning",
                "sources": [
                    {
                        "id": "swift",
                        "kind": "rss",
                        "url": "https://www.swift.org/atom.xml/"
                    }
                ]
            }

            """
        try workspace.write("feeds.json", original)
        let result = try TributaryProcess.run(["import", "opml-newsboat.opml"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("added 2 feeds, 1 already listed"))
        let text = try String(contentsOf: workspace.url.appendingPathComponent("feeds.json"), encoding: .utf8)
        let kept = String(original.prefix(while: { $0 != "]" }).dropLast(5))
        #expect(text.hasPrefix(kept), "\(text)")
        #expect(
            text.hasSuffix(
                """
                        },
                        { "id": "hacker-news", "kind": "rss", "url": "https://news.ycombinator.com/rss", "title": "Hacker News" },
                        { "id": "lwn-net", "kind": "rss", "url": "https://lwn.net/headlines/rss" }
                    ]
                }

                """
            ),
            "\(text)"
        )
    }

    @Test func refusesWhatIsNotOPMLAndEntitiesFromOutside() throws {
        let workspace = try Workspace()
        try workspace.write("feed.xml", #"<rss version="2.0"><channel/></rss>"#)
        let notOPML = try TributaryProcess.run(["import", "feed.xml"], in: workspace.url)
        #expect(notOPML.status == 2)
        #expect(notOPML.standardError.contains("not an OPML file (its root element is <rss>, not <opml>)"))
        try workspace.write(
            "xxe.opml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <opml version="2.0"><body><outline title="x&secret;" xmlUrl="https://a.example/feed"/></body></opml>
            """
        )
        let xxe = try TributaryProcess.run(["import", "xxe.opml"], in: workspace.url)
        #expect(xxe.status == 2)
        #expect(!FileManager.default.fileExists(atPath: workspace.url.appendingPathComponent("feeds.json").path))
    }
}
