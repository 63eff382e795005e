import Foundation

extension FeedItem {
    /// Reads an item from JSON Feed item JSON such as ``JSONFeedWriter`` writes it (the store's format), several
    /// times faster than `JSONDecoder`: one pass over the bytes into ``JSONValue``, then the fields. It reads what
    /// ``init(from:)`` reads and the same way; `nil` when the JSON is not valid or a member has a type that decoder
    /// would refuse, so that callers decode those few with `JSONDecoder` and report its error.
    public init?(json bytes: UnsafeRawBufferPointer) {
        var reader = JSONBytesReader(bytes)
        guard let value = reader.document(), case .object(let members) = value else { return nil }
        guard let item = Self(members: members) else { return nil }
        self = item
    }

    /// ``init(json:)`` for a string.
    public init?(json text: String) {
        var text = text
        guard let item = text.withUTF8({ Self(json: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = item
    }

    private init?(members: [String: JSONValue]) {
        switch members["id"] {
        case .string(let string): self.init(id: string)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.2e18 {
                self.init(id: String(Int64(number)))
            } else {
                self.init(id: String(number))
            }
        case .null, nil: self.init(id: "")
        default: return nil
        }
        guard let url = Read.string(members["url"]), let externalURL = Read.string(members["external_url"]),
            let title = Read.string(members["title"]), let contentHTML = Read.string(members["content_html"]),
            let contentText = Read.string(members["content_text"]), let summary = Read.string(members["summary"]),
            let image = Read.string(members["image"]), let bannerImage = Read.string(members["banner_image"]),
            let published = Read.date(members["date_published"]), let modified = Read.date(members["date_modified"]),
            let language = Read.string(members["language"]), let tags = Read.strings(members["tags"]),
            let attachments = Read.list(members["attachments"], Read.attachment)
        else { return nil }
        (self.url, self.externalURL, self.title, self.contentHTML) = (url, externalURL, title, contentHTML)
        (self.contentText, self.summary, self.image, self.bannerImage) = (contentText, summary, image, bannerImage)
        (datePublished, dateModified, self.language) = (published, modified, language)
        self.tags = tags ?? []
        self.attachments = attachments ?? []
        guard let authors = Read.list(members["authors"], Read.author) else { return nil }
        if let authors {
            self.authors = authors
        } else if let author = members["author"], author != .null {
            guard let single = Read.author(author) else { return nil }
            self.authors = [single]
        }
        if let tributary = members["_tributary"], tributary != .null {
            guard let value = Read.tributary(tributary) else { return nil }
            self.tributary = value
        }
        for (key, value) in members where key.hasPrefix("_") && key != "_tributary" { extensions[key] = value }
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

        static func date(_ value: JSONValue?) -> Date?? {
            switch value {
            case .string(let string): RFC3339.parse(string).map { .some($0) }
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

        static func tributary(_ value: JSONValue) -> TributaryExtension? {
            guard case .object(let members) = value, let source = string(members["source"]),
                let guid = string(members["guid"]), let firstSeen = string(members["first_seen"]),
                let rights = string(members["rights"]), let comments = string(members["comments"]),
                let commentsFeed = string(members["comments_feed"]), let block = string(members["itunes_block"]),
                let explicit = string(members["itunes_explicit"]),
                let duration = string(members["itunes_duration"]), let subtitle = string(members["itunes_subtitle"]),
                let created = date(members["created"]), let expires = date(members["expires"]),
                let license = string(members["license"]),
                let languages = stringMap(members["languages"]), let bases = stringMap(members["bases"]),
                let rightsHTML = string(members["rights_html"]), let commentsAPI = string(members["comments_api"]),
                let related = list(members["related"], relatedLink), let alsoIn = list(members["also_in"], reference),
                let contributors = list(members["contributors"], author), let links = list(members["links"], link),
                let categories = list(members["categories"], category)
            else { return nil }
            var origin: TributaryExtension.Origin?
            if let value = members["origin"], value != .null {
                guard let read = self.origin(value) else { return nil }
                origin = read
            }
            var publisher: FeedItem.Author?
            if let value = members["publisher"], value != .null {
                guard let read = author(value) else { return nil }
                publisher = read
            }
            return TributaryExtension(
                source: source.map(SourceID.init(rawValue:)),
                origin: origin,
                related: related ?? [],
                guid: guid,
                firstSeen: firstSeen.flatMap { RFC3339.parse($0) },
                alsoIn: alsoIn ?? [],
                rights: rights,
                contributors: contributors ?? [],
                links: links ?? [],
                categories: categories ?? [],
                comments: comments,
                commentsFeed: commentsFeed,
                itunes: TributaryExtension.ITunes(block: block, explicit: explicit),
                where: members["where"].flatMap { $0 == .null ? nil : $0 },
                details: TributaryExtension.Details(
                    created: created,
                    expires: expires,
                    license: license,
                    publisher: publisher,
                    chapters: members["chapters"].flatMap { $0 == .null ? nil : $0 },
                    itunesDuration: duration,
                    itunesSubtitle: subtitle,
                    languages: languages ?? [:],
                    bases: bases ?? [:],
                    rightsHTML: rightsHTML,
                    commentsAPI: commentsAPI
                )
            )
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

    /// The document's one value, or `nil` when it is not valid JSON.
    mutating func document() -> JSONValue? {
        guard let value = value() else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() -> JSONValue? {
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

    private mutating func string() -> String? {
        index += 1
        let start = index
        // The common case: no escapes, copied in one piece.
        while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C {
            if bytes[index] < 0x20 { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x22 {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }
        var output = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                index += 1
                return String(decoding: output, as: UTF8.self)
            case 0x5C:
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
            default:
                if byte < 0x20 { return nil }
                output.append(byte)
                index += 1
            }
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
