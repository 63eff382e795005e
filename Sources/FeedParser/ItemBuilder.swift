import Foundation
import HTMLSanitizer
import TributaryCore

/// The raw fields of one RSS item or Atom entry, collected while its element is open and turned into a
/// ``FeedItem`` when it closes.
struct ItemBuilder {
    var guid: String?
    var guidIsPermaLink = true
    var atomID: String?
    /// RSS 1.0's `<item rdf:about>`: the item's URI, its id when there is no guid.
    var rdfAbout: String?
    var link: String?
    var alternateLink: String?
    var firstAtomLink: String?
    var title: String?
    /// HTML, already unescaped once more when it was escaped twice.
    var description: String?
    var contentEncoded: String?
    var atomContentHTML: String?
    var atomContentText: String?
    var summary: String?
    var published: Date?
    var dcDate: Date?
    var updated: Date?
    var authors: [FeedItem.Author] = []
    var tags: [String] = []
    var thumbnail: String?
    var itunesImage: String?
    var attachments: [FeedItem.Attachment] = []
    var itunesDuration: Double?
    var origin: TributaryExtension.Origin?

    /// HTML from a text node, unescaped once more when it was escaped twice (Fixtures/double-escaped-description-*).
    static func html(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        FeedText.isDoubleEscaped(bytes)
            ? String(decoding: FeedText.decodeEntities(bytes), as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
    }

    /// Builds the normalised item; `sourceID` is stamped on it, and `content_html` goes through `sanitizer` (when
    /// there is one), any URL still relative resolved against `baseURL` (the feed's URL).
    ///
    /// Mutating: the fields the item needs are moved into it (`take()`), leaving the builder spent, so an item is
    /// built where it lies (in an array, through its buffer) without a copy of every field first and a release of
    /// every field after: some forty reference counts per item otherwise.
    mutating func build(sourceID: SourceID, sanitizer: HTMLSanitizer?, baseURL: URL?) -> FeedItem {
        let url = alternateLink.take() ?? link.take() ?? firstAtomLink.take() ?? permaLinkGUID
        var item = FeedItem(id: "", url: url, title: title.take())
        if let contentEncoded = contentEncoded.take() {
            item.contentHTML = contentEncoded
            if var description = description.take(), !description.isEmpty {
                item.summary = description.withUTF8 { FeedText.plainText($0) }
            }
        } else if let atomContentHTML = atomContentHTML.take() {
            item.contentHTML = atomContentHTML
        } else if let description = description.take() {
            item.contentHTML = description
        }
        if let sanitizer { item.sanitizeContent(with: sanitizer, baseURL: baseURL) }
        if let atomContentText = atomContentText.take() { item.contentText = atomContentText }
        if let summary = summary.take() {
            if item.contentHTML == nil, item.contentText == nil {
                item.contentText = summary
            } else {
                item.summary = summary
            }
        }
        item.datePublished = published ?? dcDate ?? updated
        if let updated, updated != item.datePublished { item.dateModified = updated }
        swap(&item.authors, &authors)
        swap(&item.tags, &tags)
        swap(&item.attachments, &attachments)
        if let itunesDuration, let index = item.attachments.firstIndex(where: { $0.durationInSeconds == nil }) {
            item.attachments[index].durationInSeconds = itunesDuration
        }
        item.image =
            thumbnail.take() ?? itunesImage.take()
            ?? item.attachments.first(where: { $0.mimeType?.hasPrefix("image/") == true })?.url
        let originalID = guid.take() ?? atomID.take() ?? rdfAbout.take()
        item.tributary = TributaryExtension(source: sourceID, origin: origin.take(), guid: originalID)
        if let originalID, !originalID.isEmpty {
            item.id = originalID
        } else {
            item.id = item.derivedID()
        }
        return item
    }

    private var permaLinkGUID: String? {
        guard guidIsPermaLink, let guid, guid.hasPrefix("http://") || guid.hasPrefix("https://") else { return nil }
        return guid
    }

    /// Adds an attachment unless one with the same URL is already there (an enclosure repeated as media:content).
    mutating func addAttachment(_ attachment: FeedItem.Attachment) {
        if let index = attachments.firstIndex(where: { $0.url == attachment.url }) {
            attachments[index].mimeType = attachments[index].mimeType ?? attachment.mimeType
            attachments[index].sizeInBytes = attachments[index].sizeInBytes ?? attachment.sizeInBytes
            attachments[index].durationInSeconds =
                attachments[index].durationInSeconds ?? attachment.durationInSeconds
        } else {
            attachments.append(attachment)
        }
    }
}
