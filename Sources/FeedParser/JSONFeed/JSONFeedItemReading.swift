import Foundation
public import TributaryCore

/// One JSON Feed item read member by member, so that a bad member costs that member and never the item.
///
/// This is the one place a JSON Feed item (1.0 or 1.1) is decoded from outside input: the `json-file` adapter, the
/// `exec` adapter (a whole document or one item per line) and push frames all decode through it.
///
/// - `id`: a string, or a number made a string (large integers stay exact); anything else is dropped with a
///   problem, and the reader derives an id.
/// - Dates: every form the XML reader reads (RFC 3339, RFC 822 as WordPress plugins write it, ISO 8601 variants,
///   see ``FeedDate``); one that cannot be read is dropped with a problem.
/// - `title` and `summary` are plain text by the JSON Feed spec; character references in them (`&#8211;`,
///   `&amp;`) are decoded once and white space is collapsed, as for every other format (``FeedText``). Markup
///   written as text (`History of the <blink> tag`) stays as written.
/// - `authors` (1.1) or `author` (1.0); `tags` that are not strings are dropped one by one; an attachment without
///   a string `url` is dropped; `_tributary` and other `_` extensions pass through.
public struct JSONFeedItemReading: Decodable, Sendable {
    /// The item, with every member that could be read.
    public var item: FeedItem
    /// One line per member that could not be read, such as `date_published: "yesterday" is not a date`.
    public var problems: [String]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        var problems: [String] = []
        var item = FeedItem(id: "")

        func found(_ key: MemberKey) -> String {
            (try? container.decode(JSONValue.self, forKey: key))?.kindName ?? "something else"
        }
        func string(_ name: String) -> String? {
            let key = MemberKey(name)
            guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return nil }
            if let value = try? container.decode(String.self, forKey: key) { return value }
            problems.append("\(name) must be a string, not \(found(key)); left out")
            return nil
        }
        func date(_ name: String) -> Date? {
            guard let text = string(name) else { return nil }
            if let date = FeedDate.parse(text) { return date }
            problems.append("\(name) \"\(text.prefix(60))\" is not a date; left out")
            return nil
        }

        let idKey = MemberKey("id")
        if let text = try? container.decode(String.self, forKey: idKey) {
            item.id = text
        } else if let number = try? container.decode(Int64.self, forKey: idKey) {
            item.id = String(number)
        } else if let number = try? container.decode(Double.self, forKey: idKey) {
            item.id = String(number)
        } else if container.contains(idKey), (try? container.decodeNil(forKey: idKey)) == false {
            problems.append("id must be a string, not \(found(idKey)); an id was derived")
        }
        item.url = string("url")
        item.externalURL = string("external_url")
        item.title = string("title").map { FeedText.plainText($0, stripTags: false) }.flatMap(Self.nonEmpty)
        item.contentHTML = string("content_html")
        item.contentText = string("content_text")
        item.summary = string("summary").map { FeedText.plainText($0, stripTags: false) }.flatMap(Self.nonEmpty)
        item.image = string("image")
        item.bannerImage = string("banner_image")
        item.datePublished = date("date_published")
        item.dateModified = date("date_modified")
        item.language = string("language")
        item.authors = Self.authors(container, &problems)
        item.tags = Self.tags(container, &problems)
        item.attachments = Self.attachments(container, &problems)

        let tributaryKey = MemberKey("_tributary")
        if container.contains(tributaryKey) {
            do {
                item.tributary = try container.decode(TributaryExtension.self, forKey: tributaryKey)
            } catch {
                problems.append("_tributary: \(DecodingErrorText.describe(error, droppingFirst: 1)); left out")
            }
        }
        for key in container.allKeys where key.stringValue.hasPrefix("_") && key.stringValue != "_tributary" {
            if let value = try? container.decode(JSONValue.self, forKey: key) {
                item.extensions[key.stringValue] = value
            }
        }
        self.item = item
        self.problems = problems
    }

    // MARK: - Private

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    private static func authors(_ container: KeyedDecodingContainer<MemberKey>, _ problems: inout [String])
        -> [FeedItem.Author]
    {
        let values: [JSONValue]
        let name: String
        if let array = try? container.decode([JSONValue].self, forKey: MemberKey("authors")) {
            values = array
            name = "authors"
        } else if let single = try? container.decode(JSONValue.self, forKey: MemberKey("author")), single != .null {
            values = [single]
            name = "author"
        } else {
            if container.contains(MemberKey("authors")) { problems.append("authors must be an array; left out") }
            return []
        }
        var authors: [FeedItem.Author] = []
        for (index, value) in values.enumerated() {
            let label = name == "authors" ? "authors[\(index)]" : "author"
            guard let members = value.objectValue else {
                if let text = value.stringValue, !text.isEmpty {
                    authors.append(FeedItem.Author(name: text))
                } else {
                    problems.append("\(label) must be an object, not \(value.kindName); left out")
                }
                continue
            }
            var author = FeedItem.Author(
                name: members["name"]?.stringValue.map { FeedText.plainText($0, stripTags: false) },
                url: members["url"]?.stringValue,
                avatar: members["avatar"]?.stringValue
            )
            author.email = members["_email"]?.stringValue
            if author.name == nil, author.url == nil, author.avatar == nil, author.email == nil {
                problems.append("\(label) has no name, url or avatar; left out")
                continue
            }
            authors.append(author)
        }
        return authors
    }

    private static func tags(_ container: KeyedDecodingContainer<MemberKey>, _ problems: inout [String]) -> [String] {
        let key = MemberKey("tags")
        guard container.contains(key), let value = try? container.decode(JSONValue.self, forKey: key),
            value != .null
        else { return [] }
        guard let array = value.arrayValue else {
            problems.append("tags must be an array of strings, not \(value.kindName); left out")
            return []
        }
        var tags: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue else {
                problems.append("tags[\(index)] must be a string, not \(element.kindName); left out")
                continue
            }
            let plain = FeedText.plainText(text, stripTags: false)
            if !plain.isEmpty { tags.append(plain) }
        }
        return tags
    }

    private static func attachments(_ container: KeyedDecodingContainer<MemberKey>, _ problems: inout [String])
        -> [FeedItem.Attachment]
    {
        let key = MemberKey("attachments")
        guard container.contains(key), let value = try? container.decode(JSONValue.self, forKey: key),
            value != .null
        else { return [] }
        guard let array = value.arrayValue else {
            problems.append("attachments must be an array, not \(value.kindName); left out")
            return []
        }
        var attachments: [FeedItem.Attachment] = []
        for (index, element) in array.enumerated() {
            guard let members = element.objectValue, let url = members["url"]?.stringValue, !url.isEmpty else {
                problems.append("attachments[\(index)] has no url; left out")
                continue
            }
            var attachment = FeedItem.Attachment(url: url)
            attachment.mimeType = members["mime_type"]?.stringValue
            attachment.title = members["title"]?.stringValue
            if case .number(let size)? = members["size_in_bytes"], size >= 0, size < 9e15 {
                attachment.sizeInBytes = Int(size)
            }
            if case .number(let duration)? = members["duration_in_seconds"], duration >= 0, duration.isFinite {
                attachment.durationInSeconds = duration
            }
            attachments.append(attachment)
        }
        return attachments
    }
}
