import FeedParser
import Foundation
import Testing
import TributaryCore

@Suite struct EncodingTests {
    static let latin = ("Café crème", "Über naïve façades – “quoted” €5", "Ça va? Señor Müller")
    static let japanese = ("日本語のフィード", "東京で初雪、平年より早く", "ソースはShift_JISかEUC-JPです")

    @Test(arguments: [
        ("encoding-windows-1252.xml", latin), ("encoding-shift-jis.xml", japanese), ("encoding-euc-jp.xml", japanese),
        ("encoding-utf-16le-bom.xml", japanese), ("encoding-utf-16be-bom.xml", latin),
        ("encoding-utf-8-bom.xml", japanese),
    ])
    func decodesEachEncoding(_ name: String, _ expected: (String, String, String)) throws {
        let result = try FixtureSupport.parseFixture(name)
        #expect(result.metadata?.title == expected.0)
        #expect(result.items.map(\.title) == [expected.1])
        #expect(result.items.first?.contentHTML == expected.2)
        #expect(result.warnings.isEmpty)
    }

    /// No encoding declared, no BOM, no charset, and the first KiB is ASCII: the sniffer must look at the first
    /// non-ASCII bytes, not read the document as UTF-8 and then (its first bad byte after ASCII) as windows-1252.
    @Test(arguments: [
        ("encoding-undeclared-shift-jis-ascii-first-kib.xml", "Shift_JIS"),
        ("encoding-undeclared-euc-jp-ascii-first-kib.xml", "EUC-JP"),
    ])
    func undeclaredJapaneseIsDetectedPastAnASCIIFirstKiB(_ name: String, _ encoding: String) throws {
        let bytes = try FixtureSupport.bytes(name)
        #expect(bytes.prefix(1024).allSatisfy { $0 < 0x80 })
        let result = try FixtureSupport.parse(bytes)
        #expect(result.items.map(\.title) == ["東京で初雪、平年より早く", "大阪の天気は晴れ"])
        #expect(result.items.first?.contentHTML == "ソースはShift_JISです。ひらがなとカタカナ。")
        #expect(result.warnings.contains { $0.message.contains("read as \(encoding)") })
        #expect(!result.warnings.contains { $0.message.contains("windows-1252") })
    }

    /// Japanese, Korean, Chinese and Thai labels read as the larger encodings browsers read them as (WHATWG
    /// Encoding): characters in those extensions were U+FFFD, and `gb_2312-80` failed the whole feed.
    @Test(
        arguments: [
            ("rss-euc-jp-nec-extensions.xml", "日本語 ①② Ⅲ ㈱ ⊿ №", "丸数字①と単位㍉"),
            ("rss-shift-jis-windows-31j.xml", "日本語 ①② Ⅲ ㈱ ⊿ № 髙", "丸数字①と単位㍉です"),
            ("rss-ms-kanji-label.xml", "日本語 ①", nil),
            ("rss-euc-kr-windows-949.xml", "똠방각하 햏 뷁 한국어", "똠 다음에 오는 글자들이 멀쩡한가"),
            ("rss-big5-hkscs.xml", "香港 𨋢 嘅 粵語", "呢度 嘅 字 正常嗎 繁體中文"),
            ("rss-tis-620-windows-874.xml", "ภาษาไทย “x”", nil),
            ("rss-gb-2312-80-label.xml", "中文 €", nil),
        ] as [(String, String, String?)]
    )
    func legacyLabelsAreReadAsBrowsersReadThem(_ name: String, _ title: String, _ content: String?) throws {
        let result = try FixtureSupport.parseFixture(name)
        #expect(result.items.map(\.title) == [title])
        #expect(result.items.first?.contentHTML == content)
        #expect(result.warnings.isEmpty)
    }

    /// Read as the Microsoft encodings for their NEC and IBM characters, Shift_JIS and EUC-JP keep JIS's mapping of
    /// the rest: `18:15〜18:30` keeps its wave dash (tdiary's feed in Plagger's samples), not a fullwidth tilde.
    @Test(
        arguments: [
            (
                "Shift_JIS",
                [
                    0x31, 0x38, 0x81, 0x60, 0x31, 0x39, 0x20, 0x81, 0x7C, 0x81, 0x61, 0x81, 0x91, 0x81, 0xCA, 0x20,
                    0x87, 0x40,
                ]
            ),
            (
                "EUC-JP",
                [
                    0x31, 0x38, 0xA1, 0xC1, 0x31, 0x39, 0x20, 0xA1, 0xDD, 0xA1, 0xC2, 0xA1, 0xF1, 0xA2, 0xCC, 0x20,
                    0xAD, 0xA1,
                ]
            ),
        ] as [(String, [UInt8])]
    )
    func japaneseKeepsJISMappings(_ encoding: String, _ title: [UInt8]) throws {
        let document =
            Array(
                "<?xml version=\"1.0\" encoding=\"\(encoding)\"?><rss version=\"2.0\"><channel><title>t</title><item><title>"
                    .utf8
            )
            + title + Array("</title></item></channel></rss>".utf8)
        let result = try FixtureSupport.parse(document)
        #expect(result.items.map(\.title) == ["18\u{301C}19 \u{2212}\u{2016}\u{A2}\u{AC} ①"])
        #expect(result.warnings.isEmpty)
    }

    /// A two-byte sequence that is not the encoding is one U+FFFD, and the characters after it are read in step.
    @Test func anInvalidPairIsOneReplacementCharacter() throws {
        let result = try FixtureSupport.parseFixture("rss-euc-jp-invalid-pair.xml")
        #expect(result.items.map(\.title) == ["前\u{FFFD}日本語のタイトルです"])
        #expect(result.warnings.count == 1)
    }

    @Test func undeclaredASCIIIsHeldBackOnlyUpTo64KiB() throws {
        // An ASCII-only undeclared document is held while the sniffer waits for non-ASCII bytes, but not forever.
        let parser = try StreamingFeedParser(options: FixtureSupport.options())
        var header = Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>A</title>".utf8)
        while header.count < 70_000 { header += Array("<item><title>x</title></item>\n".utf8) }
        let items = try parser.parse(header)
        #expect(!items.isEmpty)
        #expect(parser.metadata?.title == "A")
    }

    /// The feed header says which encoding the document was read in, as feedparser's `encoding` does.
    @Test(arguments: [
        ("encoding-windows-1252.xml", "windows-1252"), ("encoding-shift-jis.xml", "shift_jis"),
        ("encoding-euc-jp.xml", "euc-jp"), ("encoding-utf-16le-bom.xml", "utf-16le"),
        ("encoding-utf-16be-bom.xml", "utf-16be"), ("encoding-utf-8-bom.xml", "utf-8"),
        ("encoding-iso-8859-1.xml", "windows-1252"), ("encoding-utf-8-declared-iso-8859-1.xml", "utf-8"),
    ])
    func theEncodingReadIsReported(_ name: String, _ encoding: String) throws {
        let result = try FixtureSupport.parseFixture(name)
        #expect(result.metadata?.encoding == encoding)
        let header = try #require(result.metadata).makeJSONFeed().extensions["_tributary"]
        guard case .object(let members) = header else { Issue.record("no _tributary object"); return }
        #expect(members["encoding"] == .string(encoding))
    }

    /// `us-ascii` (quoted or not) is what servers send for `text/xml` by default; it must not stop a declared
    /// Latin-1 document from being read as windows-1252.
    @Test(arguments: ["us-ascii", "'us-ascii'", "\"US-ASCII\""])
    func aUSASCIIHTTPCharsetIsReadAsNoCharset(_ charset: String) throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><rss version=\"2.0\"><channel><title>".utf8)
        bytes += [0x93, 0x71, 0x94, 0x20, 0x80]  // “q” € in windows-1252
        bytes += Array("</title></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes, options: FixtureSupport.options(httpCharset: charset))
        #expect(result.metadata?.title == "“q” €")
        #expect(result.metadata?.encoding == "windows-1252")
        #expect(result.warnings.isEmpty)
    }

    /// A declared US-ASCII is windows-1252, as the WHATWG Encoding standard, browsers and feedparser read it: a `£`
    /// (0xA3) in a feed that says `us-ascii` (feedvalidator's `xml_declares_wrong_encoding`) was U+FFFD. UTF-8 under
    /// the same label is still read as UTF-8.
    @Test(arguments: ["us-ascii", "US-ASCII", "ascii", "ANSI_X3.4-1968", "iso646-us"])
    func aDeclaredUSASCIIIsReadAsWindows1252(_ label: String) throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"\(label)\"?><rss version=\"2.0\"><channel><title>".utf8)
        bytes += [0xA3, 0x20, 0x93, 0x78, 0x94]  // £ “x” in windows-1252
        bytes += Array("</title></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes)
        #expect(result.metadata?.title == "£ “x”")
        #expect(result.metadata?.encoding == "windows-1252")
        var utf8 = Array("<?xml version=\"1.0\" encoding=\"\(label)\"?><rss version=\"2.0\"><channel><title>".utf8)
        utf8 += Array("£ “x” ".utf8) + Array(repeating: 0x61, count: 8) + Array("</title></channel></rss>".utf8)
        #expect(try FixtureSupport.parse(utf8).metadata?.title == "£ “x” aaaaaaaa")
    }

    /// GB2312 is read as its superset GB18030, as browsers and feedparser do: 㐀 (U+3400) is not in GB2312.
    @Test(arguments: [nil, "gb2312", "'GB2312'"])
    func gb2312IsReadAsGB18030(_ charset: String?) throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"gb2312\"?><rss version=\"2.0\"><channel><title>".utf8)
        bytes += [0xD6, 0xD0, 0x81, 0x39, 0xEE, 0x39]  // 中 (in GB2312) and 㐀 (a four-byte GB18030 sequence)
        bytes += Array("</title></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes, options: FixtureSupport.options(httpCharset: charset))
        #expect(result.metadata?.title == "中\u{3400}")
        #expect(result.metadata?.encoding == "gb18030")
    }

    @Test func latin1IsDecoded() throws {
        let result = try FixtureSupport.parseFixture("encoding-iso-8859-1.xml")
        #expect(result.metadata?.title == "Café crème")
        #expect(result.items.map(\.title) == ["Über naïve façades"])
    }

    @Test func latin1DeclarationIsReadAsWindows1252LikeBrowsersDo() throws {
        // The bytes are windows-1252 (curly quotes, euro sign) but the declaration says ISO-8859-1.
        let result = try FixtureSupport.parseFixture("encoding-http-charset-contradicts-declaration.xml")
        #expect(result.items.map(\.title) == ["Über naïve façades – “quoted” €5"])
    }

    /// Old CMSs declare ISO-8859-1 on documents they write in UTF-8: read as declared, `Brøndby` becomes
    /// `BrÃ¸ndby`. Valid UTF-8 with multi-byte sequences is read as UTF-8 (the first non-ASCII bytes are past the
    /// first KiB here), with a warning that says what to fix.
    @Test func utf8DeclaredAsLatin1IsReadAsUTF8WithAWarning() throws {
        let result = try FixtureSupport.parseFixture("encoding-utf-8-declared-iso-8859-1.xml")
        #expect(result.items.map(\.title) == ["Brøndby – FC København 2–1", "Æblegrød på Østerbro"])
        #expect(result.warnings.map(\.location) == ["encoding"])
        #expect(result.warnings.first?.message.contains("'ISO-8859-1', but its bytes are UTF-8") == true)
    }

    /// UTF-8 declared as another encoding it is not (`us-ascii`, EUC-JP) is read as UTF-8 with a warning, as
    /// feedparser reads it (it tries the declared encoding, then UTF-8); libxml2 stopped at the first byte it could
    /// not decode and the feed lost its title and every item, with no error.
    @Test(arguments: [
        ("encoding-utf-8-declared-us-ascii.xml", "us-ascii"), ("encoding-utf-8-declared-euc-jp.xml", "EUC-JP"),
    ])
    func utf8DeclaredAsAnEncodingItIsNotIsReadAsUTF8(_ fixture: String, _ declared: String) throws {
        let result = try FixtureSupport.parseFixture(fixture)
        #expect(result.metadata?.title == Self.japanese.0)
        #expect(result.items.map(\.title) == [Self.japanese.1])
        #expect(result.items.first?.contentHTML == Self.japanese.2)
        #expect(
            result.warnings.map(\.message) == [
                "the document says its encoding is '\(declared)', but its bytes are UTF-8; it was read as UTF-8 "
                    + "(fix the encoding in the XML declaration or the server's Content-Type)"
            ]
        )
    }

    /// A byte that is not the document's encoding costs that byte, not the rest of the feed: libxml2 stopped there
    /// and every later item was lost, silently. windows-1252's five empty positions (a Latin-1 feed's 0x9D, the end
    /// of a doubly encoded `”`) are the C1 controls browsers read them as; a byte EUC-JP never uses is U+FFFD, with a
    /// warning.
    @Test func aByteThatIsNotTheEncodingCostsThatByteOnly() throws {
        let latin = try FixtureSupport.parseFixture("encoding-iso-8859-1-with-windows-1252-empty-positions.xml")
        #expect(latin.metadata?.title == "Café crème")
        #expect(latin.items.map(\.title) == ["Über naïve façades", "Broken \u{81}\u{9D} here", "“Quoted” €5"])
        #expect(latin.items.map(\.url) == ["https://example.com/1", "https://example.com/2", "https://example.com/3"])
        #expect(latin.warnings.isEmpty)
        let japanese = try FixtureSupport.parseFixture("encoding-euc-jp-with-bytes-that-are-not-euc-jp.xml")
        #expect(japanese.metadata?.title == "日本語のフィード")
        #expect(japanese.items.map(\.title) == ["東京で初雪", "Broken \u{FFFD}\u{FFFD} here", "大阪の天気は晴れ"])
        #expect(
            japanese.warnings.map(\.message) == [
                "the document is read as euc-jp but has bytes that are not euc-jp; they were replaced by U+FFFD and "
                    + "the rest was read (fix the feed's encoding declaration or its bytes)"
            ]
        )
    }

    @Test func utf8UnderALatin1HTTPCharsetIsReadAsUTF8() throws {
        let bytes = Array("<rss version=\"2.0\"><channel><item><title>Brøndby</title></item></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes, options: FixtureSupport.options(httpCharset: "latin1"))
        #expect(result.items.map(\.title) == ["Brøndby"])
        #expect(result.warnings.count == 1)
    }

    @Test func realLatin1UnderALatin1LabelStaysWindows1252() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"latin1\"?><rss version=\"2.0\"><channel><item><title>".utf8)
        bytes += [0x42, 0x72, 0xF8, 0x6E, 0x64, 0x62, 0x79, 0x20, 0x93, 0x71, 0x94]  // Brøndby “q” in windows-1252
        bytes += Array("</title></item></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes)
        #expect(result.items.map(\.title) == ["Brøndby “q”"])
        #expect(result.warnings.isEmpty)
    }

    @Test func httpCharsetWinsOverTheDeclarationWithAWarning() throws {
        let bytes = Array(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>Caf\u{E9}</title></channel></rss>"
                .data(using: .isoLatin1)!
        )
        let result = try FixtureSupport.parse(bytes, options: FixtureSupport.options(httpCharset: "ISO-8859-1"))
        #expect(result.metadata?.title == "Café")
        #expect(result.warnings.contains { $0.message.contains("contradicts the XML declaration") })
    }

    @Test func matchingHTTPCharsetGivesNoWarning() throws {
        let result = try FixtureSupport.parse(
            try FixtureSupport.bytes("encoding-shift-jis.xml"),
            options: FixtureSupport.options(httpCharset: "shift_jis")
        )
        #expect(result.items.map(\.title) == [Self.japanese.1])
        #expect(result.warnings.isEmpty)
    }

    @Test func byteOrderMarkWinsOverAContradictingHTTPCharset() throws {
        let result = try FixtureSupport.parse(
            try FixtureSupport.bytes("encoding-utf-16le-bom.xml"),
            options: FixtureSupport.options(httpCharset: "ISO-8859-1")
        )
        #expect(result.items.map(\.title) == [Self.japanese.1])
        #expect(result.warnings.contains { $0.message.contains("byte order mark") })
    }

    @Test func unknownHTTPCharsetIsIgnoredWithAWarning() throws {
        let result = try FixtureSupport.parse(
            try FixtureSupport.bytes("encoding-euc-jp.xml"),
            options: FixtureSupport.options(httpCharset: "x-no-such-charset")
        )
        #expect(result.items.map(\.title) == [Self.japanese.1])
        #expect(result.warnings.contains { $0.message.contains("unknown") })
    }

    @Test func encodingOverrideWinsOverEverything() throws {
        // Shift_JIS bytes that claim to be UTF-8.
        var bytes = try FixtureSupport.bytes("encoding-shift-jis.xml")
        let declaration = Array("Shift_JIS".utf8)
        if let range = bytes.firstRange(of: declaration) { bytes.replaceSubrange(range, with: Array("UTF-8".utf8)) }
        let options = FeedParserOptions(sourceID: "s", encodingOverride: "Shift_JIS")
        let result = try FixtureSupport.parse(bytes, options: options)
        #expect(result.items.map(\.title) == [Self.japanese.1])
    }

    @Test func unknownEncodingOverrideIsRejected() {
        #expect(throws: FeedParseError(.unsupportedEncoding("x-klingon"))) {
            _ = try StreamingFeedParser(options: FeedParserOptions(sourceID: "s", encodingOverride: "x-klingon"))
        }
    }

    private static let wideDocument =
        "<rss version=\"2.0\"><channel><title>日本語のタイトル</title><item><title>記事</title><guid>1</guid></item>"
        + "</channel></rss>"

    private static func encoded(_ text: String, _ encoding: String.Encoding) throws -> [UInt8] {
        try #require(text.data(using: encoding).map { Array($0) })
    }

    @Test(arguments: [
        ("UTF-32LE with a byte order mark", [0xFF, 0xFE, 0x00, 0x00] as [UInt8], String.Encoding.utf32LittleEndian),
        ("UTF-32BE with a byte order mark", [0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian),
        ("UTF-32LE without one", [], .utf32LittleEndian),
        ("UTF-32BE without one", [], .utf32BigEndian),
        ("UTF-16LE without one", [], .utf16LittleEndian),
        ("UTF-16BE without one", [], .utf16BigEndian),
    ])
    func wideEncodingsAreToldByTheirZeroBytes(_ name: String, _ bom: [UInt8], _ encoding: String.Encoding) throws {
        let bytes = try bom + Self.encoded(Self.wideDocument, encoding)
        for split in [[], [1], [3, 7]] {
            let result = try FixtureSupport.parse(bytes, splitAt: split)
            #expect(result.metadata?.title == "日本語のタイトル", "\(name)")
            #expect(result.items.map(\.title) == ["記事"], "\(name)")
            #expect(result.warnings.isEmpty, "\(name): \(result.warnings)")
        }
    }

    @Test func aNULByteIsDroppedAndTheParseGoesOn() throws {
        let bytes =
            Array(
                "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><item><title>A\u{0}B</title>".utf8
            ) + Array("<guid>1</guid></item><item><title>Second</title><guid>2</guid></item></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes)
        #expect(result.items.map(\.title) == ["AB", "Second"])
        #expect(
            result.warnings.map(\.message) == [
                "the document holds NUL bytes, which XML does not allow; they were dropped"
            ]
        )
    }

    @Test func aUTF7HTTPCharsetIsIgnoredWithAWarning() throws {
        let bytes = Array("<rss version=\"2.0\"><channel><title>+ADw-b+AD4-x</title></channel></rss>".utf8)
        let result = try FixtureSupport.parse(bytes, options: FixtureSupport.options(httpCharset: "utf-7"))
        #expect(result.metadata?.title == "+ADw-b+AD4-x")
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.contains("'utf-7' is not ASCII-compatible") == true)
    }

    /// An EBCDIC document (IBM500 here, declaration and all) is read in the code page it declares, through the same
    /// guards as any other; a code page named by its number (`437`, not an XML encoding name) is read too, without
    /// a warning, and keeps every item.
    @Test(arguments: ["encoding-ebcdic-cp500.xml", "encoding-code-page-437-by-number.xml"])
    func ebcdicAndNumberedCodePagesAreRead(_ fixture: String) throws {
        let result = try FixtureSupport.parseFixture(fixture)
        #expect(result.metadata?.title == "Café crème")
        #expect(result.items.map(\.title) == ["Über naïve façades"])
        #expect(result.items.first?.url == "https://example.com/1")
        #expect(result.warnings.isEmpty)
    }

    /// A declared encoding nobody can read loses nothing: the document is read as UTF-8 with a warning that names
    /// the label, instead of failing the whole feed; a Mac label iconv spells differently is read under its name.
    @Test func anUnknownDeclaredEncodingIsReadAsUTF8WithAWarning() throws {
        let unknown = try FixtureSupport.parse(
            Array("<?xml version=\"1.0\" encoding=\"x-no-such-charset\"?><rss><channel><title>Café</title>".utf8)
                + Array("<item><title>Ça</title></item></channel></rss>".utf8)
        )
        #expect(unknown.metadata?.title == "Café")
        #expect(unknown.items.map(\.title) == ["Ça"])
        #expect(
            unknown.warnings.map(\.message).contains {
                $0.contains("'x-no-such-charset' is not one Tributary can read")
            }
        )
        // é in MacCentralEurope is 0x8E.
        let mac = try FixtureSupport.parse(
            Array("<?xml version=\"1.0\" encoding=\"maclatin2\"?><rss><channel><title>Caf".utf8) + [0x8E]
                + Array("</title></channel></rss>".utf8)
        )
        #expect(mac.metadata?.title == "Café")
        #expect(mac.warnings.isEmpty)
    }
}
