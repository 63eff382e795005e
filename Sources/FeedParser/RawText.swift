import TributaryCore

/// The text of an item field as the feed gave it, made into a `String` only when the item is built.
///
/// The text fields of an item (title, link, guid, description, content, summary) are kept as the bytes libxml2
/// delivered, one after another in the item's ``ItemBuilder/text`` (one allocation per item, not one per field),
/// with what reading them takes: validating the UTF-8, stripping tags, resolving relative links. Items are built on
/// whichever thread is ahead (see ``PendingFeedItem``), so this work leaves the parsing thread whenever the other one
/// has time for it. Reading gives exactly what the SAX handler would have made of the bytes at once.
struct RawText: Sendable {
    /// How the bytes are read.
    enum Reading: Sendable {
        /// As written.
        case verbatim
        /// Without the white space around it.
        case trimmed
        /// Plain text: from HTML (`markup`), tags stripped and references decoded; else only white space collapsed.
        case plainText(markup: Bool)
        /// HTML, its relative `href` and `src` values resolved when there is a ``LinkBase``. HTML escaped twice
        /// (`&amp;lt;p&amp;gt;`) stays escaped markup, shown as text, as browsers, feedparser and gofeed show it:
        /// it is also how a post names a tag (`Use &lt;p&gt; for paragraphs` in a CDATA section).
        case html(links: LinkBase?)
        /// A URL reference, resolved against the base.
        case url(LinkBase)
    }

    /// What relative links resolve against: the `xml:base` in effect for the element, else the feed's URL.
    struct LinkBase: Sendable {
        /// The base, split; `nil` when there is none or it is not an absolute hierarchical URL (references are then
        /// only trimmed).
        var base: URLResolver.Base?

        /// `reference` trimmed and resolved: every URL reference of a feed is read here. An ampersand escaped
        /// twice (`?tur=ownCloud&amp;amp;id=295` in the feed, so `&amp;id` once read) is one ampersand, as
        /// feedparser reads it: left as it is, the server would get a parameter named `amp;id`.
        func resolve(_ reference: String) -> String {
            var reference = FeedText.trimmed(reference)
            if Self.holdsEscapedAmpersand(&reference) {
                reference = reference.replacing("&amp;", with: "&")
            }
            if FeedText.hasScheme(reference) { return reference }
            return base?.resolve(reference) ?? reference
        }

        /// Whether `text` holds `&amp;`, looked for in its contiguous bytes: through the UTF-8 view, the search for
        /// a `&` alone was 5% of `parse` on a feed of long links (Google News').
        private static func holdsEscapedAmpersand(_ text: inout String) -> Bool {
            text.withUTF8 { bytes in
                guard bytes.count >= 5 else { return false }
                for index in 0...(bytes.count - 5) where bytes[index] == 0x26 {
                    if bytes[index + 1] == 0x61, bytes[index + 2] == 0x6D, bytes[index + 3] == 0x70,
                        bytes[index + 4] == 0x3B
                    {
                        return true
                    }
                }
                return false
            }
        }
    }

    /// Where the bytes are in the item's text.
    let range: Range<Int>
    let reading: Reading

    /// The text, read from `bytes` (the item's text).
    func string(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let own = UnsafeBufferPointer(rebasing: bytes[range])
        switch reading {
        case .verbatim:
            return String(decoding: own, as: UTF8.self)
        case .trimmed:
            return FeedText.trimmed(own)
        case .plainText(let markup):
            // Plain text (titles, summaries, rights) is repaired and leaves without bidi overrides.
            func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
                FeedText.withoutFormatControls(FeedText.plainText(bytes, stripTags: markup, decodeEntities: markup))
            }
            return FeedText.repairedEncoding(own).map { $0.withUnsafeBufferPointer(plain) } ?? plain(own)
        case .html:
            return withUTF8(in: bytes) { String(decoding: $0, as: UTF8.self) }
        case .url(let links):
            return links.resolve(String(decoding: own, as: UTF8.self))
        }
    }

    /// Calls `body` with the text, read, as UTF-8 (valid: libxml2 delivers nothing else, and the readings keep it
    /// so); in place in `bytes` when the reading changes nothing.
    func withUTF8<Result>(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let own = UnsafeBufferPointer(rebasing: bytes[range])
        switch reading {
        case .verbatim:
            return body(own)
        case .trimmed, .plainText, .url:
            return Array(string(in: bytes).utf8).withUnsafeBufferPointer(body)
        case .html:
            if let repaired = FeedText.repairedEncoding(own) {
                let reread = RawText(range: 0..<repaired.count, reading: reading)
                return repaired.withUnsafeBufferPointer { reread.withUTF8Repaired(in: $0, body) }
            }
            return withUTF8Repaired(in: bytes, body)
        }
    }

    /// ``withUTF8(in:_:)`` for HTML whose encoding is already repaired.
    private func withUTF8Repaired<Result>(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let own = UnsafeBufferPointer(rebasing: bytes[range])
        switch reading {
        case .verbatim, .trimmed, .plainText, .url:
            return body(own)
        case .html(let links):
            if let links, let resolved = FeedText.resolvingRelativeURLs(in: own, links.resolve) {
                return resolved.withUnsafeBufferPointer(body)
            }
            return body(own)
        }
    }
}
