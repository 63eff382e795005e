import Foundation
import TestSupport
import Testing

/// Loads digests in headless Chromium (`--dump-dom`, which runs scripts and prints the DOM afterwards) and checks
/// that feeds trying to run scripts got nowhere. The hostile digest is made by the `tributary` binary from fixture
/// feeds (a JSON Feed file and an RSS file), so the test covers the whole path from feed to page.
///
/// Skipped only when Chromium is missing and CI is not set. Serialized, like ``EndToEndTests``.
@Suite(.serialized, .enabled(if: ExternalTool.chromium.shouldRun, ExternalTool.chromium.skipMessage))
struct HTMLDigestBrowserTests {
    static let hostileConfig = """
        {
          "title": "Hostile digest",
          "timeZone": "UTC",
          "sources": [
            { "id": "hostile-json", "kind": "json-file", "path": "hostile.json", "title": "Hostile <script>alert(1)</script>" },
            { "id": "hostile-rss", "kind": "rss", "url": "hostile.rss" }
          ]
        }
        """

    /// A word from every item of the hostile fixtures, which must appear as text.
    static let itemWords = [
        "Alpha story", "Bravo story", "Charlie story", "Delta story", "Echo story", "Foxtrot story", "Golf story",
        "Hotel story", "India story",
    ]

    /// The elements the built-in template writes; a page with any other element was added to.
    static let templateElements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "h1", "p", "time", "a", "nav", "ul", "li",
        "details", "summary", "div", "table", "thead", "tr", "th", "tbody", "td", "span", "main", "section", "h2",
        "article", "h3", "strong", "footer",
    ]

    /// The DOM of `file` after Chromium loaded it and ran whatever it would run.
    static func dumpDOM(of file: URL, profile: URL) throws -> String {
        let result = try ExternalTool.chromium.run([
            "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=3000", "--dump-dom", file.absoluteString,
        ])
        #expect(result.status == 0, "chromium failed: \(result.error)")
        return result.output
    }

    @Test func chromiumRunsNoScriptFromAHostileFeedAndShowsEveryItem() throws {
        let workspace = try Workspace(fixtures: ["hostile.json", "hostile.rss"])
        try workspace.write("feeds.json", Self.hostileConfig)
        let result = try TributaryProcess.run(["digest", "-o", "digest.html"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")

        let dom = try Self.dumpDOM(
            of: workspace.url.appendingPathComponent("digest.html"),
            profile: workspace.url.appendingPathComponent("chromium-profile")
        )
        // The title is the digest's: no script set document.title.
        let titles = dom.matches(of: /<title>([^<]*)<\/title>/).map { String($0.output.1) }
        #expect(titles == ["Hostile digest"])
        // No element was injected, by the feeds or by a script: only the template's own elements are there.
        let elements = Set(dom.matches(of: /<([a-zA-Z][a-zA-Z0-9-]*)/).map { String($0.output.1).lowercased() })
        #expect(
            elements.isSubset(of: Self.templateElements),
            "injected: \(elements.subtracting(Self.templateElements))"
        )
        // Inside a tag (text's `<` is escaped, so every `<` in the DOM starts one), no event handler attribute.
        #expect(!dom.contains(/<[^>]*\son[a-z]+\s*=/), "an event handler attribute reached the page")
        #expect(!dom.lowercased().contains("href=\"javascript"), "a javascript: link reached the page")
        // Every item is there, as text.
        #expect(dom.components(separatedBy: "<article ").count - 1 == Self.itemWords.count)
        for word in Self.itemWords {
            #expect(dom.contains(word), "\(word) is missing from the page")
        }
        // Markup in feed text is shown as text, not run: the source's title. A link that is not http(s) or mailto
        // never reaches an output (the pipeline drops it with a warning), not even as text; its item stays.
        #expect(dom.contains("<span class=\"source\">Hostile &lt;script&gt;alert(1)&lt;/script&gt;</span>"))
        #expect(dom.contains("Alpha story"))
        #expect(!dom.contains("<span class=\"url\">javascript:"))
    }

    /// The first screen holds news: on a phone (390×844) and a laptop (1280×800), with a failed source and several
    /// days, the first item's title is entirely inside the window. Measured in Chromium on a copy of the digest
    /// with a measuring script added (the digest itself runs none).
    @Test(arguments: [(390, 844), (1280, 800)])
    func theFirstItemsAreVisibleWithoutScrolling(_ width: Int, _ height: Int) throws {
        let workspace = try Workspace(fixtures: ["hostile.json", "hostile.rss"])
        try workspace.write(
            "feeds.json",
            """
            { "title": "Morning digest", "timeZone": "UTC", "sources": [
              { "id": "news", "kind": "json-file", "path": "hostile.json" },
              { "id": "wire", "kind": "rss", "url": "hostile.rss" },
              { "id": "broken-one", "kind": "rss", "url": "missing-one.rss", "title": "A source with a long name that failed" },
              { "id": "broken-two", "kind": "rss", "url": "missing-two.rss" }
            ] }
            """
        )
        let result = try TributaryProcess.run(["digest", "--no-state", "-o", "digest.html"], in: workspace.url)
        #expect(result.status == 1, "\(result.standardError)")
        let page = try String(contentsOf: workspace.url.appendingPathComponent("digest.html"), encoding: .utf8)
        let measuring = page.replacingOccurrences(
            of: "</body>",
            with: """
                <script>
                const title = document.querySelector("article h3");
                const box = title.getBoundingClientRect();
                const out = document.createElement("output");
                out.textContent = `first-item-bottom=${Math.ceil(box.bottom)} window=${window.innerHeight} width=${document.documentElement.scrollWidth}/${window.innerWidth}`;
                document.body.appendChild(out);
                </script>
                </body>
                """
        )
        try workspace.write("measure.html", measuring)
        let run = try ExternalTool.chromium.run([
            "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(workspace.url.appendingPathComponent("chromium-profile").path)",
            "--window-size=\(width),\(height)", "--hide-scrollbars", "--virtual-time-budget=3000", "--dump-dom",
            workspace.url.appendingPathComponent("measure.html").absoluteString,
        ])
        let match = try #require(run.output.firstMatch(of: /first-item-bottom=(\d+) window=(\d+) width=(\d+)\/(\d+)/))
        let bottom = try #require(Int(match.output.1))
        let window = try #require(Int(match.output.2))
        #expect(bottom <= window, "the first item ends at \(bottom) px, below the \(window) px window")
        // And at most the top half, so that more than one item shows.
        #expect(bottom <= window / 2, "the first item ends at \(bottom) px of \(window)")
        #expect(match.output.3 == match.output.4, "the page scrolls sideways")
    }

    @Test func theCheckWouldSeeAScriptThatRan() throws {
        // A control: the same browser, flags and checks on a page whose script does what the fixtures try to.
        let workspace = try Workspace()
        try workspace.write(
            "control.html",
            """
            <!doctype html><html lang="en"><head><title>Hostile digest</title></head><body>
            <script>document.title = "PWNED"; document.body.appendChild(document.createElement("pwned"))</script>
            </body></html>
            """
        )
        let dom = try Self.dumpDOM(
            of: workspace.url.appendingPathComponent("control.html"),
            profile: workspace.url.appendingPathComponent("chromium-profile")
        )
        #expect(dom.contains("<title>PWNED</title>"))
        #expect(dom.contains("<pwned></pwned>"))
    }
}
