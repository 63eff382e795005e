import ArgumentParser
import Foundation
import Renderers
import Testing

@testable import TributaryCLI

/// `tributary digest --template` and feeds.json's `template`, run through the built binary. Serialized, like
/// ``EndToEndTests``.
@Suite(.serialized) struct DigestTemplateTests {
    static let config = """
        {
          "title": "Template digest",
          "timeZone": "Asia/Tokyo",
          "sources": [{ "id": "news", "kind": "json-file", "path": "news.json", "title": "Example News" }]
        }
        """

    static let listTemplate = """
        {{! One line per item. }}
        <ul>
        {{#days}}
        {{#entries}}
        <li>{{title}} ({{source}})</li>
        {{/entries}}
        {{/days}}
        </ul>

        """

    @Test func templateOptionDrawsTheDigestThroughTheUsersTemplate() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write("feeds.json", Self.config)
        try workspace.write("list.mustache", Self.listTemplate)
        let result = try TributaryProcess.run(["digest", "--template", "list.mustache", "-o", "-"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                <ul>
                <li>Harbour reopens after the storm (Example News)</li>
                <li>東京の電車、運転再開 (Example News)</li>
                <li>Budget &lt;b&gt;vote&lt;/b&gt; &amp; what it means (Example News)</li>
                </ul>

                """
        )
    }

    /// The list template draws in parts (the entries read back from the store a batch at a time); this one has its
    /// days inside another section, so it is drawn whole from the items the run kept: the same page either way.
    @Test func aTemplateThatMustBeDrawnWholeGivesTheSamePage() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write("feeds.json", Self.config)
        try workspace.write(
            "whole.mustache",
            "{{#hasItems}}\n" + Self.listTemplate.replacingOccurrences(of: "</ul>\n", with: "</ul>\n{{/hasItems}}\n")
        )
        try workspace.write("list.mustache", Self.listTemplate)
        #expect(try !HTMLTemplate(contentsOf: workspace.url.appendingPathComponent("whole.mustache")).drawsInParts)
        #expect(try HTMLTemplate(contentsOf: workspace.url.appendingPathComponent("list.mustache")).drawsInParts)
        let whole = try TributaryProcess.run(
            ["digest", "--template", "whole.mustache", "-o", "-", "--state", "whole.sqlite"],
            in: workspace.url
        )
        let parts = try TributaryProcess.run(
            ["digest", "--template", "list.mustache", "-o", "-", "--state", "parts.sqlite"],
            in: workspace.url
        )
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(parts.status == 0, "\(parts.standardError)")
        #expect(
            whole.standardOutput.contains("<li>Budget &lt;b&gt;vote&lt;/b&gt; &amp; what it means (Example News)</li>")
        )
        #expect(whole.standardOutput == parts.standardOutput)
    }

    @Test func templateInFeedsJSONIsReadRelativeToItsDirectoryAndTheOptionWins() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        let directory = workspace.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: workspace.url.appendingPathComponent("news.json"),
            to: directory.appendingPathComponent("news.json")
        )
        try workspace.write(
            "config/feeds.json",
            Self.config.replacingOccurrences(
                of: "\"title\": \"Template digest\",",
                with: """
                    "title": "Template digest", "template": "templates/title.mustache",
                    """
            )
        )
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("templates"),
            withIntermediateDirectories: true
        )
        try workspace.write("config/templates/title.mustache", "<h1>{{title}}</h1>\n")
        try workspace.write("other.mustache", "<p>{{itemCountText}}</p>\n")

        let configured = try TributaryProcess.run(["digest", "-c", "config/feeds.json", "-o", "-"], in: workspace.url)
        #expect(configured.status == 0, "\(configured.standardError)")
        #expect(configured.standardOutput == "<h1>Template digest</h1>\n")

        let overridden = try TributaryProcess.run(
            ["digest", "-c", "config/feeds.json", "--template", "other.mustache", "-o", "-"],
            in: workspace.url
        )
        #expect(overridden.status == 0, "\(overridden.standardError)")
        #expect(overridden.standardOutput == "<p>3 items</p>\n")

        // The template is for HTML: other formats ignore feeds.json's.
        let markdown = try TributaryProcess.run(
            ["digest", "-c", "config/feeds.json", "--format", "markdown", "-o", "-"],
            in: workspace.url
        )
        #expect(markdown.status == 0, "\(markdown.standardError)")
        #expect(markdown.standardOutput.contains("Harbour reopens after the storm"))
    }

    @Test func aBadTemplateIsNamedWithItsLineAndExitsTwoBeforeAnythingIsWritten() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write("feeds.json", Self.config)
        try workspace.write(
            "template.mustache",
            Self.listTemplate.replacingOccurrences(of: "<li>{{title}}", with: "<li>{{titel}}")
        )
        let result = try TributaryProcess.run(["digest", "--template", "template.mustache"], in: workspace.url)
        #expect(result.status == 2)
        #expect(
            result.standardError.hasPrefix(
                "template.mustache:5: unknown key 'titel'; did you mean 'title'? (known here: alsoIn, dateISO,"
            ),
            "\(result.standardError)"
        )
        #expect(!result.standardError.contains("news: ok"), "nothing is fetched")
        #expect(!workspace.exists("digest.html"))
    }

    @Test func aMissingTemplateOrOneForAnotherFormatIsBadUsage() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write("feeds.json", Self.config)
        let missing = try TributaryProcess.run(["digest", "--template", "nowhere.mustache"], in: workspace.url)
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("nowhere.mustache: no such file; check the path"))

        try workspace.write("t.mustache", "{{title}}")
        let markdown = try TributaryProcess.run(
            ["digest", "--template", "t.mustache", "--format", "markdown"],
            in: workspace.url
        )
        #expect(markdown.status == 2)
        #expect(markdown.standardError.contains("--template applies to the HTML digest"))
        #expect(!workspace.exists("digest.md"))
    }

    @Test func parsesTheTemplateOption() throws {
        let command = try TributaryCommand.parseAsRoot(["digest", "--template", "mine.mustache"])
        let digest = try #require(command as? DigestCommand)
        #expect(digest.template == "mine.mustache")
    }
}
