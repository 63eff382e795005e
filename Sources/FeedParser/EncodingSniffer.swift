import CLibXML2
import Foundation
import TributaryCore

/// Chooses the character encoding libxml2 is told to use, before the first byte is parsed.
///
/// The rule (after feedparser and RFC 7303), in order:
/// 1. ``FeedParserOptions/encodingOverride`` wins over everything (a byte order mark is then skipped).
/// 2. A byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins over the HTTP charset and the declaration; an HTTP charset
///    that contradicts it is reported as a warning.
/// 3. A document stated (by the HTTP charset or its declaration) in an encoding other than UTF-8 whose bytes are
///    UTF-8 and not that encoding is read as UTF-8, with a warning (``utf8Misdeclared(_:stated:)``).
/// 4. An HTTP charset that libxml2 knows wins over the XML declaration, and a contradiction is reported as a
///    warning. `us-ascii` is the exception: it is the default servers send for `text/xml` and is almost always
///    wrong, so it never overrides a declaration.
/// 5. Otherwise libxml2 reads the XML declaration itself, except that a declared ISO-8859-1 is read as
///    windows-1252, as browsers do.
/// 6. With no BOM, no declaration and no HTTP charset the document is UTF-8, unless its non-ASCII bytes are not
///    valid UTF-8 and fit Shift_JIS or EUC-JP (``detectJapanese(_:)``, as feedparser's chardet does): then that
///    encoding is used, with a warning. The bytes judged are those from the first non-ASCII byte on (up to 4 KiB):
///    ``StreamingFeedParser`` holds an undeclared document that starts in ASCII until it has seen a KiB of them (or
///    64 KiB in all), since a Japanese feed's first KiB is often ASCII markup.
///
/// A document read as UTF-8 (``readsUTF8(encoding:prefix:)``) is still repaired byte by byte where it is not
/// valid UTF-8; see ``UTF8Sanitizer``.
enum EncodingSniffer {
    /// The encoding to force (`nil`: let libxml2 decide), how many leading bytes to skip, and warnings.
    static func choose(
        prefix: [UInt8],
        httpCharset: String?,
        override: String?
    ) -> (encoding: String?, skip: Int, warnings: [SourceWarning]) {
        let bom = byteOrderMark(prefix)
        if let override { return (override, bom?.length ?? 0, []) }
        // UTF-32 (libxml2 does not find it on its own) and UTF-16 without a byte order mark (which the Japanese
        // detection would otherwise misread) are told by where the zero bytes of the first `<` fall.
        if let bom, bom.name.hasPrefix("UTF-32") { return (bom.name, bom.length, []) }
        // EBCDIC (XML 1.0 appendix F: `<?xm` as 4C 6F A7 94) names its code page in its own declaration.
        if bom == nil, isEBCDIC(prefix) { return (ebcdicEncoding(prefix), 0, []) }
        if bom == nil, let wide = undeclaredWide(prefix) { return (wide, 0, []) }
        var warnings: [SourceWarning] = []
        var httpCharset = httpCharset
        if let http = cleaned(httpCharset), !isASCIICompatible(http), bom == nil || normalized(http).hasPrefix("utf7") {
            // UTF-7 (and the like) can spell markup in letters (`+ADw-script+AD4-`): a feed never needs it.
            let message =
                "the HTTP charset '\(http)' is not ASCII-compatible and can hide markup in plain letters; ignored "
                + "(fix the server's Content-Type)"
            warnings.append(SourceWarning(message, location: "encoding"))
            httpCharset = nil
        }
        let choice = chooseASCIICompatible(prefix: prefix, bom: bom, httpCharset: httpCharset)
        return (choice.encoding, choice.skip, warnings + choice.warnings)
    }

    /// ``choose(prefix:httpCharset:override:)`` once wide encodings and unsafe HTTP charsets are dealt with.
    private static func chooseASCIICompatible(
        prefix: [UInt8],
        bom: (name: String, length: Int)?,
        httpCharset: String?
    ) -> (encoding: String?, skip: Int, warnings: [SourceWarning]) {
        let declared = declaredEncoding(prefix)
        let sent = meaningful(httpCharset)
        if bom == nil, let stated = sent ?? declared, let warning = utf8Misdeclared(prefix, stated: stated) {
            return ("UTF-8", 0, [warning])
        }
        if bom == nil, sent == nil, let declared, isWide(declared), !prefix.prefix(1024).contains(0) {
            // Its declaration was read one byte a character, so the document is not in the wide encoding it names:
            // libxml2 would switch to it in the middle of the declaration and fail on the first line.
            let message =
                "the document says its encoding is '\(declared)', but it has no byte order mark and its bytes are "
                + "one byte a character; it was read as UTF-8 (fix the encoding in the XML declaration)"
            return ("UTF-8", 0, [SourceWarning(message, location: "encoding")])
        }
        guard let http = sent else {
            // As browsers do (WHATWG Encoding), ISO-8859-1 and its other labels are read as the superset
            // windows-1252: feeds that say Latin-1 routinely contain curly quotes and euro signs in 0x80-0x9F. First:
            // `gb_2312-80` is also iconv's name of the bare character set, which is not the feed's EUC encoding.
            if bom == nil, let declared, let superset = browserSuperset(of: declared) { return (superset, 0, []) }
            if bom == nil, let declared, let choice = unreadableDeclaration(declared, prefix: prefix) { return choice }
            if bom == nil, declared == nil, let japanese = undeclaredJapanese(prefix) {
                let message =
                    "the document declares no encoding and is not UTF-8; its bytes look like \(japanese), "
                    + "so it was read as \(japanese) (declare the encoding in the XML declaration)"
                return (browserSuperset(of: japanese) ?? japanese, 0, [SourceWarning(message, location: "encoding")])
            }
            return (nil, 0, [])
        }
        if let bom {
            if normalized(http) != normalized(bom.name), !(normalized(http) == "utf16" && bom.name.hasPrefix("UTF-16"))
            {
                let message = "the HTTP charset '\(http)' contradicts the byte order mark (\(bom.name)); using the BOM"
                return (nil, 0, [SourceWarning(message, location: "encoding")])
            }
            return (nil, 0, [])
        }
        guard isKnown(http) else {
            let message = "the HTTP charset '\(http)' is unknown; using \(declared ?? "UTF-8") instead"
            let warning = SourceWarning(message, location: "encoding")
            if let declared, let choice = unreadableDeclaration(declared, prefix: prefix) {
                return (choice.encoding, choice.skip, [warning] + choice.warnings)
            }
            return (nil, 0, [warning])
        }
        if let declared {
            if normalized(declared) != normalized(http) {
                let message =
                    "the HTTP charset '\(http)' contradicts the XML declaration (encoding=\"\(declared)\"); "
                    + "using '\(http)' as RFC 7303 says; fix the server's Content-Type or the declaration"
                return (browserSuperset(of: http) ?? http, 0, [SourceWarning(message, location: "encoding")])
            }
            return (browserSuperset(of: http), 0, [])
        }
        if normalized(http) == "utf8" { return (nil, 0, []) }
        return (browserSuperset(of: http) ?? http, 0, [])
    }

    /// The legacy encoding (neither UTF-8 nor a wide one) the document is read in given the encoding chosen by
    /// ``choose(prefix:httpCharset:override:)``: the one forced, else the declared one; `nil` for UTF-8 and wide
    /// documents, which ``LegacyTranscoder`` does not read.
    static func legacyEncoding(forced: String?, prefix: [UInt8]) -> String? {
        let name: String?
        if let forced {
            name = forced
        } else if byteOrderMark(prefix) == nil, undeclaredWide(prefix) == nil {
            name = declaredEncoding(prefix)
        } else {
            name = nil
        }
        guard let name, normalized(name) != "utf8", isASCIICompatible(name) || isEBCDIC(prefix) else { return nil }
        return name
    }

    /// Whether the document will be read as UTF-8 given the encoding chosen by ``choose(prefix:httpCharset:override:)``:
    /// a forced UTF-8, or none forced and neither a UTF-16 BOM nor a declaration of another encoding.
    static func readsUTF8(encoding: String?, prefix: [UInt8]) -> Bool {
        if let encoding { return normalized(encoding) == "utf8" }
        if let bom = byteOrderMark(prefix), bom.name != "UTF-8" { return false }
        guard let declared = declaredEncoding(prefix) else {
            return prefix.count < 2 || (prefix[0] != 0 && prefix[1] != 0)
        }
        return normalized(declared) == "utf8"
    }

    /// Shift_JIS or EUC-JP when the non-ASCII bytes of an undeclared document (up to 4 KiB from the first of them)
    /// are not UTF-8 but are one of them.
    static func undeclaredJapanese(_ prefix: [UInt8]) -> String? {
        guard let first = prefix.firstIndex(where: { $0 >= 0x80 }) else { return nil }
        let sample = prefix[first...].prefix(4096)
        let valid = sample.withUnsafeBufferPointer { UTF8Sanitizer.isValid($0) }
        return valid ? nil : detectJapanese(sample)
    }

    /// Whether `label` names windows-1252 in the WHATWG Encoding standard (ISO-8859-1 and its aliases included),
    /// the labels old CMSs declare on documents that are really UTF-8.
    /// US-ASCII's labels (normalized), which the WHATWG Encoding standard reads as windows-1252: a feed that says
    /// `us-ascii` and holds a `£` (0xA3) means windows-1252's, as browsers and feedparser read it.
    private static let usASCIILabels: Set<String> = ["usascii", "ascii", "ansix3.41968", "iso646us", "csascii", "us"]

    /// The labels read as windows-1252 (normalized; ``normalized(_:)`` gives Latin-1's other names as `iso88591`).
    private static let windows1252Labels = usASCIILabels.union(["iso88591", "windows1252", "cp1252", "xcp1252"])

    static func isWindows1252Label(_ label: String) -> Bool {
        windows1252Labels.contains(normalized(label))
    }

    /// Whether the document's stated encoding is one its bytes may contradict (no override, no byte order mark, an
    /// ASCII-compatible encoding other than UTF-8): the parser then holds the prefix until it has seen non-ASCII
    /// bytes to judge (``utf8Misdeclared(_:stated:)``).
    static func mayBeMisdeclaredUTF8(_ prefix: [UInt8], httpCharset: String?, override: String?) -> Bool {
        guard override == nil, byteOrderMark(prefix) == nil,
            let stated = meaningful(httpCharset) ?? declaredEncoding(prefix)
        else { return false }
        return normalized(stated) != "utf8" && isASCIICompatible(stated)
    }

    /// A warning when a document stated in another encoding is really UTF-8, `nil` otherwise. Its non-ASCII bytes
    /// (up to 4 KiB from the first of them) must be valid UTF-8 with a multi-byte sequence, and:
    /// - stated as ISO-8859-1 or windows-1252, that is enough: Latin-1 text practically never forms such sequences
    ///   (`BrÃ¸ndby` is what reading it as Latin-1 gives), and browsers' superset would read anything;
    /// - stated as any other encoding (`us-ascii`, EUC-JP, Shift_JIS, Big5, EUC-KR...), the bytes must also not be
    ///   that encoding, as feedparser tries the stated encoding, then UTF-8. libxml2 stops at the first byte its
    ///   decoder refuses, and a UTF-8 feed declared `us-ascii` or EUC-JP lost every item.
    static func utf8Misdeclared(_ prefix: [UInt8], stated: String) -> SourceWarning? {
        guard normalized(stated) != "utf8", isASCIICompatible(stated) else { return nil }
        guard let first = prefix.firstIndex(where: { $0 >= 0x80 }) else { return nil }
        var sample = prefix[first...].prefix(4096)
        // A sequence cut off by the end of the sample is not an error.
        var back = sample.endIndex
        while back > sample.startIndex, sample.endIndex - back < 4, sample[back - 1] & 0xC0 == 0x80 { back -= 1 }
        if back > sample.startIndex, sample[back - 1] >= 0xC0 {
            let lead = sample[back - 1]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            if sample.endIndex - (back - 1) < length { sample = sample[..<(back - 1)] }
        }
        guard !sample.isEmpty, sample.withUnsafeBufferPointer({ UTF8Sanitizer.isValid($0) }) else { return nil }
        if !isWindows1252Label(stated) {
            let decoder = browserSuperset(of: stated) ?? stated
            guard isKnown(decoder), !LegacyTranscoder.reads(Array(sample), as: decoder) else { return nil }
        }
        let message =
            "the document says its encoding is '\(stated)', but its bytes are UTF-8; it was read as UTF-8 "
            + "(fix the encoding in the XML declaration or the server's Content-Type)"
        return SourceWarning(message, location: "encoding")
    }

    /// Whether the prefix states its encoding itself: a byte order mark or an encoding in the XML declaration.
    static func statesEncoding(_ prefix: [UInt8]) -> Bool {
        byteOrderMark(prefix) != nil || declaredEncoding(prefix) != nil
    }

    /// Tells Shift_JIS from EUC-JP by which of them the bytes are valid in (a sequence cut off at the end is not an
    /// error); when both fit, by the lead bytes of kana, the most frequent Japanese characters (hiragana and katakana
    /// lead with 0x82/0x83 in Shift_JIS and 0xA4/0xA5 in EUC-JP). `nil` when neither fits or no kana decides.
    static func detectJapanese(_ sample: ArraySlice<UInt8>) -> String? {
        let bytes = Array(sample)
        var shiftJISErrors = 0
        var shiftJISKana = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 || (0xA1...0xDF).contains(byte) {  // ASCII, half-width katakana
                index += 1
            } else if (0x81...0x9F).contains(byte) || (0xE0...0xFC).contains(byte) {
                guard index + 1 < bytes.count else { break }
                let trail = bytes[index + 1]
                if (0x40...0x7E).contains(trail) || (0x80...0xFC).contains(trail) {
                    if byte == 0x82 || byte == 0x83 { shiftJISKana += 1 }
                } else {
                    shiftJISErrors += 1
                }
                index += 2
            } else {
                shiftJISErrors += 1
                index += 1
            }
        }
        var eucErrors = 0
        var eucKana = 0
        index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte == 0x8F ? 3 : 2
            guard index + length <= bytes.count else { break }
            if byte == 0x8E {
                if !(0xA1...0xDF).contains(bytes[index + 1]) { eucErrors += 1 }
            } else if byte >= 0x80 {
                let valid =
                    (byte == 0x8F || (0xA1...0xFE).contains(byte))
                    && bytes[(index + 1)..<(index + length)].allSatisfy { (0xA1...0xFE).contains($0) }
                if !valid { eucErrors += 1 } else if byte == 0xA4 || byte == 0xA5 { eucKana += 1 }
            }
            index += length
        }
        switch (shiftJISErrors == 0, eucErrors == 0) {
        case (true, false): return "Shift_JIS"
        case (false, true): return "EUC-JP"
        case (true, true) where shiftJISKana != eucKana: return shiftJISKana > eucKana ? "Shift_JIS" : "EUC-JP"
        default: return nil
        }
    }

    /// The name of the encoding a document is read in, once ``choose(prefix:httpCharset:override:)`` forced
    /// `forced` (or nothing): that, else the byte order mark's, else the declared one libxml2 knows, else UTF-8.
    /// Lower case with hyphens, the way feedparser reports it (`utf-8`, `utf-16le`, `windows-1252`, `shift_jis`);
    /// `wide` is the byte order a UTF-16 or UTF-32 document was found to have, which wins.
    static func readName(forced: String?, wide: WideTextTranscoder.Form?, prefix: [UInt8]) -> String {
        if let wide {
            switch wide {
            case .utf16LE: return "utf-16le"
            case .utf16BE: return "utf-16be"
            case .utf32LE: return "utf-32le"
            case .utf32BE: return "utf-32be"
            }
        }
        let name =
            forced ?? byteOrderMark(prefix)?.name ?? declaredEncoding(prefix).flatMap { isKnown($0) ? $0 : nil }
            ?? "UTF-8"
        let compact = normalized(name)
        // The larger encodings a label is read as (``browserSuperset(of:)``) go by the label's name, as WHATWG
        // names its decoders and feedparser reports them.
        if let superset = browserSupersets.first(where: { normalized($0.superset) == compact }) { return superset.name }
        switch compact {
        case "utf8": return "utf-8"
        case "shiftjis": return "shift_jis"
        case "eucjp": return "euc-jp"
        case "windows1252": return "windows-1252"
        case "iso88591": return "iso-8859-1"
        default: return name.lowercased().replacingOccurrences(of: "_", with: "-")
        }
    }

    /// The encoding browsers decode a label as when it names a subset of it (WHATWG Encoding): ISO-8859-1 is read
    /// as windows-1252 (curly quotes and euro signs in 0x80-0x9F), GB2312 and GBK as GB18030 (as feedparser does
    /// too), Shift_JIS as Windows-31J and EUC-JP with Microsoft's rows (NEC's circled numbers, `①`, `㈱`, `№`, common
    /// in Japanese feeds), EUC-KR as Windows-949 (`똠`), Big5 as Big5-HKSCS (`嘅`), TIS-620 as windows-874 (curly
    /// quotes); `nil` for any other label, or when iconv has no such encoding.
    static func browserSuperset(of label: String) -> String? {
        let compact = normalized(label)
        if compact == "iso88591" || usASCIILabels.contains(compact) { return "windows-1252" }
        guard let superset = browserSupersets.first(where: { $0.labels.contains(compact) })?.superset else {
            return nil
        }
        return isKnown(superset) ? superset : nil
    }

    /// The CJK and Thai labels (``normalized(_:)``) that browsers read as a larger encoding, that encoding (as iconv
    /// names it), and the name a document read in it goes by (the label's, as WHATWG names its decoder).
    private static let browserSupersets: [(labels: Set<String>, superset: String, name: String)] = [
        (
            [
                "gb2312", "gbk", "xgbk", "csgb2312", "chinese", "cp936", "windows936", "gb231280", "csiso58gb231280",
                "isoir58",
            ],
            "GB18030", "gb18030"
        ),
        (["shiftjis", "ms932", "windows31j"], "WINDOWS-31J", "shift_jis"),
        (["eucjp", "cseucpkdfmtjapanese"], "EUC-JP-MS", "euc-jp"),
        (
            [
                "euckr", "cseuckr", "csksc56011987", "isoir149", "korean", "ksc56011987", "ksc56011989", "ksc5601",
                "windows949",
            ],
            "CP949", "euc-kr"
        ),
        (["big5", "cnbig5", "csbig5", "xxbig5"], "BIG5-HKSCS", "big5"),
        (["tis620", "iso885911", "dos874", "windows874"], "CP874", "windows-874"),
    ]

    /// What to do with a declared encoding libxml2 cannot read as written, `nil` when it can:
    /// - a code page named by its number (`437`, `850`, `866`: not an XML encoding name, which starts with a
    ///   letter, so libxml2 stops reading the declaration there) is forced as `CP437`..., the declaration skipped;
    /// - a name iconv knows by another spelling (`maclatin2` is `MAC-CENTRALEUROPE`) is forced under that one;
    /// - any other unknown name is read as UTF-8 (invalid bytes repaired as windows-1252) with a warning, instead of
    ///   losing the whole feed.
    static func unreadableDeclaration(
        _ declared: String,
        prefix: [UInt8]
    ) -> (encoding: String?, skip: Int, warnings: [SourceWarning])? {
        if let first = declared.unicodeScalars.first, ("0"..."9").contains(first), isKnown("CP" + declared),
            let end = firstIndex(of: Array("?>".utf8), in: prefix.prefix(1024))
        {
            return ("CP" + declared, end + 2, [])
        }
        guard !isKnown(declared) else { return nil }
        if let alias = iconvAliases[normalized(declared)], isKnown(alias) { return (alias, 0, []) }
        let message =
            "the declared encoding '\(declared)' is not one Tributary can read; read as UTF-8 (bytes that are not "
            + "UTF-8 as windows-1252); declare the real encoding in the feed"
        return ("UTF-8", 0, [SourceWarning(message, location: "encoding")])
    }

    /// Encodings feeds name under labels iconv does not know, by their normalized label.
    private static let iconvAliases: [String: String] = [
        "maclatin2": "MAC-CENTRALEUROPE", "maccentraleurope": "MAC-CENTRALEUROPE", "xmacce": "MAC-CENTRALEUROPE",
        "maciceland": "MAC-IS", "macroman": "MACINTOSH", "xmacroman": "MACINTOSH", "maccyrillic": "MAC-CYRILLIC",
        "xmaccyrillic": "MAC-CYRILLIC", "macukraine": "MACUKRAINIAN",
    ]

    /// Whether the document starts with `<?xm` in EBCDIC (XML 1.0 appendix F).
    static func isEBCDIC(_ prefix: [UInt8]) -> Bool {
        prefix.starts(with: [0x4C, 0x6F, 0xA7, 0x94])
    }

    /// The code page an EBCDIC document declares, read through IBM037 (whose letters, digits and punctuation of
    /// a declaration every EBCDIC code page shares), as iconv names it; IBM037 when it names none iconv reads.
    static func ebcdicEncoding(_ prefix: [UInt8]) -> String {
        guard let ibm037 = LegacyTranscoder(encoding: "IBM037"),
            let declared = declaredEncoding(ibm037.utf8(prefix.prefix(256)))
        else { return "IBM037" }
        let candidates = [declared, declared.replacingOccurrences(of: "_", with: "-")]
        return candidates.first { LegacyTranscoder(encoding: $0) != nil } ?? "IBM037"
    }

    /// Whether libxml2 (through iconv) can decode an encoding.
    static func isKnown(_ name: String) -> Bool {
        guard let handler = xmlFindCharEncodingHandler(name) else { return false }
        xmlCharEncCloseFunc(handler)
        return true
    }

    /// The encoding named in the XML declaration, read from an ASCII-compatible or UTF-16 prefix.
    static func declaredEncoding(_ prefix: [UInt8]) -> String? {
        var bytes = prefix.prefix(1024)
        if bytes.count >= 4, bytes[bytes.startIndex + 1] == 0 || bytes[bytes.startIndex] == 0 {
            bytes = ArraySlice(bytes.filter { $0 != 0 })
        }
        let bomLength = byteOrderMark(Array(bytes))?.length ?? 0
        let text = Array(bytes.dropFirst(bomLength))
        guard text.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: Array("?>".utf8), in: text[...]) else {
            return nil
        }
        let declaration = String(decoding: text[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        let name = rest.prefix { $0 != quote }
        return name.isEmpty ? nil : String(name)
    }

    // MARK: - Private

    private static func byteOrderMark(_ bytes: [UInt8]) -> (name: String, length: Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return ("UTF-32LE", 4) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return ("UTF-32BE", 4) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
        return nil
    }

    /// UTF-32 or UTF-16 without a byte order mark, told by the zero bytes around the document's first character
    /// (XML 1.0 appendix F: it must be `<` or white space); `nil` for an ASCII-compatible start.
    static func undeclaredWide(_ prefix: [UInt8]) -> String? {
        guard prefix.count >= 4 else { return nil }
        let (a, b, c, d) = (prefix[0], prefix[1], prefix[2], prefix[3])
        if a != 0, b == 0, c == 0, d == 0 { return "UTF-32LE" }
        if a == 0, b == 0, c == 0, d != 0 { return "UTF-32BE" }
        if a != 0, b == 0, d == 0 { return "UTF-16LE" }
        if a == 0, c == 0, b != 0 { return "UTF-16BE" }
        return nil
    }

    /// Whether a charset spends two or four bytes on every character (UTF-16, UTF-32, UCS-2, UCS-4).
    static func isWide(_ name: String) -> Bool {
        let compact = normalized(name)
        return compact.hasPrefix("utf16") || compact.hasPrefix("utf32") || compact.hasPrefix("ucs")
    }

    /// Whether a charset keeps ASCII as ASCII, so that markup is read as the bytes spell it.
    static func isASCIICompatible(_ name: String) -> Bool {
        let compact = normalized(name)
        let ebcdic: Set<String> = [
            "ibm037", "ibm039", "ibm500", "ibm875", "ibm1140", "cp037", "cp500", "cp875", "cp1140", "csibm037",
            "csibm500",
        ]
        return
            !(isWide(name) || compact.hasPrefix("utf7") || compact == "csunicode11utf7" || compact.hasPrefix("ebcdic")
            || ebcdic.contains(compact))
    }

    /// The HTTP charset, unquoted, unless it is `us-ascii`: that is what servers send for `text/xml` by default
    /// (RFC 3023), almost always wrongly, so it is read as if no charset had been sent.
    private static func meaningful(_ charset: String?) -> String? {
        cleaned(charset).flatMap { ["usascii", "ascii"].contains(normalized($0)) ? nil : $0 }
    }

    private static func cleaned(_ charset: String?) -> String? {
        guard var value = charset?.trimmingCharacters(in: .whitespaces) else { return nil }
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            value = String(value.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return value.isEmpty ? nil : value
    }

    private static func normalized(_ name: String) -> String {
        let compact = String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch compact {
        case "latin1", "iso88591", "l1", "iso885911987", "isoir100", "cp819", "ibm819", "csisolatin1": return "iso88591"
        case "sjis", "shiftjis", "xsjis", "mskanji", "csshiftjis": return "shiftjis"
        case "eucjp", "xeucjp": return "eucjp"
        case "cp1252", "windows1252", "xcp1252": return "windows1252"
        default: return compact
        }
    }

    /// Where `needle` first starts in `haystack` (an index of `haystack`), the byte search of the prefix's
    /// readers.
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while let found = haystack[index...].firstIndex(of: first) {
            guard found + needle.count <= haystack.endIndex else { return nil }
            if haystack[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }
}
