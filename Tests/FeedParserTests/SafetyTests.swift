import FeedParser
import Foundation
import Testing
import TributaryCore

@Suite struct SafetyTests {
    private func rss(_ body: String, prolog: String = "") -> [UInt8] {
        Array(
            "<?xml version=\"1.0\"?>\(prolog)<rss version=\"2.0\"><channel><title>T</title>\(body)</channel></rss>".utf8
        )
    }

    @Test func externalEntityLeaksNothingFromTheFileSystem() throws {
        let prolog =
            "<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file:///etc/passwd\"><!ENTITY % pe SYSTEM \"file:///etc/hostname\"> %pe;]>"
        let result = try FixtureSupport.parse(
            rss(
                "<item><title>a&xxe;b</title><description>&xxe;</description><link>https://e.com/1</link></item>",
                prolog: prolog
            )
        )
        let item = try #require(result.items.first)
        // The external entity is never declared, so its reference stays as text (like any undefined entity).
        #expect(item.title == "a&xxe;b")
        let json = String(decoding: try JSONEncoder().encode(result.items), as: UTF8.self)
        #expect(!json.contains("root:"))
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
        #expect(!json.contains(String(passwd.prefix(8))))
    }

    @Test func externalDTDIsNotLoaded() throws {
        let prolog = "<!DOCTYPE rss SYSTEM \"file:///etc/passwd\">"
        let result = try FixtureSupport.parse(rss("<item><title>&nbsp;x</title><guid>g</guid></item>", prolog: prolog))
        #expect(result.items.map(\.title) == ["x"])
    }

    @Test func billionLaughsEndsFastWithAnEntityLimitError() throws {
        var prolog = "<!DOCTYPE rss [<!ENTITY lol0 \"lollollollollollollollollollol\">"
        for level in 1...12 {
            let refs = String(repeating: "&lol\(level - 1);", count: 10)
            prolog += "<!ENTITY lol\(level) \"\(refs)\">"
        }
        prolog += "]>"
        let bytes = rss(
            "<item><title>first</title><guid>1</guid></item><item><title>&lol12;</title><guid>2</guid></item>",
            prolog: prolog
        )
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: FeedParseError(.entityLimit)) { _ = try FixtureSupport.parse(bytes) }
        #expect(clock.now - start < .seconds(5))
    }

    @Test func quadraticBlowupIsBounded() throws {
        let big = String(repeating: "x", count: 100_000)
        let refs = String(repeating: "&big;", count: 100_000)
        let prolog = "<!DOCTYPE rss [<!ENTITY big \"\(big)\">]>"
        let bytes = rss("<item><title>\(refs)</title><guid>2</guid></item>", prolog: prolog)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let result = try FixtureSupport.parse(bytes)
            #expect(result.items.allSatisfy { ($0.title?.utf8.count ?? 0) <= FeedParserOptions().maxTextBytes })
        } catch let error as FeedParseError {
            #expect(error == FeedParseError(.entityLimit))
        }
        #expect(clock.now - start < .seconds(10))
    }

    @Test func truncatedXHTMLNeverContainsUnescapedMarkupFromText() throws {
        let text = String(repeating: "&lt;script&gt;x&lt;/script&gt; ", count: 2000)
        let bytes = Array(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>1</id><title>t</title>            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>\(text)</p></div></content></entry></feed>
            """.utf8
        )
        let result = try FixtureSupport.parse(bytes, options: FeedParserOptions(sourceID: "s", maxTextBytes: 1000))
        let html = try #require(result.items.first?.contentHTML)
        #expect(html.utf8.count <= 1000)
        #expect(!html.contains("<script"))
        #expect(result.warnings.contains { $0.message.contains("truncated") })
    }

    @Test func deeplyNestedElementsDoNotOverflowTheStack() throws {
        let depth = 100_000
        let body =
            "<item><title>before</title><guid>1</guid></item><item><title>deep</title><guid>2</guid><description>"
            + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
            + "</description></item><item><title>after</title><guid>3</guid></item>"
        let result = try FixtureSupport.parse(rss(body), splitAt: [1000, 50_000, 300_000])
        #expect(result.items.first?.title == "before")
        #expect(!result.warnings.isEmpty)
    }

    @Test func hugeTextNodeIsTruncatedOrStoppedWithinTheBudget() throws {
        let huge = String(repeating: "0123456789", count: 5_000_000)  // 50 MB
        let bytes = rss(
            "<item><title>before</title><guid>1</guid></item><item><title>huge</title><guid>2</guid><description>"
                + huge + "</description></item><item><title>after</title><guid>3</guid></item>"
        )
        let options = FeedParserOptions(sourceID: "s", maxTextBytes: 1 << 20)
        let parser = try StreamingFeedParser(options: options)
        var items: [FeedItem] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 256 * 1024)
            items += try bytes[offset..<end].withUnsafeBytes { try parser.parse($0) }
            offset = end
        }
        items += try parser.finish()
        let warnings = parser.takeWarnings()
        #expect(items.first?.title == "before")
        #expect(items.allSatisfy { ($0.contentHTML?.utf8.count ?? 0) <= 1 << 20 })
        #expect(!warnings.isEmpty)
    }

    private static func attributeBomb(_ count: Int, root: Bool = false) -> [UInt8] {
        let attributes = (0..<count).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        if root {
            return Array(
                "<rss version=\"2.0\" \(attributes)><channel><title>T</title><item><title>First</title><guid>1</guid>"
                    .utf8
            ) + Array("</item></channel></rss>".utf8)
        }
        return Array(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><item \(attributes)><title>First</title>"
                .utf8
        ) + Array("<guid>1</guid></item><item><title>Second</title><guid>2</guid></item></channel></rss>".utf8)
    }

    @Test func aStartTagWithThousandsOfAttributesIsCutAndReadFast() throws {
        let bytes = Self.attributeBomb(300_000)
        let started = ContinuousClock.now
        for split in [[], [4_000, 4_001, 1_000_000, 1_000_007], Array(stride(from: 1, to: bytes.count, by: 65_536))] {
            let result = try FixtureSupport.parse(bytes, splitAt: split)
            #expect(result.items.map(\.title) == ["First", "Second"])
            #expect(result.warnings.map(\.message).contains { $0.contains("more than 1024 attributes") })
            #expect(result.warnings.count == 1, "\(result.warnings)")
        }
        // Unguarded, libxml2 took 21 s on this input (issue 21); cut, it is a few milliseconds of work.
        #expect(ContinuousClock.now - started < .seconds(10))
        let root = try FixtureSupport.parse(Self.attributeBomb(5_000, root: true))
        #expect(root.items.map(\.title) == ["First"])
        #expect(root.metadata?.format == .rss20)
    }

    @Test(arguments: ["UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"])
    func aWideDocumentGoesThroughTheSameGuards(encoding: String) throws {
        // The attribute flood and a NUL character, in UTF-16 or UTF-32 with a byte order mark: turned into UTF-8
        // first, the document meets the same start tag guard and NUL filter as any other.
        let text =
            String(decoding: Self.attributeBomb(300_000), as: UTF8.self)
            .replacingOccurrences(of: "<title>Second</title>", with: "<title>Sec\u{0}ond – 二</title>")
        let bom: [UInt8] =
            switch encoding {
            case "UTF-16LE": [0xFF, 0xFE]
            case "UTF-16BE": [0xFE, 0xFF]
            case "UTF-32LE": [0xFF, 0xFE, 0, 0]
            default: [0, 0, 0xFE, 0xFF]
            }
        let bytes = bom + Self.encode(text, as: encoding)
        let started = ContinuousClock.now
        for split in [[], [1, 3, 4_001, 1_000_000, 1_000_003], Array(stride(from: 1, to: bytes.count, by: 65_537))] {
            let result = try FixtureSupport.parse(bytes, splitAt: split)
            #expect(result.items.map(\.title) == ["First", "Second – 二"])
            #expect(result.warnings.map(\.message).contains { $0.contains("more than 1024 attributes") })
            #expect(result.warnings.map(\.message).contains { $0.contains("NUL") })
        }
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    private static func encode(_ text: String, as encoding: String) -> [UInt8] {
        var bytes: [UInt8] = []
        switch encoding {
        case "UTF-16LE", "UTF-16BE":
            for unit in text.utf16 {
                let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                bytes += encoding == "UTF-16LE" ? pair : pair.reversed()
            }
        default:
            for scalar in text.unicodeScalars {
                let value = scalar.value
                let quad = [
                    UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24),
                ]
                bytes += encoding == "UTF-32LE" ? quad : quad.reversed()
            }
        }
        return bytes
    }

    @Test func markupThatOnlyLooksLikeAttributesIsNeverCut() throws {
        // A comment, CDATA and a processing instruction with thousands of `=` and a stray `<` are not tags.
        let many = String(repeating: "x = y; ", count: 3_000)
        let xml =
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><!-- < \(many) -->"
            + "<item><title>Code</title><guid>1</guid><description><![CDATA[<pre>if a < b { \(many) }</pre>]]></description>"
            + "</item><?pi < \(many) ?><item><title>After</title><guid>2</guid><description>a &lt; \(many)</description></item>"
            + "</channel></rss>"
        let bytes = Array(xml.utf8)
        for split in [
            [], Array(stride(from: 1, to: bytes.count, by: 997)), Array(stride(from: 1, to: bytes.count, by: 2)),
        ] {
            let result = try FixtureSupport.parse(bytes, splitAt: split)
            #expect(result.items.map(\.title) == ["Code", "After"])
            #expect(result.items.first?.contentHTML?.contains(many) == true)
            #expect(result.warnings.isEmpty, "\(result.warnings)")
        }
    }
}
