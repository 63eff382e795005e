/// The text of an item field as the feed gave it, made into a `String` only when the item is built.
///
/// The long fields (titles, descriptions, content, summaries) are kept as the bytes libxml2 delivered, with what
/// reading them takes: validating the UTF-8, stripping tags, resolving relative links. Items are built on whichever
/// thread is ahead (see ``PendingFeedItem``), so this work leaves the parsing thread whenever the other one has time
/// for it. ``string()`` gives exactly what the SAX handler would have made of the bytes at once.
struct RawText: Sendable {
    /// How the bytes are read.
    enum Reading: Sendable {
        /// As written.
        case verbatim
        /// Without the white space around it.
        case trimmed
        /// Plain text: from HTML (`markup`), tags stripped and references decoded; else only white space collapsed.
        case plainText(markup: Bool)
        /// HTML: unescaped once more when it was escaped twice (RSS descriptions, `unescapingTwice`), and its
        /// relative `href` and `src` values resolved when there is a ``LinkBase``.
        case html(unescapingTwice: Bool, links: LinkBase?)
    }

    /// What relative links in HTML resolve against: the `xml:base` in effect for the element, else the feed's URL.
    struct LinkBase: Sendable {
        /// The base, split; `nil` when it is not an absolute hierarchical URL (links are then only trimmed).
        var base: URLResolver.Base?

        /// `reference` resolved, as ``FeedSAXHandler`` resolves URL references.
        func resolve(_ reference: String) -> String {
            let reference = FeedSAXHandler.trimmed(reference)
            if FeedSAXHandler.hasScheme(reference) { return reference }
            return base?.resolve(reference) ?? reference
        }
    }

    private let bytes: [UInt8]
    private let reading: Reading

    init(_ bytes: UnsafeBufferPointer<UInt8>, reading: Reading) {
        self.bytes = Array(bytes)
        self.reading = reading
    }

    /// The text, read.
    consuming func string() -> String {
        switch reading {
        case .verbatim, .html:
            return String(decoding: utf8(), as: UTF8.self)
        case .trimmed:
            return bytes.withUnsafeBufferPointer { FeedText.trimmed($0) }
        case .plainText(let markup):
            return bytes.withUnsafeBufferPointer {
                FeedText.plainText($0, stripTags: markup, decodeEntities: markup)
            }
        }
    }

    /// The text, read, as UTF-8 (valid: libxml2 delivers nothing else, and the readings keep it so). The bytes are
    /// handed on without a copy when the reading changes nothing.
    consuming func utf8() -> [UInt8] {
        switch reading {
        case .verbatim:
            return bytes
        case .trimmed, .plainText:
            return Array(string().utf8)
        case .html(let unescapingTwice, let links):
            let html = bytes.withUnsafeBufferPointer { bytes in
                unescapingTwice && FeedText.isDoubleEscaped(bytes) ? FeedText.decodeEntities(bytes) : nil
            }
            guard let links else { return html ?? bytes }
            let resolved = (html ?? bytes).withUnsafeBufferPointer {
                FeedText.resolvingRelativeURLs(in: $0, links.resolve)
            }
            return resolved ?? html ?? bytes
        }
    }
}
