import Foundation
import Mustache
import Testing
import TributaryCore

@testable import Renderers

extension TemplateData {
    /// The object's values, `nil` for anything else.
    var objectValue: [String: TemplateData]? {
        guard case .object(let object) = self else { return nil }
        return Dictionary(uniqueKeysWithValues: object.members.map { ($0.0.name, $0.1) })
    }

    /// The values of a list of objects, `nil` for anything else.
    var objectsValue: [[String: TemplateData]]? {
        guard case .list(let elements) = self else { return nil }
        return elements.compactMap(\.objectValue).count == elements.count ? elements.compactMap(\.objectValue) : nil
    }

    /// The same value as swift-mustache takes it: dictionaries, arrays, strings, integers and booleans (a list of
    /// strings as `[String]`, as the context used to hand it over).
    var swiftMustacheValue: Any {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag
        case .number(let number): number
        case .object(let object):
            Dictionary(uniqueKeysWithValues: object.members.map { ($0.0.name, $0.1.swiftMustacheValue) })
        case .position: false
        case .list(let elements):
            elements.allSatisfy({ if case .text = $0 { true } else { false } })
                ? elements.map { if case .text(let text) = $0 { text } else { "" } } as Any
                : elements.map(\.swiftMustacheValue) as Any
        }
    }
}

/// Tributary's Mustache engine against swift-mustache, the library it replaced: for the built-in template and for
/// every construct a digest template may use, both must write the same bytes.
@Suite struct MustacheEngineTests {
    static let context = TemplateData.object([
        "title": .text("Fish & <chips> \"quoted\" 'single'"),
        "empty": .text(""),
        "missing": .flag(false),
        "yes": .flag(true),
        "count": .number(0),
        "seven": .number(7),
        "tags": .list([.text("beta"), .text("alpha"), .text("gamma")]),
        "none": .list([]),
        "entries": .list([
            .object(["title": .text("One"), "href": .text("https://a.example/?a=1&b=2"), "isNew": .flag(true)]),
            .object(["title": .text("Two"), "href": .flag(false), "isNew": .flag(false)]),
            .object(["title": .text("Three"), "href": .text("https://c.example/"), "isNew": .flag(false)]),
        ]),
        "nested": .object(["inner": .object(["leaf": .text("deep")]), "name": .text("nested name")]),
    ])

    static let templates = [
        "Hello {{title}}!",
        "{{#yes}}shown{{/yes}}{{^yes}}hidden{{/yes}}{{#missing}}no{{/missing}}{{^missing}}yes{{/missing}}",
        "{{#entries}}[{{title}}|{{#href}}<a href=\"{{href}}\">{{/href}}{{^href}}none{{/href}}|{{count}}]{{/entries}}",
        "<ul>\n  {{#entries}}\n  <li>{{title}}</li>\n  {{/entries}}\n</ul>\n",
        "  {{! a standalone comment }}\nline {{! inline }} end\n   {{#yes}}   \n  indented\n  {{/yes}}\n",
        "{{#tags}}{{.}},{{/tags}} {{#none}}x{{/none}}{{^none}}empty list{{/none}}",
        "{{nested.inner.leaf}} {{#nested}}{{name}} {{title}} {{.name}}|{{.title}}{{/nested}} {{nested.absent.x}}",
        "{{uppercased(title)}} {{lowercased(title)}} {{capitalized(title)}} {{reversed(title)}} {{count(tags)}}",
        "{{#entries}}{{#first()}}first:{{/first()}}{{index()}}{{#last()}}:last{{/last()}}{{#even()}}e{{/even()}}{{/entries}}",
        "{{#sorted(tags)}}{{.}} {{/sorted(tags)}}{{#reversed(tags)}}{{.}} {{/reversed(tags)}}{{first(tags)}}",
        "{{#empty(none)}}no tags{{/empty(none)}}{{#equalzero(count)}}zero{{/equalzero(count)}}{{plusone(seven)}}",
        "{{minusone(seven)}} {{#odd(seven)}}odd{{/odd(seven)}} {{#empty(empty)}}blank{{/empty(empty)}}",
        "{{=<% %>=}}<% title %> {{title}}\n<%={{ }}=%>{{title}}",
        "{{#yes}}{{=| |=}}|title| |/yes|{{title}} {{=<% %>=}}<%#yes%><%title%><%/yes%>",
        "{{count}} {{seven}} {{yes}} {{missing}} {{nope}} [{{empty}}]",
        "line one\r\n  {{#yes}}\r\n  crlf\r\n  {{/yes}}\r\nend   ",
        "{{#title}}text section: {{.}} {{title}}{{/title}}{{#seven}}[{{.}}]{{/seven}}",
        "trailing whitespace    ",
        "  {{title}}  \n\t{{#entries}}\t{{title}}\t{{/entries}}\n",
        "{{#entries}}{{#isNew}}new {{/isNew}}{{#yes}}{{title}} {{/yes}}{{/entries}}",
        "{{ title }} {{#entries}}{{ title }}{{/entries}}",
    ]

    @Test(arguments: templates)
    func rendersWhatSwiftMustacheRenders(_ template: String) throws {
        let ours = try MustacheEngine(template).render(Self.context)
        let theirs = try MustacheTemplate(string: template).render(Self.context.swiftMustacheValue)
        #expect(ours == theirs)
    }

    @Test func theBuiltInTemplateRendersTheSampleDigestAsSwiftMustacheDid() throws {
        let url = try #require(HTMLTemplate.builtInURL)
        let text = try String(contentsOf: url, encoding: .utf8)
        let hostile = TestDigest.digest(
            TestDigest.hostileStrings.map { TestDigest.entry(title: $0, publisher: $0, summary: $0, tags: [$0]) },
            title: "<b>&"
        )
        for digest in [Digest.sample, TestDigest.digest([]), hostile] {
            let context = HTMLTemplateContext.make(for: digest)
            let ours = try MustacheEngine(text).render(context)
            let theirs = try MustacheTemplate(string: text).render(context.swiftMustacheValue)
            #expect(ours == theirs)
        }
    }

    @Test func unreadableTemplatesNameTheirLine() {
        for (template, line) in [
            ("a\n{{#open}}\nb", 3), ("a\nb {{/close}}", 2), ("{{#a}}{{/b}}", 1), ("x\n{{title", 2),
        ] {
            #expect(throws: MustacheEngine.ParseError.self) { try MustacheEngine(template) }
            do {
                _ = try MustacheEngine(template)
            } catch {
                #expect(error.line == line, "\(template)")
            }
        }
    }
}
