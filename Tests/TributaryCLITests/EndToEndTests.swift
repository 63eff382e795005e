import Foundation
import Testing
import TributaryCore

/// Runs the built `tributary` binary on fixture configurations in temporary directories, as a user would.
///
/// Serialized: each test blocks a thread while it waits for the child process, and the cooperative pool has as
/// many threads as cores (two on CI), which the rest of the suite needs for its own timers.
@Suite(.serialized) struct EndToEndTests {
    static let healthyConfig = """
        {
          "$schema": "./feeds.schema.json",
          "title": "Test digest",
          "timeZone": "Asia/Tokyo",
          "sources": [
            { "id": "news", "kind": "json-file", "path": "news.json", "title": "Example News" },
            { "id": "notes", "kind": "json-file", "path": "notes.json" }
          ]
        }
        """

    /// `tributary summary | head`: the reader goes away after one byte; the command ends quietly with the status a
    /// shell reports for SIGPIPE, as Unix tools do (it crashed on the closed pipe before), and the digest is not
    /// recorded as shown, so `--since last` still shows the items.
    @Test func aReaderThatClosesThePipeEndsTheCommandQuietly() throws {
        let workspace = try Workspace()
        let items = (0..<2000).map { index in
            #"{ "id": "i\#(index)", "url": "https://example.org/\#(index)", "title": "A headline long enough to fill a pipe, number \#(index)" }"#
        }
        try workspace.write(
            "news.json",
            #"{ "version": "https://jsonfeed.org/version/1.1", "title": "News", "items": [\#(items.joined(separator: ","))] }"#
        )
        try workspace.write(
            "feeds.json",
            #"{ "sources": [ { "id": "news", "kind": "json-file", "path": "news.json" } ] }"#
        )
        for arguments in [["summary", "-q", "--since", "last"], ["digest", "-q", "--format", "json", "-o", "-"]] {
            let result = try TributaryProcess.run(
                [],
                in: workspace.url,
                executable: URL(fileURLWithPath: "/bin/bash"),
                arguments: [
                    "-c", #"set -o pipefail; "$0" "$@" 2>stderr.txt | head -c 1 >/dev/null; echo "status $?""#,
                    try TributaryProcess.executable.path,
                ] + arguments
            )
            #expect(result.standardOutput == "status 141\n", "\(arguments): \(result.standardOutput)")
            #expect(try workspace.read("stderr.txt") == "", "\(arguments)")
        }
        let again = try TributaryProcess.run(["summary", "--since", "last"], in: workspace.url)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("number 1999"), "the cut-off summary was recorded as shown")
    }

    @Test func digestWritesHTMLFromTheConfigAndExitsZero() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", Self.healthyConfig)
        let result = try TributaryProcess.run(["digest"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        let html = try workspace.read("digest.html")
        #expect(html.hasPrefix("<!doctype html>") || html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("Harbour reopens after the storm"))
        #expect(html.contains("東京の電車、運転再開"))
        #expect(html.contains("Reading list for the week"))
        // A JSON Feed title is plain text: markup written in it is text, escaped on the way into HTML, never run.
        #expect(html.contains("Budget &lt;b&gt;vote&lt;/b&gt; &amp; what it means"))
        #expect(!html.contains("<b>vote</b>"))
        #expect(result.standardError.contains("news: ok, 3 items"))
        #expect(result.standardError.contains("wrote digest.html"))
        // Nothing but the digest and the state store is left behind: no temporary files.
        #expect(try workspace.files() == [".tributary", "digest.html", "feeds.json", "news.json", "notes.json"])
        #expect(workspace.exists(".tributary/state.sqlite"))
    }

    @Test func digestIsReproducibleAndMatchesTheGoldenFiles() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", Self.healthyConfig)
        for (format, name) in [
            ("html", "digest.html"), ("markdown", "digest.md"), ("text", "digest.txt"), ("json", "digest.json"),
        ] {
            let first = try TributaryProcess.run(["digest", "--format", format, "-o", "-"], in: workspace.url)
            let second = try TributaryProcess.run(["digest", "--format", format, "-o", "-"], in: workspace.url)
            #expect(first.status == 0, "\(first.standardError)")
            #expect(first.standardOutput == second.standardOutput)
            try GoldenFile.expect(first.standardOutput, matches: name)
        }
    }

    @Test func duplicateAcrossSourcesIsKeptOnceAndRecordsTheOtherSource() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", Self.healthyConfig)
        let result = try TributaryProcess.run(["digest", "--format", "json", "-o", "-"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(result.standardOutput.utf8))
        let harbour = feed.items.filter { $0.url?.contains("harbour") == true }
        #expect(harbour.count == 1)
        #expect(harbour.first?.sourceID == "news")
        #expect(harbour.first?.tributary?.alsoIn.map(\.source) == ["notes"])
        #expect(feed.items.count == 4)
        #expect(feed.items.allSatisfy { !$0.id.isEmpty && $0.sourceID != nil })
    }

    @Test func brokenSourcesAreNamedAndTheHealthyOneStillRenders() throws {
        let workspace = try Workspace(fixtures: ["news.json", "not-json.json"])
        try workspace.write(
            "feeds.json",
            """
            {
              "sources": [
                { "id": "news", "kind": "json-file", "path": "news.json" },
                { "id": "missing", "kind": "json-file", "path": "nowhere.json" },
                { "id": "garbage", "kind": "json-file", "path": "not-json.json" }
              ]
            }
            """
        )
        let result = try TributaryProcess.run(["digest"], in: workspace.url)
        #expect(result.status == 1)
        #expect(result.standardError.contains("missing: FAILED: nowhere.json: no such file"))
        #expect(result.standardError.contains("garbage: FAILED: not-json.json:1:1: invalid JSON"))
        let html = try workspace.read("digest.html")
        #expect(html.contains("Harbour reopens after the storm"))
        #expect(html.contains("nowhere.json: no such file"))
        #expect(html.contains("not-json.json:1:1: invalid JSON"))
    }

    @Test func validateReportsASyntaxErrorWithLineAndColumnAndWritesNothing() throws {
        let workspace = try Workspace()
        try workspace.write(
            "feeds.json",
            """
            {
              "title": "Broken"
              "sources": []
            }
            """
        )
        for command in [["validate"], ["digest"], ["summary"]] {
            let result = try TributaryProcess.run(command, in: workspace.url)
            #expect(result.status == 2)
            #expect(result.standardError.hasPrefix("feeds.json:3:3: "), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try workspace.files() == ["feeds.json"])
    }

    @Test func validateSuggestsTheClosestKnownKind() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write(
            "feeds.json",
            """
            {
              "sources": [
                { "id": "news", "kind": "jsonfile", "path": "news.json" }
              ]
            }
            """
        )
        let result = try TributaryProcess.run(["validate"], in: workspace.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains("feeds.json:3:"))
        #expect(result.standardError.contains("source 'news'"))
        #expect(result.standardError.contains("did you mean 'json-file'?"))
        let digest = try TributaryProcess.run(["digest"], in: workspace.url)
        #expect(digest.status == 2)
        #expect(!workspace.exists("digest.html"))
    }

    @Test func validateAcceptsAGoodConfigAndListsItsSources() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", Self.healthyConfig)
        let result = try TributaryProcess.run(["validate"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("feeds.json is valid: 2 sources"))
        #expect(result.standardOutput.contains("news (json-file)"))
    }

    @Test func missingConfigIsAUsageErrorNamingTheFile() throws {
        let workspace = try Workspace()
        let result = try TributaryProcess.run(["digest", "-c", "elsewhere.json"], in: workspace.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains("elsewhere.json"))
    }

    @Test func outputIntoAMissingDirectoryFailsBeforeFetching() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", Self.healthyConfig)
        let result = try TributaryProcess.run(["digest", "-o", "no/such/dir/digest.html"], in: workspace.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains("does not exist"))
        #expect(!result.standardError.contains("news: ok"))
    }

    @Test func summaryPrintsMarkdownOnStandardOutput() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", Self.healthyConfig)
        let result = try TributaryProcess.run(["summary", "--quiet"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("# Test digest"))
        #expect(result.standardOutput.contains("Reading list for the week"))
        #expect(result.standardError.isEmpty)
    }

    @Test func parsePrintsAJSONFeedWithNonEmptyIDs() throws {
        let workspace = try Workspace(fixtures: ["notes.json"])
        let result = try TributaryProcess.run(["parse", "notes.json"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(result.standardOutput.utf8))
        #expect(feed.version == JSONFeed.version1_1)
        #expect(feed.title == "Notes")
        #expect(feed.authors.first?.name == "Sam")
        #expect(feed.items.map(\.id) == ["2", "1"])
    }

    @Test func parseOfSomethingThatIsNotAFeedExitsOne() throws {
        let workspace = try Workspace(fixtures: ["not-json.json"])
        try workspace.write("object.json", #"{"hello": "world"}"#)
        for input in ["not-json.json", "object.json", "absent.json"] {
            let result = try TributaryProcess.run(["parse", input], in: workspace.url)
            #expect(result.status == 1, "\(input)")
            #expect(result.standardError.contains(input))
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func sourcesListsEveryBuiltInKind() throws {
        let workspace = try Workspace()
        let result = try TributaryProcess.run(["sources"], in: workspace.url)
        #expect(result.status == 0)
        for kind in ["json-file", "rss", "google-news"] {
            #expect(result.standardOutput.contains(kind))
        }
        for option in ["path", "url", "maxBytes", "ceid", "search", "topic"] {
            #expect(result.standardOutput.contains(option))
        }
    }

    @Test func badUsageExitsTwo() throws {
        let workspace = try Workspace()
        for arguments in [["digest", "--format", "pdf"], ["frobnicate"], ["parse"]] {
            let result = try TributaryProcess.run(arguments, in: workspace.url)
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.standardError.isEmpty)
        }
    }
}

/// Checks documents against the JSON Feed 1.1 specification, written as a JSON Schema in the fixtures, with
/// Python's `jsonschema` (installed by scripts/setup.sh).
enum JSONFeedValidator {
    /// The problems the validator found: empty when the document is valid JSON Feed 1.1.
    static func problems(in document: String) throws -> [String] {
        let schema = try #require(
            Bundle.module.url(forResource: "jsonfeed-1.1.schema", withExtension: "json", subdirectory: "Fixtures")
        )
        let script = """
            import json, sys
            import jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            document = json.load(sys.stdin)
            for error in jsonschema.Draft202012Validator(schema).iter_errors(document):
                print("/".join(str(p) for p in error.absolute_path) + ": " + error.message)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema.path]
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(document.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TributaryProcess.ProcessError(
                description:
                    "the JSON Feed validator could not run (python3 with jsonschema; run scripts/setup.sh): \(errorText)"
            )
        }
        return text.split(separator: "\n").map(String.init)
    }
}

/// Serialized for the same reason as ``EndToEndTests``.
@Suite(.serialized) struct JSONFeedValidityTests {
    /// The repository's root, from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["reading-list.json", "swift-weekly.json"])
    func parseOfEachExamplePrintsValidJSONFeed1_1(example: String) throws {
        let examples = Self.repositoryRoot.appendingPathComponent("examples")
        let result = try TributaryProcess.run(
            ["parse", "examples/\(example)"],
            in: examples.deletingLastPathComponent()
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try JSONFeedValidator.problems(in: result.standardOutput) == [])
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(result.standardOutput.utf8))
        #expect(!feed.items.isEmpty)
        #expect(feed.items.allSatisfy { !$0.id.isEmpty })
    }

    @Test func theJSONDigestIsValidJSONFeed1_1() throws {
        let workspace = try Workspace(fixtures: ["news.json", "notes.json"])
        try workspace.write("feeds.json", EndToEndTests.healthyConfig)
        let result = try TributaryProcess.run(["digest", "--format", "json", "-o", "-"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try JSONFeedValidator.problems(in: result.standardOutput) == [])
        // news-1 has a title but no content, which JSON Feed 1.1 does not allow: it gets an empty text, and its
        // title (plain text: references decoded once, markup written in it kept as text) stays the title.
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(result.standardOutput.utf8))
        let news1 = feed.items.first { $0.id == "news-1" }
        #expect(news1?.contentText == "")
        #expect(news1?.title == "Budget <b>vote</b> & what it means")
    }

    /// A fixture of the feed parser's tests.
    static func parserFixture(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/FeedParserTests/Fixtures/\(name)")
    }

    @Test(arguments: [
        "google-news-top-stories-ja.xml", "google-news-search-en.xml", "atom-blog-xml-base-xhtml.xml",
        "podcast-itunes-enclosures.xml", "rdf-rss10-dublin-core.xml", "encoding-shift-jis.xml",
    ])
    func parseOfAnXMLFeedPrintsValidJSONFeed1_1(fixture: String) throws {
        let workspace = try Workspace()
        let result = try TributaryProcess.run(["parse", Self.parserFixture(fixture).path], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try JSONFeedValidator.problems(in: result.standardOutput) == [])
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(result.standardOutput.utf8))
        #expect(!feed.items.isEmpty)
        #expect(feed.items.allSatisfy { !$0.id.isEmpty && $0.sourceID == "input" })
    }

    @Test func parseReadsStandardInputAndRendersOtherFormats() throws {
        let workspace = try Workspace()
        let feed = try Data(contentsOf: Self.parserFixture("google-news-top-stories-ja.xml"))
        let json = try TributaryProcess.run(["parse", "-"], in: workspace.url, standardInput: feed)
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.contains("日銀、追加利上げを決定"))
        let markdown = try TributaryProcess.run(
            ["parse", Self.parserFixture("google-news-top-stories-ja.xml").path, "--format", "markdown"],
            in: workspace.url
        )
        #expect(markdown.status == 0, "\(markdown.standardError)")
        #expect(markdown.standardOutput.hasPrefix("# "))
        #expect(markdown.standardOutput.split(separator: "\n").filter { $0.hasPrefix("- [") }.count >= 3)
    }

    @Test func parseOfSomethingThatIsNotAFeedSaysWhatItFoundAndExitsOne() throws {
        let workspace = try Workspace()
        try workspace.write("empty.xml", "")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(
            to: workspace.url.appendingPathComponent("noise.bin")
        )
        let cases = [
            (Self.parserFixture("not-a-feed-html-page.html").path, "the root element is <html>"),
            ("empty.xml", "empty"),
            ("noise.bin", "not a feed"),
            // A URL is fetched now; on loopback nothing listens at port 1 (no name to resolve, no network).
            ("http://127.0.0.1:1/feed.xml", "127.0.0.1:1 refused the connection"),
            ("ftp://example.org/feed.xml", "unsupported URL scheme 'ftp'"),
            ("missing.xml", "missing.xml: no such file"),
        ]
        for (input, message) in cases {
            let result = try TributaryProcess.run(["parse", input], in: workspace.url)
            #expect(result.status == 1, "\(input)")
            #expect(result.standardError.contains(message), "\(input): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(input)")
        }
    }

    @Test func aTruncatedFeedKeepsItsItemsAndWarns() throws {
        let workspace = try Workspace()
        let result = try TributaryProcess.run(
            ["parse", Self.parserFixture("broken-truncated.xml").path],
            in: workspace.url
        )
        #expect(result.status == 0)
        #expect(result.standardError.contains("warning"))
        let feed = try JSONDecoder().decode(JSONFeed.self, from: Data(result.standardOutput.utf8))
        #expect(!feed.items.isEmpty)
    }

    @Test func theValidatorRejectsWhatTheSpecificationForbids() throws {
        let invalid =
            #"{"version": "https://jsonfeed.org/version/1.1", "title": "x", "items": [{"id": "", "content_text": "a", "date_published": "yesterday"}]}"#
        let problems = try JSONFeedValidator.problems(in: invalid)
        #expect(problems.count == 2)
    }
}
