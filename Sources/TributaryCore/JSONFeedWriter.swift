import CByteScan
import Foundation

/// Writes a JSON Feed 1.1 document piece by piece into a byte buffer: the header, then each item as it becomes
/// available, then the footer, so that a feed of any length is written with flat memory.
///
/// The output decodes with `JSONDecoder` to exactly the ``JSONFeed`` and ``FeedItem`` values the `Codable`
/// encoding would give. It is compact JSON with one item per line. Strings escape `"`, `\`, control characters
/// (C0 and C1), U+2028/U+2029 and `</` (so the output can sit inside a `<script>` element); everything else is
/// written as UTF-8. Extension members are written in sorted key order, so the output is deterministic.
///
/// ```swift
/// var writer = JSONFeedWriter()
/// var buffer: [UInt8] = []
/// writer.writeHeader(of: feed, into: &buffer)
/// for item in items { writer.writeItem(item, into: &buffer) }
/// writer.writeFooter(into: &buffer)
/// ```
public struct JSONFeedWriter: Sendable {
    private var itemCount = 0

    /// Creates a writer for one document.
    public init() {}

    /// A writer that goes on with a document of which `writtenItems` items were already written (by another
    /// writer): the next item is preceded by its comma, and the footer closes a non-empty array.
    public init(writtenItems: Int) {
        itemCount = max(0, writtenItems)
    }

    /// The number of items written so far.
    public var writtenItems: Int { itemCount }

    /// Appends the document's opening: every top-level member of `feed` except `items` (which is ignored), then the
    /// opening of the `items` array. The version is always 1.1, whatever `feed.version` says, as with the `Codable`
    /// encoding: what is written is a 1.1 document.
    public mutating func writeHeader(of feed: JSONFeed, into buffer: inout [UInt8]) {
        itemCount = 0
        var out = ByteWriter(capacity: 1024)
        defer { out.deallocate() }
        Self.header(feed, into: &out)
        out.flush(into: &buffer)
    }

    /// Appends one item of the `items` array.
    public mutating func writeItem(_ item: FeedItem, into buffer: inout [UInt8]) {
        writeItem(item, contentHTML: nil, into: &buffer)
    }

    /// Appends one item of the `items` array with `contentHTML` as its `content_html`, in place of the item's own:
    /// for HTML made safe as bytes (`HTMLSanitizer.sanitizedUTF8`), which then needs no `String` on its way out.
    ///
    /// - Parameters:
    ///   - item: the item.
    ///   - contentHTML: the `content_html` to write, as UTF-8; it must be valid UTF-8.
    ///   - buffer: the output.
    public mutating func writeItem(_ item: FeedItem, contentHTML: [UInt8], into buffer: inout [UInt8]) {
        contentHTML.withUnsafeBufferPointer { writeItem(item, contentHTML: $0, into: &buffer) }
    }

    private mutating func writeItem(
        _ item: FeedItem,
        contentHTML: UnsafeBufferPointer<UInt8>?,
        into buffer: inout [UInt8]
    ) {
        var out = ByteWriter(capacity: 4096)
        defer { out.deallocate() }
        if itemCount > 0 { out.append(0x2C) }
        out.append(0x0A)
        itemCount += 1
        Self.item(item, contentHTML: contentHTML, into: &out)
        out.flush(into: &buffer)
    }

    /// Appends the end of the `items` array and of the document, and a final newline.
    public mutating func writeFooter(into buffer: inout [UInt8]) {
        if itemCount > 0 { buffer.append(0x0A) }
        buffer.append(contentsOf: [0x5D, 0x7D, 0x0A])
    }

    /// One item as a JSON object on its own (no comma, no newline): how the state store keeps an item. It decodes
    /// to the same ``FeedItem``, as every item this writer writes.
    public static func encode(_ item: FeedItem) -> [UInt8] {
        var out = ByteWriter(capacity: 4096)
        defer { out.deallocate() }
        Self.item(item, contentHTML: nil, into: &out)
        var buffer: [UInt8] = []
        out.flush(into: &buffer)
        return buffer
    }

    /// The whole document at once.
    public static func encode(_ feed: JSONFeed) -> [UInt8] {
        var writer = JSONFeedWriter()
        var buffer: [UInt8] = []
        writer.writeHeader(of: feed, into: &buffer)
        for item in feed.items { writer.writeItem(item, into: &buffer) }
        writer.writeFooter(into: &buffer)
        return buffer
    }

    // MARK: - Private

    private static func header(_ feed: JSONFeed, into buffer: inout ByteWriter) {
        buffer.append(0x7B)
        var first = true
        member("version", into: &buffer, first: &first)
        string(JSONFeed.version1_1, into: &buffer)
        member("title", into: &buffer, first: &first)
        string(feed.title, into: &buffer)
        optional("home_page_url", feed.homePageURL, into: &buffer, first: &first)
        optional("feed_url", feed.feedURL, into: &buffer, first: &first)
        optional("description", feed.description, into: &buffer, first: &first)
        optional("user_comment", feed.userComment, into: &buffer, first: &first)
        optional("next_url", feed.nextURL, into: &buffer, first: &first)
        optional("icon", feed.icon, into: &buffer, first: &first)
        optional("favicon", feed.favicon, into: &buffer, first: &first)
        if !feed.authors.isEmpty {
            member("authors", into: &buffer, first: &first)
            authors(feed.authors, into: &buffer)
        }
        optional("language", feed.language, into: &buffer, first: &first)
        if let expired = feed.expired {
            member("expired", into: &buffer, first: &first)
            raw(expired ? "true" : "false", into: &buffer)
        }
        extensions(feed.extensions, excluding: nil, into: &buffer, first: &first)
        member("items", into: &buffer, first: &first)
        buffer.append(0x5B)
    }

    private static func item(
        _ item: FeedItem,
        contentHTML: UnsafeBufferPointer<UInt8>?,
        into buffer: inout ByteWriter
    ) {
        buffer.append(0x7B)
        var first = true
        member("id", into: &buffer, first: &first)
        string(item.id, into: &buffer)
        optional("url", item.url, into: &buffer, first: &first)
        optional("external_url", item.externalURL, into: &buffer, first: &first)
        optional("title", item.title, into: &buffer, first: &first)
        if let contentHTML {
            member("content_html", into: &buffer, first: &first)
            string(utf8: contentHTML, into: &buffer)
        } else {
            optional("content_html", item.contentHTML, into: &buffer, first: &first)
        }
        optional("content_text", item.contentText, into: &buffer, first: &first)
        optional("summary", item.summary, into: &buffer, first: &first)
        optional("image", item.image, into: &buffer, first: &first)
        optional("banner_image", item.bannerImage, into: &buffer, first: &first)
        if let date = item.datePublished {
            member("date_published", into: &buffer, first: &first)
            self.date(date, into: &buffer)
        }
        if let date = item.dateModified {
            member("date_modified", into: &buffer, first: &first)
            self.date(date, into: &buffer)
        }
        if !item.authors.isEmpty {
            member("authors", into: &buffer, first: &first)
            authors(item.authors, into: &buffer)
        }
        if !item.tags.isEmpty {
            member("tags", into: &buffer, first: &first)
            strings(item.tags, into: &buffer)
        }
        optional("language", item.language, into: &buffer, first: &first)
        if !item.attachments.isEmpty {
            member("attachments", into: &buffer, first: &first)
            objects(item.attachments, into: &buffer) { attachment, buffer, first in
                member("url", into: &buffer, first: &first)
                string(attachment.url, into: &buffer)
                optional("mime_type", attachment.mimeType, into: &buffer, first: &first)
                optional("title", attachment.title, into: &buffer, first: &first)
                if let size = attachment.sizeInBytes {
                    member("size_in_bytes", into: &buffer, first: &first)
                    raw(String(size), into: &buffer)
                }
                if let duration = attachment.durationInSeconds {
                    member("duration_in_seconds", into: &buffer, first: &first)
                    number(duration, into: &buffer)
                }
            }
        }
        if let tributary = item.tributary {
            member("_tributary", into: &buffer, first: &first)
            self.tributary(tributary, into: &buffer)
        }
        extensions(item.extensions, excluding: "_tributary", into: &buffer, first: &first)
        buffer.append(0x7D)
    }

    private static func tributary(_ value: TributaryExtension, into buffer: inout ByteWriter) {
        buffer.append(0x7B)
        var first = true
        optional("source", value.source?.rawValue, into: &buffer, first: &first)
        if value.origin != nil {
            member("origin", into: &buffer, first: &first)
            origin(value.origin!, into: &buffer)
        }
        if !value.related.isEmpty {
            member("related", into: &buffer, first: &first)
            objects(value.related, into: &buffer) { related, buffer, first in
                member("title", into: &buffer, first: &first)
                string(related.title, into: &buffer)
                optional("url", related.url, into: &buffer, first: &first)
                optional("publisher", related.publisher, into: &buffer, first: &first)
            }
        }
        optional("guid", value.guid, into: &buffer, first: &first)
        optional("rights", value.rights, into: &buffer, first: &first)
        if !value.contributors.isEmpty {
            member("contributors", into: &buffer, first: &first)
            authors(value.contributors, into: &buffer)
        }
        if !value.links.isEmpty {
            member("links", into: &buffer, first: &first)
            links(value.links, into: &buffer)
        }
        if !value.categories.isEmpty {
            member("categories", into: &buffer, first: &first)
            categories(value.categories, into: &buffer)
        }
        optional("comments", value.comments, into: &buffer, first: &first)
        optional("comments_feed", value.commentsFeed, into: &buffer, first: &first)
        optional("itunes_block", value.itunes.block, into: &buffer, first: &first)
        optional("itunes_explicit", value.itunes.explicit, into: &buffer, first: &first)
        if let location = value.where {
            member("where", into: &buffer, first: &first)
            json(location, into: &buffer)
        }
        if value.hasDetails { details(value.details, into: &buffer, first: &first) }
        if let firstSeen = value.firstSeen {
            member("first_seen", into: &buffer, first: &first)
            date(firstSeen, into: &buffer)
        }
        if !value.alsoIn.isEmpty {
            member("also_in", into: &buffer, first: &first)
            objects(value.alsoIn, into: &buffer) { reference, buffer, first in
                member("source", into: &buffer, first: &first)
                string(reference.source.rawValue, into: &buffer)
                member("id", into: &buffer, first: &first)
                string(reference.id, into: &buffer)
                optional("url", reference.url, into: &buffer, first: &first)
            }
        }
        buffer.append(0x7D)
    }

    /// `_tributary.origin`, read where it lies (borrowed: a copy would retain each of its fields).
    private static func origin(_ origin: borrowing TributaryExtension.Origin, into buffer: inout ByteWriter) {
        buffer.append(0x7B)
        var first = true
        optional("title", origin.title, into: &buffer, first: &first)
        optional("url", origin.url, into: &buffer, first: &first)
        optional("id", origin.id, into: &buffer, first: &first)
        if let updated = origin.updated {
            member("updated", into: &buffer, first: &first)
            date(updated, into: &buffer)
        }
        optional("subtitle", origin.subtitle, into: &buffer, first: &first)
        optional("rights", origin.rights, into: &buffer, first: &first)
        optional("icon", origin.icon, into: &buffer, first: &first)
        optional("logo", origin.logo, into: &buffer, first: &first)
        optional("generator", origin.generator, into: &buffer, first: &first)
        if !origin.authors.isEmpty {
            member("authors", into: &buffer, first: &first)
            authors(origin.authors, into: &buffer)
        }
        if !origin.contributors.isEmpty {
            member("contributors", into: &buffer, first: &first)
            authors(origin.contributors, into: &buffer)
        }
        if !origin.tags.isEmpty {
            member("tags", into: &buffer, first: &first)
            strings(origin.tags, into: &buffer)
        }
        if origin.hasMore {
            if !origin.links.isEmpty {
                member("links", into: &buffer, first: &first)
                links(origin.links, into: &buffer)
            }
            if !origin.categories.isEmpty {
                member("categories", into: &buffer, first: &first)
                categories(origin.categories, into: &buffer)
            }
            optional("generator_version", origin.generatorVersion, into: &buffer, first: &first)
            optional("generator_url", origin.generatorURL, into: &buffer, first: &first)
            optional("subtitle_html", origin.subtitleHTML, into: &buffer, first: &first)
            optional("rights_html", origin.rightsHTML, into: &buffer, first: &first)
        }
        buffer.append(0x7D)
    }

    /// An array of strings.
    private static func strings(_ values: [String], into buffer: inout ByteWriter) {
        buffer.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(0x2C) }
            string(value, into: &buffer)
        }
        buffer.append(0x5D)
    }

    /// The members of ``TributaryExtension/details`` that are set.
    private static func details(
        _ details: TributaryExtension.Details,
        into buffer: inout ByteWriter,
        first: inout Bool
    ) {
        optional("itunes_duration", details.itunesDuration, into: &buffer, first: &first)
        optional("itunes_subtitle", details.itunesSubtitle, into: &buffer, first: &first)
        if let created = details.created {
            member("created", into: &buffer, first: &first)
            date(created, into: &buffer)
        }
        if let expires = details.expires {
            member("expires", into: &buffer, first: &first)
            date(expires, into: &buffer)
        }
        optional("license", details.license, into: &buffer, first: &first)
        optional("rights_html", details.rightsHTML, into: &buffer, first: &first)
        optional("comments_api", details.commentsAPI, into: &buffer, first: &first)
        if let publisher = details.publisher {
            member("publisher", into: &buffer, first: &first)
            buffer.append(0x7B)
            var inner = true
            optional("name", publisher.name, into: &buffer, first: &inner)
            optional("url", publisher.url, into: &buffer, first: &inner)
            optional("avatar", publisher.avatar, into: &buffer, first: &inner)
            optional("_email", publisher.email, into: &buffer, first: &inner)
            buffer.append(0x7D)
        }
        if let chapters = details.chapters {
            member("chapters", into: &buffer, first: &first)
            json(chapters, into: &buffer)
        }
        // Rare (a feed that gives a field its own xml:lang or xml:base): written as any JSON object, keys sorted.
        for (key, map) in [("languages" as StaticString, details.languages), ("bases", details.bases)]
        where !map.isEmpty {
            member(key, into: &buffer, first: &first)
            json(.object(map.mapValues { .string($0) }), into: &buffer)
        }
    }

    private static func links(_ links: [TributaryExtension.Link], into buffer: inout ByteWriter) {
        objects(links, into: &buffer) { link, buffer, first in
            member("rel", into: &buffer, first: &first)
            string(link.rel, into: &buffer)
            member("url", into: &buffer, first: &first)
            string(link.url, into: &buffer)
            optional("type", link.type, into: &buffer, first: &first)
            optional("title", link.title, into: &buffer, first: &first)
            optional("hreflang", link.hreflang, into: &buffer, first: &first)
            if let length = link.length {
                member("length", into: &buffer, first: &first)
                number(Double(length), into: &buffer)
            }
        }
    }

    private static func categories(_ categories: [TributaryExtension.Category], into buffer: inout ByteWriter) {
        objects(categories, into: &buffer) { category, buffer, first in
            member("term", into: &buffer, first: &first)
            string(category.term, into: &buffer)
            optional("scheme", category.scheme, into: &buffer, first: &first)
            optional("label", category.label, into: &buffer, first: &first)
        }
    }

    private static func authors(_ authors: [FeedItem.Author], into buffer: inout ByteWriter) {
        objects(authors, into: &buffer) { author, buffer, first in
            optional("name", author.name, into: &buffer, first: &first)
            optional("url", author.url, into: &buffer, first: &first)
            optional("avatar", author.avatar, into: &buffer, first: &first)
            optional("_email", author.email, into: &buffer, first: &first)
        }
    }

    /// An array of objects, each one's members written by `members` (with ``member(_:into:first:)`` and
    /// ``optional(_:_:into:first:)``, which put the commas between them).
    private static func objects<Element>(
        _ elements: [Element],
        into buffer: inout ByteWriter,
        _ members: (Element, inout ByteWriter, inout Bool) -> Void
    ) {
        buffer.append(0x5B)
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.append(0x2C) }
            buffer.append(0x7B)
            var first = true
            members(element, &buffer, &first)
            buffer.append(0x7D)
        }
        buffer.append(0x5D)
    }

    private static func extensions(
        _ extensions: [String: JSONValue],
        excluding excluded: String?,
        into buffer: inout ByteWriter,
        first: inout Bool
    ) {
        guard !extensions.isEmpty else { return }
        for key in extensions.keys.sorted() where key.hasPrefix("_") && key != excluded {
            guard let value = extensions[key] else { continue }
            member(key, into: &buffer, first: &first)
            json(value, into: &buffer)
        }
    }

    private static func json(_ value: JSONValue, into buffer: inout ByteWriter) {
        switch value {
        case .null: raw("null", into: &buffer)
        case .bool(let flag): raw(flag ? "true" : "false", into: &buffer)
        case .number(let number): self.number(number, into: &buffer)
        case .string(let text): string(text, into: &buffer)
        case .array(let elements):
            buffer.append(0x5B)
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(0x2C) }
                json(element, into: &buffer)
            }
            buffer.append(0x5D)
        case .object(let members):
            buffer.append(0x7B)
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { buffer.append(0x2C) }
                string(key, into: &buffer)
                buffer.append(0x3A)
                if let member = members[key] { json(member, into: &buffer) }
            }
            buffer.append(0x7D)
        }
    }

    private static func member(_ key: StaticString, into buffer: inout ByteWriter, first: inout Bool) {
        if !first { buffer.append(0x2C) }
        first = false
        buffer.append(0x22)
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(contentsOf: [0x22, 0x3A])
    }

    private static func member(_ key: String, into buffer: inout ByteWriter, first: inout Bool) {
        if !first { buffer.append(0x2C) }
        first = false
        string(key, into: &buffer)
        buffer.append(0x3A)
    }

    private static func optional(
        _ key: StaticString,
        _ value: String?,
        into buffer: inout ByteWriter,
        first: inout Bool
    ) {
        guard let value else { return }
        member(key, into: &buffer, first: &first)
        string(value, into: &buffer)
    }

    private static func raw(_ text: String, into buffer: inout ByteWriter) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Integral values are written without a fraction (as `JSONEncoder` does for whole doubles); a non-finite
    /// value, which JSON cannot hold, is written as `null`.
    private static func number(_ value: Double, into buffer: inout ByteWriter) {
        guard value.isFinite else { return raw("null", into: &buffer) }
        if value.rounded() == value, abs(value) < 9.007_199_254_740_992e15 {
            raw(String(Int64(value)), into: &buffer)
        } else {
            raw("\(value)", into: &buffer)
        }
    }

    private static func date(_ date: Date, into buffer: inout ByteWriter) {
        // Written by RFC3339 into a buffer on the stack, without building a String (a year it cannot write in four
        // digits goes through its string form).
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: RFC3339.maximumLength + 2) { bytes in
            bytes[0] = 0x22
            var index = 1
            guard RFC3339.write(date, into: bytes, at: &index) else { return false }
            bytes[index] = 0x22
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<(index + 1)]))
            return true
        }
        if !written { string(RFC3339.format(date), into: &buffer) }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes a JSON string.
    private static func string(_ value: String, into buffer: inout ByteWriter) {
        var value = value
        value.withUTF8 { string(utf8: $0, into: &buffer) }
    }

    /// Writes a JSON string given as valid UTF-8; runs of bytes that need no escaping are copied in one go, found
    /// sixteen bytes at a time (`tributary_find_first`).
    private static func string(utf8 bytes: UnsafeBufferPointer<UInt8>, into buffer: inout ByteWriter) {
        buffer.append(0x22)
        if let base = bytes.baseAddress {
            // The bytes that may need escaping: control characters, `"`, `\\`, `<` (before `/`), 0xC2 (the first
            // byte of the C1 controls) and 0xE2 (the first byte of U+2028 and U+2029).
            let special = tributary_byte_set(below: 0x20, count: 5, equal: (0x22, 0x5C, 0x3C, 0xE2, 0xC2, 0))
            let count = bytes.count
            var runStart = 0
            var index = 0
            while true {
                index = tributary_find_first(base, index, count, special)
                guard index < count else { break }
                let byte = bytes[index]
                var skip = 1
                // The code point an empty `escape` writes as `\u00XX`: the byte itself, or a C1 control's second byte.
                var control = byte
                let escape: StaticString
                switch byte {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x3C where index + 1 < count && bytes[index + 1] == 0x2F:
                    // `</` becomes `<\/`: the '<' stays in the run, the '/' is escaped.
                    index += 1
                    escape = "\\/"
                case 0xE2 where index + 2 < count && bytes[index + 1] == 0x80 && bytes[index + 2] | 1 == 0xA9:
                    escape = bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    skip = 3
                case 0x00..<0x20: escape = ""
                case 0xC2 where index + 1 < count && bytes[index + 1] < 0xA0:
                    // A C1 control, kept in the data as the feed wrote it, is written `\u0080`-`\u009f`: a terminal
                    // showing the JSON must not read `\u{9D}` as the start of a command.
                    escape = ""
                    control = bytes[index + 1]
                    skip = 2
                default:
                    index += 1
                    continue
                }
                if runStart < index {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                if escape.utf8CodeUnitCount > 0 {
                    buffer.append(
                        contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount)
                    )
                } else {
                    buffer.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(control >> 4)], hex[Int(control & 0xF)]])
                }
                index += skip
                runStart = index
            }
            if runStart < count {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
            }
        }
        buffer.append(0x22)
    }
}

/// A growable byte buffer written with plain stores: the JSON of one item is assembled here and appended to the
/// caller's array in one copy, instead of a hundred small `Array.append` calls.
private struct ByteWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func deallocate() {
        base.deallocate()
    }

    func flush(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(1) }
        base[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    mutating func append(contentsOf text: String.UTF8View) {
        var string = String(text)
        string.withUTF8 { append(contentsOf: $0) }
    }

    private mutating func grow(_ added: Int) {
        var newCapacity = capacity * 2
        while newCapacity < count + added { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
