import CByteScan
import Foundation

extension FeedItem {
    /// Reads an item from JSON Feed item JSON such as ``JSONFeedWriter`` writes it (the store's format), many times
    /// faster than `JSONDecoder`: one pass over the bytes, each member read straight into its field (only the rarer
    /// nested members, such as authors and attachments, go through ``JSONValue``). It reads what ``init(from:)``
    /// reads and the same way; `nil` when the JSON is not valid or a member has a type that decoder would refuse,
    /// so that callers decode those few with `JSONDecoder` and report its error.
    public init?(json bytes: UnsafeRawBufferPointer) {
        var reader = JSONBytesReader(bytes)
        var item = FeedItem(id: "")
        var authors: [FeedItem.Author]?
        var author: JSONValue?
        let valid = reader.document { key, reader in
            switch key {
            case "id":
                switch reader.value() {
                case .string(let string): item.id = string
                case .number(let number):
                    item.id =
                        number.rounded() == number && abs(number) < 9.2e18 ? String(Int64(number)) : String(number)
                case .null: item.id = ""
                default: return false
                }
            case "url": return reader.string(into: &item.url)
            case "external_url": return reader.string(into: &item.externalURL)
            case "title": return reader.string(into: &item.title)
            case "content_html": return reader.string(into: &item.contentHTML)
            case "content_text": return reader.string(into: &item.contentText)
            case "summary": return reader.string(into: &item.summary)
            case "image": return reader.string(into: &item.image)
            case "banner_image": return reader.string(into: &item.bannerImage)
            case "date_published": return reader.date(into: &item.datePublished)
            case "date_modified": return reader.date(into: &item.dateModified)
            case "language": return reader.string(into: &item.language)
            case "tags":
                guard let tags = Read.strings(reader.value()) else { return false }
                item.tags = tags ?? []
            case "attachments":
                guard let attachments = Read.list(reader.value(), Read.attachment) else { return false }
                item.attachments = attachments ?? []
            case "authors":
                guard let list = Read.list(reader.value(), Read.author) else { return false }
                authors = list
            case "author":
                guard let value = reader.value() else { return false }
                author = value
            case "_tributary":
                guard let tributary = Read.tributary(&reader) else { return false }
                item.tributary = tributary
            default:
                guard let value = reader.value() else { return false }
                if key.hasPrefix("_") { item.extensions[key] = value }
            }
            return true
        }
        guard valid else { return nil }
        if let authors {
            item.authors = authors
        } else if let author, author != .null {
            guard let single = Read.author(author) else { return nil }
            item.authors = [single]
        }
        self = item
    }

    /// ``init(json:)`` for a string.
    public init?(json text: String) {
        var text = text
        guard let item = text.withUTF8({ Self(json: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = item
    }

    /// Member readers: `.some(nil)` for a missing or null member, `nil` for a member of the wrong type.
    private enum Read {
        static func string(_ value: JSONValue?) -> String?? {
            switch value {
            case .string(let string): .some(string)
            case .null, nil: .some(nil)
            default: nil
            }
        }

        static func integer(_ value: JSONValue?) -> Int?? {
            switch value {
            case .number(let number) where number.rounded() == number && abs(number) < 9.2e18: .some(Int(number))
            case .null, nil: .some(nil)
            default: nil
            }
        }

        static func double(_ value: JSONValue?) -> Double?? {
            switch value {
            case .number(let number): .some(number)
            case .null, nil: .some(nil)
            default: nil
            }
        }

        static func strings(_ value: JSONValue?) -> [String]?? {
            list(value) { if case .string(let string) = $0 { string } else { nil } }
        }

        static func stringMap(_ value: JSONValue?) -> [String: String]?? {
            switch value {
            case .object(let members):
                var result: [String: String] = [:]
                for (key, value) in members {
                    guard case .string(let string) = value else { return nil }
                    result[key] = string
                }
                return .some(result)
            case .null, nil: return .some(nil)
            default: return nil
            }
        }

        static func list<T>(_ value: JSONValue?, _ element: (JSONValue) -> T?) -> [T]?? {
            switch value {
            case .array(let elements):
                var result: [T] = []
                result.reserveCapacity(elements.count)
                for value in elements {
                    guard let mapped = element(value) else { return nil }
                    result.append(mapped)
                }
                return .some(result)
            case .null, nil: return .some(nil)
            default: return nil
            }
        }

        static func author(_ value: JSONValue) -> FeedItem.Author? {
            guard case .object(let members) = value, let name = string(members["name"]),
                let url = string(members["url"]), let avatar = string(members["avatar"]),
                let email = string(members["_email"])
            else { return nil }
            return FeedItem.Author(name: name, url: url, avatar: avatar, email: email)
        }

        static func attachment(_ value: JSONValue) -> FeedItem.Attachment? {
            guard case .object(let members) = value, case .string(let url) = members["url"],
                let mimeType = string(members["mime_type"]), let title = string(members["title"]),
                let size = integer(members["size_in_bytes"]), let duration = double(members["duration_in_seconds"])
            else { return nil }
            return FeedItem.Attachment(
                url: url,
                mimeType: mimeType,
                title: title,
                sizeInBytes: size,
                durationInSeconds: duration
            )
        }

        /// `_tributary`, read member by member: `.some(nil)` for null, `nil` for a member of the wrong type.
        static func tributary(_ reader: inout JSONBytesReader) -> TributaryExtension?? {
            if reader.skipNull() { return .some(nil) }
            var source: String?
            var guid: String?
            var firstSeen: Date?
            var rights: String?
            var comments: String?
            var commentsFeed: String?
            var block: String?
            var explicit: String?
            var duration: String?
            var subtitle: String?
            var created: Date?
            var expires: Date?
            var license: String?
            var languages: [String: String]?
            var bases: [String: String]?
            var rightsHTML: String?
            var commentsAPI: String?
            var related: [TributaryExtension.RelatedLink]?
            var alsoIn: [TributaryExtension.ItemReference]?
            var contributors: [FeedItem.Author]?
            var links: [TributaryExtension.Link]?
            var categories: [TributaryExtension.Category]?
            var origin: TributaryExtension.Origin?
            var publisher: FeedItem.Author?
            var place: JSONValue?
            var chapters: JSONValue?
            let valid = reader.object { key, reader in
                switch key {
                case "source": return reader.string(into: &source)
                case "guid": return reader.string(into: &guid)
                case "first_seen": return reader.date(into: &firstSeen, orNilIfNotADate: true)
                case "rights": return reader.string(into: &rights)
                case "comments": return reader.string(into: &comments)
                case "comments_feed": return reader.string(into: &commentsFeed)
                case "itunes_block": return reader.string(into: &block)
                case "itunes_explicit": return reader.string(into: &explicit)
                case "itunes_duration": return reader.string(into: &duration)
                case "itunes_subtitle": return reader.string(into: &subtitle)
                case "created": return reader.date(into: &created)
                case "expires": return reader.date(into: &expires)
                case "license": return reader.string(into: &license)
                case "rights_html": return reader.string(into: &rightsHTML)
                case "comments_api": return reader.string(into: &commentsAPI)
                case "languages": return read(stringMap(reader.value()), into: &languages)
                case "bases": return read(stringMap(reader.value()), into: &bases)
                case "related": return read(list(reader.value(), relatedLink), into: &related)
                case "also_in": return read(list(reader.value(), reference), into: &alsoIn)
                case "contributors": return read(list(reader.value(), author), into: &contributors)
                case "links": return read(list(reader.value(), link), into: &links)
                case "categories": return read(list(reader.value(), category), into: &categories)
                case "origin":
                    guard let value = reader.value() else { return false }
                    if value == .null {
                        origin = nil
                    } else {
                        guard let read = self.origin(value) else { return false }
                        origin = read
                    }
                case "publisher":
                    guard let value = reader.value() else { return false }
                    if value == .null {
                        publisher = nil
                    } else {
                        guard let read = author(value) else { return false }
                        publisher = read
                    }
                case "where":
                    guard let value = reader.value() else { return false }
                    place = value == .null ? nil : value
                case "chapters":
                    guard let value = reader.value() else { return false }
                    chapters = value == .null ? nil : value
                default:
                    return reader.value() != nil
                }
                return true
            }
            guard valid else { return nil }
            // Most items have none of the rarely present fields: no empty `Details` is then built and compared.
            let hasDetails =
                created != nil || expires != nil || license != nil || publisher != nil || chapters != nil
                || duration != nil || subtitle != nil || languages != nil || bases != nil || rightsHTML != nil
                || commentsAPI != nil
            return TributaryExtension(
                source: source.map(SourceID.init(rawValue:)),
                origin: origin,
                related: related ?? [],
                guid: guid,
                firstSeen: firstSeen,
                alsoIn: alsoIn ?? [],
                rights: rights,
                contributors: contributors ?? [],
                links: links ?? [],
                categories: categories ?? [],
                comments: comments,
                commentsFeed: commentsFeed,
                itunes: TributaryExtension.ITunes(block: block, explicit: explicit),
                where: place,
                details: !hasDetails
                    ? nil
                    : TributaryExtension.Details(
                        created: created,
                        expires: expires,
                        license: license,
                        publisher: publisher,
                        chapters: chapters,
                        itunesDuration: duration,
                        itunesSubtitle: subtitle,
                        languages: languages ?? [:],
                        bases: bases ?? [:],
                        rightsHTML: rightsHTML,
                        commentsAPI: commentsAPI
                    )
            )
        }

        /// Stores a member reader's value (`nil` for null) and tells whether the member had the right type.
        private static func read<T>(_ value: T??, into field: inout T?) -> Bool {
            guard let value else { return false }
            field = value
            return true
        }

        static func origin(_ value: JSONValue) -> TributaryExtension.Origin? {
            guard case .object(let members) = value, let title = string(members["title"]),
                let url = string(members["url"]), let id = string(members["id"]),
                let updated = string(members["updated"]), let subtitle = string(members["subtitle"]),
                let rights = string(members["rights"]), let icon = string(members["icon"]),
                let logo = string(members["logo"]), let generator = string(members["generator"]),
                let authors = list(members["authors"], author),
                let contributors = list(members["contributors"], author),
                let tags = strings(members["tags"]), let links = list(members["links"], link),
                let categories = list(members["categories"], category),
                let generatorVersion = string(members["generator_version"]),
                let generatorURL = string(members["generator_url"]),
                let subtitleHTML = string(members["subtitle_html"]), let rightsHTML = string(members["rights_html"])
            else { return nil }
            return TributaryExtension.Origin(
                title: title,
                url: url,
                id: id,
                updated: updated.flatMap { RFC3339.parse($0) },
                subtitle: subtitle,
                rights: rights,
                icon: icon,
                logo: logo,
                generator: generator,
                authors: authors ?? [],
                contributors: contributors ?? [],
                tags: tags ?? [],
                links: links ?? [],
                categories: categories ?? [],
                generatorVersion: generatorVersion,
                generatorURL: generatorURL,
                subtitleHTML: subtitleHTML,
                rightsHTML: rightsHTML
            )
        }

        static func relatedLink(_ value: JSONValue) -> TributaryExtension.RelatedLink? {
            guard case .object(let members) = value, case .string(let title) = members["title"],
                let url = string(members["url"]), let publisher = string(members["publisher"])
            else { return nil }
            return TributaryExtension.RelatedLink(title: title, url: url, publisher: publisher)
        }

        static func reference(_ value: JSONValue) -> TributaryExtension.ItemReference? {
            guard case .object(let members) = value, case .string(let source) = members["source"],
                case .string(let id) = members["id"], let url = string(members["url"])
            else { return nil }
            return TributaryExtension.ItemReference(source: SourceID(rawValue: source), id: id, url: url)
        }

        static func category(_ value: JSONValue) -> TributaryExtension.Category? {
            guard case .object(let members) = value, case .string(let term) = members["term"],
                let scheme = string(members["scheme"]), let label = string(members["label"])
            else { return nil }
            return TributaryExtension.Category(term: term, scheme: scheme, label: label)
        }

        static func link(_ value: JSONValue) -> TributaryExtension.Link? {
            guard case .object(let members) = value, case .string(let rel) = members["rel"],
                case .string(let url) = members["url"], let type = string(members["type"]),
                let title = string(members["title"]), let hreflang = string(members["hreflang"]),
                let length = integer(members["length"])
            else { return nil }
            return TributaryExtension.Link(
                rel: rel,
                url: url,
                type: type,
                title: title,
                hreflang: hreflang,
                length: length
            )
        }
    }
}

/// A strict JSON reader (RFC 8259) from bytes into ``JSONValue``: strings unescaped (`\uD83D\uDE00` pairs joined,
/// a lone surrogate refused as `JSONDecoder` refuses it), numbers as `Double`, nothing after the value but white
/// space.
struct JSONBytesReader {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads a document that is one object, member by member (``object(_:)``); `false` when it is not valid JSON,
    /// not an object, or `member` refused a member.
    mutating func document(_ member: (String, inout JSONBytesReader) -> Bool) -> Bool {
        guard object(member) else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    /// Reads an object, handing `member` each key with the reader at its value, which `member` must read (and
    /// return `true`, or `false` to stop: a value of the wrong type). `false` when the next value is not an object,
    /// the JSON is not valid, or `member` returned `false`. Keys are handed in document order, so a key written
    /// twice ends with its last value, as in a dictionary.
    mutating func object(_ member: (String, inout JSONBytesReader) -> Bool) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == 0x7B else { return false }
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return false }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x7D {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x22, let key = string() else { return false }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x3A else { return false }
            index += 1
            guard member(key, &self) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == 0x2C {
                index += 1
            } else if bytes[index] == 0x7D {
                index += 1
                return true
            } else {
                return false
            }
        }
    }

    /// Reads `null` if it is the next value.
    mutating func skipNull() -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == 0x6E else { return false }
        return literal("null", .null) != nil
    }

    /// Reads a string into `field`, or `null` as `nil`; `false` for another value or invalid JSON.
    mutating func string(into field: inout String?) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { return false }
        if bytes[index] == 0x22 {
            guard let text = string() else { return false }
            field = text
            return true
        }
        guard skipNull() else { return false }
        field = nil
        return true
    }

    /// Reads an RFC 3339 date string into `field`, or `null` as `nil`; `false` for another value, a string that is
    /// not such a date (or `nil` in `field` when `orNilIfNotADate`), or invalid JSON. A string without escapes is
    /// parsed where it lies.
    mutating func date(into field: inout Date?, orNilIfNotADate: Bool = false) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { return false }
        guard bytes[index] == 0x22 else {
            guard skipNull() else { return false }
            field = nil
            return true
        }
        var end = index + 1
        while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C, bytes[end] >= 0x20 { end += 1 }
        let date: Date?
        if end < bytes.count, bytes[end] == 0x22 {
            date = RFC3339.parse(
                bytes: UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[(index + 1)..<end]),
                trimming: true
            )
            index = end + 1
        } else {
            guard let text = string() else { return false }
            date = RFC3339.parse(text)
        }
        guard date != nil || orNilIfNotADate else { return false }
        field = date
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next value, or `nil` when it is not valid JSON.
    mutating func value() -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 0x22: return string().map(JSONValue.string)
        case 0x7B: return object()
        case 0x5B: return array()
        case 0x74: return literal("true", .bool(true))
        case 0x66: return literal("false", .bool(false))
        case 0x6E: return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return nil }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x7D {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x22, let key = string() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x3A else { return nil }
            index += 1
            guard let value = value() else { return nil }
            members[key] = value
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == 0x2C {
                index += 1
            } else if bytes[index] == 0x7D {
                index += 1
                return .object(members)
            } else {
                return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x5D {
            index += 1
            return .array(elements)
        }
        while true {
            guard let value = value() else { return nil }
            elements.append(value)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == 0x2C {
                index += 1
            } else if bytes[index] == 0x5D {
                index += 1
                return .array(elements)
            } else {
                return nil
            }
        }
    }

    /// The index of the next byte at or after `start` that ends a run of a string's plain bytes: `"`, a backslash or a
    /// control character (invalid in a string); `bytes.count` when there is none. Sixteen bytes at a time.
    private func nextStringByte(from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        let stops = tributary_byte_set(below: 0x20, count: 2, equal: (0x22, 0x5C, 0, 0, 0, 0))
        return tributary_find_first(base.assumingMemoryBound(to: UInt8.self), start, bytes.count, stops)
    }

    private mutating func string() -> String? {
        index += 1
        let start = index
        // The common case: no escapes, copied in one piece (every byte of every stored item a digest draws is
        // scanned here, sixteen at a time).
        let count = bytes.count
        index = nextStringByte(from: index)
        guard index < count else { return nil }
        if bytes[index] < 0x20 { return nil }
        if bytes[index] == 0x22 {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }
        // Escapes (the writer escapes `</` as `<\/`, so stored HTML holds many): the runs between them are copied whole.
        var output: [UInt8] = []
        output.reserveCapacity(index - start + 64)
        var run = start
        while true {
            index = nextStringByte(from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte < 0x20 { return nil }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
            if byte == 0x22 {
                index += 1
                return String(decoding: output, as: UTF8.self)
            }
            guard index + 1 < bytes.count else { return nil }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case 0x22, 0x5C, 0x2F: output.append(escape)
            case 0x62: output.append(0x08)
            case 0x66: output.append(0x0C)
            case 0x6E: output.append(0x0A)
            case 0x72: output.append(0x0D)
            case 0x74: output.append(0x09)
            case 0x75:
                guard var scalar = hex4() else { return nil }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                        return nil
                    }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return nil
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                output.append(contentsOf: String(Character(unicode)).utf8)
            default:
                return nil
            }
            run = index
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() -> JSONValue? {
        let start = index
        if index < bytes.count, bytes[index] == 0x2D { index += 1 }
        guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
        if bytes[index] == 0x30 {
            index += 1
        } else {
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return Double(text).map(JSONValue.number)
    }
}
