import Foundation
import Testing
import TributaryCore

@testable import Renderers

@Suite struct HTMLTemplateTests {
    /// The error `text` is rejected with, as printed.
    private func rejection(of text: String, file: String = "mine.mustache") -> String? {
        do {
            _ = try HTMLTemplate(text: text, file: file)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func unknownKeyNamesTheFileTheLineTheKeyAndTheKnownKeys() throws {
        let text = """
            {{! a comment
                over two lines }}
            <h1>{{title}}</h1>
            {{#days}}
            <h2>{{heading}}</h2>
            {{#entries}}
            <p>{{titel}}</p>
            {{/entries}}
            {{/days}}
            """
        let message = try #require(rejection(of: text))
        #expect(message.hasPrefix("mine.mustache:7: unknown key 'titel'; did you mean 'title'? (known here: "))
        // The item's keys first, then the day's and the digest's that are not shadowed.
        #expect(message.contains("known here: alsoIn, dateISO, hasRelated, hasTags, href, id, isNew,"))
        #expect(message.contains("heading"))
        #expect(message.contains("generatedAt"))
    }

    @Test func keysAreResolvedInTheScopeOfTheirSection() throws {
        // Inside a day, its items' keys are not visible; inside an item, the day's and the digest's are.
        #expect(try #require(rejection(of: "{{#days}}{{publisher}}{{/days}}")).contains(":1: unknown key 'publisher'"))
        #expect(rejection(of: "{{#days}}{{#entries}}{{heading}} {{generatedAt}}{{/entries}}{{/days}}") == nil)
        #expect(
            try #require(rejection(of: "{{#sources}}{{heading}}{{/sources}}")).contains("unknown key 'heading'")
        )
        #expect(rejection(of: "{{#sources}}{{#warnings}}<li>{{.}}</li>{{/warnings}}{{/sources}}") == nil)
    }

    @Test func followsDelimiterChangesAndCountsTheirLines() throws {
        let text = "{{=<% %>=}}\n<% title %>\n<%#days%><% heding %><%/days%>"
        #expect(
            try #require(rejection(of: text)).hasPrefix(
                "mine.mustache:3: unknown key 'heding'; did you mean 'heading'?"
            )
        )
        #expect(rejection(of: "{{=<% %>=}}<% title %> {{not a tag}}") == nil)
    }

    @Test(arguments: [
        ("<p>{{{title}}}</p>", ":1: '{{{title}}}' would write text without HTML escaping"),
        ("\n{{& title}}", ":2: '{{&title}}' would write text without HTML escaping"),
        ("{{%CONTENT_TYPE:TEXT}}{{title}}", ":1: pragmas ('{{%CONTENT_TYPE:TEXT}}') are not allowed"),
        ("{{> header}}", ":1: partials and blocks ('{{>header}}') are not supported"),
        ("{{#days}}\n{{/entries}}", ":2: '{{/entries}}' closes '{{#days}}' from line 1; write {{/days}}"),
        ("\n\n{{#days}}", ":3: '{{#days}}' is never closed; add {{/days}}"),
        ("{{/days}}", ":1: '{{/days}}' closes a section that was never opened"),
        ("{{days}}", ":1: 'days' is a list; write {{#days}}...{{/days}}"),
        ("{{title.first}}", ":1: 'title.first': 'title' is text, which has no key 'first'"),
        ("{{shout(title)}}", ":1: unknown transform 'shout'"),
        ("<p>{{title</p>", ":1: the tag that starts here is never closed with '}}'"),
    ])
    func refusesWhatWouldBreakEscapingOrStructure(_ text: String, _ expected: String) throws {
        let message = try #require(rejection(of: text))
        #expect(message.hasPrefix("mine.mustache" + expected), "\(message)")
    }

    @Test func acceptsTransformsOnKnownKeys() throws {
        let template = try HTMLTemplate(text: "{{uppercased(title)}} {{#days}}{{count(entries)}}{{/days}}", file: "t")
        #expect(template.render(TestDigest.digest([TestDigest.entry(title: "x")], title: "Morning")) == "MORNING 1")
    }

    @Test func escapesEveryValueAndLinksOnlySafeURLs() throws {
        let hostile = "<script>alert('x')</script> & \"quoted\"\u{1B}[31m"
        let entry = TestDigest.entry(
            title: hostile,
            url: "javascript:alert(1)",
            publisher: hostile,
            summary: hostile,
            related: [.init(title: "r", url: "https://r.example/a b\"c")]
        )
        let template = try HTMLTemplate(
            text: """
                {{#days}}{{#entries}}<a href="{{href}}">{{title}}</a>|{{unlinkedURL}}|{{summary}}|\
                {{#related}}<a href="{{href}}" title="{{publisher}}">{{title}}</a>{{/related}}{{/entries}}{{/days}}
                """,
            file: "t"
        )
        let output = template.render(TestDigest.digest([entry]))
        let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"
        // No URL that is not http(s) or mailto becomes an href; the related link without a publisher does not
        // take the item's (a missing value is `false`, not looked up further out).
        #expect(
            output
                == "<a href=\"false\">\(escaped)</a>|javascript:alert(1)|\(escaped)|"
                + "<a href=\"https://r.example/a%20b%22c\" title=\"false\">r</a>"
        )
    }

    @Test func contextHoldsExactlyTheDocumentedKeys() throws {
        // The checker knows the keys the renderer really provides, at every level, and docs/templates.md names them.
        let context = try #require(HTMLTemplateContext.make(for: .sample).objectValue)
        #expect(Set(context.keys) == Set(HTMLTemplateContext.digestKeys.keys))
        let days = try #require(context["days"]?.objectsValue)
        let entries = try #require(days.first?["entries"]?.objectsValue)
        let related = try #require(entries.first?["related"]?.objectsValue)
        let sources = try #require(context["sources"]?.objectsValue)
        for day in days { #expect(Set(day.keys) == Set(HTMLTemplateContext.dayKeys.keys)) }
        for entry in entries { #expect(Set(entry.keys) == Set(HTMLTemplateContext.entryKeys.keys)) }
        for link in related { #expect(Set(link.keys) == Set(HTMLTemplateContext.relatedKeys.keys)) }
        for source in sources { #expect(Set(source.keys) == Set(HTMLTemplateContext.sourceKeys.keys)) }

        let documentation = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/templates.md"),
            encoding: .utf8
        )
        let allKeys = [
            HTMLTemplateContext.digestKeys, HTMLTemplateContext.dayKeys, HTMLTemplateContext.entryKeys,
            HTMLTemplateContext.relatedKeys, HTMLTemplateContext.sourceKeys,
        ].flatMap(\.keys)
        for key in allKeys {
            #expect(documentation.contains("`\(key)`"), "docs/templates.md does not document \(key)")
        }
    }

    @Test func theBuiltInTemplateIsShippedAndChecked() throws {
        let url = try #require(HTMLTemplate.builtInURL)
        let text = try String(contentsOf: url, encoding: .utf8)
        let template = try HTMLTemplate(text: text, file: "copy.mustache")
        #expect(template.render(.sample) == (try HTMLRenderer().render(.sample)))
        #expect(text.contains("{{#days}}"))
    }

    @Test func aUserTemplateReplacesTheBuiltInLook() throws {
        let template = try HTMLTemplate(
            text: "<ol>{{#days}}{{#entries}}<li>{{title}}</li>{{/entries}}{{/days}}</ol>\n",
            file: "t"
        )
        let output = try HTMLRenderer(template: template).render(TestDigest.digest([TestDigest.entry(title: "A & B")]))
        #expect(output == "<ol><li>A &amp; B</li></ol>\n")
    }

    @Test func readingAMissingTemplateNamesTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).mustache")
        #expect(throws: RenderError.self) { try HTMLTemplate(contentsOf: url, displayPath: "missing.mustache") }
        do {
            _ = try HTMLTemplate(contentsOf: url, displayPath: "missing.mustache")
        } catch {
            #expect(error.description.hasPrefix("missing.mustache: no such file; check the path"))
        }
    }
}
