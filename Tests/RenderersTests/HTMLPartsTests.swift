import Foundation
import Testing
import TributaryCore

@testable import Renderers

/// The HTML digest drawn a part at a time (as `tributary digest` draws it from the store, a batch of entries at a
/// time) writes exactly what its template writes drawn whole, for the built-in template and for users' templates;
/// a template that cannot be cut into parts is drawn whole.
@Suite struct HTMLPartsTests {
    /// `digest` drawn by `renderer` in parts, each day's entries `batchSize` at a time.
    private func drawnInParts(_ digest: Digest, with renderer: HTMLRenderer, batchSize: Int) throws -> String {
        let outline = digest.outline
        var drawing = try DigestDrawing(renderer.prepared(for: outline), outline: outline)
        for (index, day) in digest.days.enumerated() {
            var start = 0
            while start < day.entries.count {
                let end = min(start + batchSize, day.entries.count)
                try drawing.draw(Array(day.entries[start..<end]), inDay: index)
                start = end
            }
        }
        try drawing.finish()
        return String(decoding: drawing.output, as: UTF8.self)
    }

    /// Digests of every shape a page has: the sample (several days, new items, failed sources, related links),
    /// many days of many entries, one entry, none.
    private static var digests: [Digest] {
        let generatedAt = Date(timeIntervalSince1970: 1_795_327_200)
        var items: [FeedItem] = []
        for index in 0..<300 {
            let url = index % 7 == 0 ? "javascript:alert(\(index))" : "https://example.org/\(index)"
            let published = generatedAt.addingTimeInterval(-Double(index) * 1_500)
            var item = FeedItem(id: "item-\(index)", url: url, title: "Entry <\(index)> & more")
            item.datePublished = published
            if index % 5 == 0 { item.language = "ja" }
            items.append(item)
        }
        let many = DigestBuilder(title: "Many", timeZone: .gmt, generatedAt: generatedAt)
            .build(items: items, statuses: [])
        return [
            .sample, many, TestDigest.digest([TestDigest.entry(title: "Only one", isNew: true)]),
            TestDigest.digest([]),
        ]
    }

    @Test(arguments: [1, 2, 7, 512])
    func theBuiltInPageDrawnInPartsIsThePageDrawnWhole(batchSize: Int) throws {
        let renderer = HTMLRenderer()
        #expect(renderer.drawsInParts)
        for digest in Self.digests {
            let whole = try renderer.render(digest)
            #expect(whole.contains("</html>"))
            #expect(try drawnInParts(digest, with: renderer, batchSize: batchSize) == whole, "\(digest.title)")
        }
    }

    /// Templates that use what a part must carry from the whole: list positions of days and of entries, a second
    /// `{{#days}}` for navigation, keys of the digest and the day looked up from inside an entry, text around the
    /// sections on lines of their own and not, inverted sections.
    static let templatesWithParts = [
        "<ol>{{#days}}{{#entries}}<li>{{title}}</li>{{/entries}}{{/days}}</ol>\n",
        """
        <nav>{{#days}}<a href="#{{anchor}}">{{label}}</a>{{^last()}} | {{/last()}}{{/days}}</nav>
        {{#days}}
        {{#first()}}<p>newest day first</p>{{/first()}}
        <h2 id="{{anchor}}">{{heading}} ({{itemCount}}, day {{index()}})</h2>
          {{#entries}}
          <p class="{{#odd()}}odd{{/odd()}}{{#even()}}even{{/even()}}">{{index()}} {{title}} in {{heading}} of {{title}}{{#first()}} (first){{/first()}}{{#last()}} (last){{/last()}}{{#isNew}} new{{/isNew}}</p>
          {{#hasRelated}}{{#related}}<i>{{title}}{{#href}} {{href}}{{/href}}</i>{{/related}}{{/hasRelated}}
          {{/entries}}
        <hr>{{itemCountText}}
        {{/days}}
        {{^hasItems}}nothing{{/hasItems}}
        <footer>{{#sources}}{{title}}: {{state}}{{/sources}} {{generatedAt}}</footer>
        """,
        "{{=<% %>=}}<%#days%><%#entries%>[<%title%>]<%/entries%><%/days%><%={{ }}=%>{{title}}",
    ]

    @Test(arguments: templatesWithParts)
    func aUsersTemplateDrawnInPartsIsTheTemplateDrawnWhole(_ text: String) throws {
        let renderer = HTMLRenderer(template: try HTMLTemplate(text: text, file: "mine.mustache"))
        #expect(renderer.drawsInParts)
        for digest in Self.digests {
            let whole = try renderer.render(digest)
            for batchSize in [1, 3, 512] {
                #expect(try drawnInParts(digest, with: renderer, batchSize: batchSize) == whole, "\(digest.title)")
            }
        }
    }

    /// Templates whose output could depend on every entry at once: they are drawn whole.
    static let templatesWithoutParts = [
        // The days inside another section.
        "{{#hasItems}}{{#days}}{{#entries}}{{title}}{{/entries}}{{/days}}{{/hasItems}}",
        // The entries inside another section of the day.
        "{{#days}}{{#itemCount}}{{#entries}}{{title}}{{/entries}}{{/itemCount}}{{/days}}",
        // The entries twice.
        "{{#days}}{{#entries}}{{title}}{{/entries}}{{#entries}}{{id}}{{/entries}}{{/days}}",
        // The entries counted.
        "{{#days}}{{count(entries)}}{{#entries}}{{title}}{{/entries}}{{/days}}",
        // An object's members listed.
        "{{#days}}{{#entries}}{{#sorted(tags)}}{{.}}{{/sorted(tags)}}{{/entries}}{{/days}}",
    ]

    @Test(arguments: templatesWithoutParts)
    func aTemplateThatCannotBeCutIsDrawnWhole(_ text: String) throws {
        let renderer = HTMLRenderer(template: try HTMLTemplate(text: text, file: "mine.mustache"))
        #expect(!renderer.drawsInParts)
        #expect(try !renderer.render(.sample).isEmpty)
        let outline = Digest.sample.outline
        #expect(throws: RenderError.self) { try DigestDrawing(renderer.prepared(for: outline), outline: outline) }
    }
}
