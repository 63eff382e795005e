import Foundation
import FoundationXML
import Testing
import TributaryCore

@testable import Renderers

/// Parses the Markdown digest with `cmark`, the CommonMark reference implementation (Debian's `cmark`, installed by
/// scripts/setup.sh), and checks the structure a reader sees: one list item per feed item, with one link whose
/// text is exactly the item's title, whatever the title holds.
/// Outside CI the suite is skipped, saying so, when cmark is missing; in CI (`CI=true`) it always runs.
@Suite(.enabled(if: CommonMarkTool.cmark != nil || CommonMarkTool.isCI, "cmark is not installed (scripts/setup.sh)"))
struct CommonMarkTests {
    static let cmark = CommonMarkTool.cmark

    /// The CommonMark document tree of `markdown`, as cmark's XML.
    static func parse(_ markdown: String) throws -> XMLDocument {
        let executable = try #require(cmark, "cmark is required in CI; scripts/setup.sh installs it")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--to", "xml"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let xml = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try XMLDocument(data: xml)
    }

    /// The text a reader sees inside `node`: its text and code children joined, soft breaks as spaces.
    static func plainText(of node: XMLNode) throws -> String {
        try node.nodes(forXPath: ".//*[local-name()='text' or local-name()='code' or local-name()='softbreak']")
            .map { $0.name == "softbreak" ? " " : ($0.stringValue ?? "") }
            .joined()
    }

    /// What a title looks like once rendered: one line, whitespace runs as one space, escape sequences and
    /// control characters gone.
    static func rendered(_ title: String) -> String {
        FeedText.collapseWhitespace(ControlCharacters.removing(from: title))
    }

    @Test(arguments: TestDigest.hostileStrings)
    func eachItemIsOneListItemWithOneLinkWhoseTextIsTheTitle(_ hostile: String) throws {
        let titles = (0..<3).map { "\(hostile) \($0)" }
        let entries = titles.map {
            TestDigest.entry(title: $0, url: "https://news.example/\(abs($0.hashValue))", publisher: hostile)
        }
        let markdown = try MarkdownRenderer().render(TestDigest.digest(entries, title: hostile))
        let document = try Self.parse(markdown)

        let items = try document.nodes(
            forXPath: "/*[local-name()='document']/*[local-name()='list']/*[local-name()='item']"
        )
        #expect(items.count == 3, "\(markdown)")
        for (item, title) in zip(items, titles) {
            // Links in the item's own paragraph, not in a nested list of related coverage.
            let links = try item.nodes(forXPath: "./*[local-name()='paragraph']//*[local-name()='link']")
            #expect(links.count == 1, "\(markdown)")
            let link = try #require(links.first)
            let destination = try link.nodes(forXPath: "@destination").first?.stringValue
            #expect(destination?.hasPrefix("https://news.example/") == true, "\(String(describing: destination))")
            #expect(try Self.plainText(of: link) == Self.rendered(title))
            #expect(try item.nodes(forXPath: ".//*[local-name()='html_inline' or local-name()='html_block']").isEmpty)
        }
        // Only the digest's title and the day become headings; nothing in a title adds one.
        let headings = try document.nodes(forXPath: "//*[local-name()='heading']")
        #expect(headings.count == 2, "\(markdown)")
    }

    @Test func theSampleDigestHasOneListItemPerEntryAndEveryFailureIsListedAtTheEnd() throws {
        let digest = Digest.sample
        let markdown = try MarkdownRenderer().render(digest)
        let document = try Self.parse(markdown)
        let items = try document.nodes(
            forXPath: "/*[local-name()='document']/*[local-name()='list']/*[local-name()='item']"
        )
        #expect(items.count == digest.itemCount)
        let headings = try document.nodes(forXPath: "/*[local-name()='document']/*[local-name()='heading']")
            .map { try Self.plainText(of: $0) }
        #expect(headings.first == digest.title)
        #expect(headings.last == "Sources")
        #expect(Array(headings.dropFirst().dropLast()) == digest.days.map(\.heading))
        // The sources come last, and every failed one is there with its reason.
        let tail = try #require(markdown.components(separatedBy: "## Sources").last)
        #expect(!digest.failedSources.isEmpty)
        for source in digest.failedSources {
            let reason = try #require(source.reason)
            #expect(tail.contains(MarkdownEscaping.text(reason, inTableCell: true)))
        }
    }
}

/// Where the `cmark` executable is.
enum CommonMarkTool {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The `cmark` executable, if one is on the PATH.
    static let cmark: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("cmark") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
