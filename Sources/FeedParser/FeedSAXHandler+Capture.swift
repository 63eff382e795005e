import CLibXML2
import Foundation
import HTMLSanitizer
import TributaryCore

/// Capturing an element's text and reading it as the field's text type says (text, HTML, XHTML, base64), with the `xml:base` in force.
extension FeedSAXHandler {
    func textType(_ kind: ElementKind, _ attributes: Attributes) -> TextType {
        switch kind {
        case .atomTitle, .atomContent, .atomSummary, .atomSubtitle, .rights, .atomInfo:
            if let mode = attributes.value("mode") {  // Atom 0.3
                // `escaped` says how the text is written, not what it is: the type says that (text by default, as
                // feedparser reads it), and `So &lt;a href=...&gt;` in a `text/plain` title is text about a tag.
                if mode == "xml" { return .xhtml }
                if mode == "base64" {
                    // What the decoded text is: HTML when the type says so (read as escaped HTML), else text.
                    let type = attributes.value("type")?.lowercased()
                    base64Type =
                        type == "html" || type == "text/html" || type?.hasSuffix("xhtml+xml") == true
                            || type == "xhtml" ? .html : .text
                    return .base64
                }
            }
            switch attributes.value("type") {
            case "html", "text/html": return .html
            case "xhtml", "application/xhtml+xml": return .xhtml
            case nil, "text", "text/plain": return attributes.value("mode") == "xml" ? .xhtml : .text
            case let type?:
                // Atom 1.0 (RFC 4287 3.1.1.3): any other media type that is not text or XML is base64-encoded.
                let lowered = type.lowercased()
                let isXML = lowered.hasSuffix("+xml") || lowered.hasSuffix("/xml")
                if lowered != "text", !lowered.hasPrefix("text/"), !isXML, lowered.contains("/") {
                    return .base64
                }
                if attributes.value("mode") == "xml" { return .xhtml }
                // Content in another XML vocabulary is data for a program, not text for a reader (4.1.3.3).
                return kind == .atomContent && isXML ? .opaque : .text
            }
        case .description, .dcDescription, .contentEncoded, .itunesSummary, .title, .dcTitle, .fullitem:
            return .html
        case .xhtmlBody:
            return .xhtml
        case .mediaTitle:
            // Media RSS says plain by default, but in RSS feeds write HTML there as in an RSS title, and feedparser
            // reads it so; an explicit type, and Atom (YouTube), keep their text as written.
            switch attributes.value("type") {
            case "html": return .html
            case nil where format != .atom10 && format != .atom03: return .html
            default: return .text
            }
        default:
            return .text
        }
    }

    func beginCapture(_ kind: ElementKind, scope: Scope, depth: Int, type: TextType) {
        capturing = kind
        captureScope = scope
        captureDepth = depth
        captureType = type
        captureBaseCount = stack[depth].baseCount
        if contextsSeen {
            captureContext =
                languages.isEmpty && captureBaseCount == 0
                ? nil
                : FieldContext(
                    language: languages.isEmpty ? nil : currentLanguage ?? "",
                    base: captureBaseCount > 0 ? bases[captureBaseCount - 1] : nil
                )
            if scope == .item { item.fieldContext = captureContext }
        }
        if !languages.isEmpty, kind.isProse, let language = currentLanguage {
            // An `xml:lang` on a text field (`<content xml:lang="en">`, Daring Fireball) is the item's or feed's
            // language when nothing above it named one: the HTML digest gives it to the item (`lang`, which picks
            // Japanese or Chinese glyphs). feedparser gives such an item no language; the field keeps its own either
            // way. An identifier's or a date's `xml:lang` says nothing about the item's.
            if scope == .item, item.language == nil {
                item.language = language
            } else if scope == .channel, channelXMLLang == nil {
                channelXMLLang = language
            }
        }
        xhtmlWrapperDepth = -1
        authorNameDepth = -1
        truncated = false
        text.removeAll()
    }

    func truncate(adding buffer: UnsafeBufferPointer<UInt8>) {
        let room = max(0, options.maxTextBytes - text.count)
        var end = min(room, buffer.count)
        // Do not cut a UTF-8 sequence in half.
        while end > 0, end < buffer.count, buffer[end] & 0xC0 == 0x80 { end -= 1 }
        text.append(UnsafeBufferPointer(rebasing: buffer[..<end]))
        truncated = true
        warn("a text node was longer than the budget of \(options.maxTextBytes) bytes and was truncated")
    }

    func finishCapture() {
        guard let kind = capturing else { return }
        capturing = nil
        if captureType == .base64 { decodeBase64(kind) }
        if captureType == .opaque {
            text.removeAll()
            captureType = .text
        }
        defer { (captureAttribute, captureLabel) = (nil, nil) }
        // Item fields kept as ``RawText`` are repaired when the item is built, off the parsing thread; the others
        // (an item's authors, categories and source as well) here.
        if captureScope != .item || Self.isReadAtOnce(kind), let repaired = FeedText.repairedEncoding(text.bytes) {
            text.removeAll()
            text.append(repaired)
        }
        switch captureScope {
        case .item:
            if captureType == .html || captureType == .xhtml, let limit = options.sanitizer?.options.maximumInputBytes,
                text.count > limit
            {
                // Cut without a word, a post of 2.4 MB (mostly inlined CSS: Feeder's saved Londoner feed) lost its end.
                warn(
                    "an item's HTML is \(text.count) bytes long; only its first \(limit) bytes are shown (the most "
                        + "HTML an item's field is read to, to bound the work on hostile input)"
                )
            }
            finishItemField(kind)
            if contextsSeen { item.fieldContext = nil }
        case .channel: finishChannelField(kind)
        case .author:
            let value = trimmedText()
            guard !value.isEmpty else { return }
            switch kind {
            case .atomName: author?.name = FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
            case .atomEmail: author?.email = value
            default: author?.url = resolve(value, baseCount: captureBaseCount)
            }
        case .origin:
            finishOriginField(kind)
        case .channelImage:
            let value = trimmedText()
            guard !value.isEmpty else { return }
            switch kind {
            case .url:
                if channelImage == nil { channelImage = resolve(value, baseCount: captureBaseCount) }
            case .link:
                channelExtras.image["link"] = resolve(value, baseCount: captureBaseCount)
            case .width, .height:
                channelExtras.image[kind == .width ? "width" : "height"] = value
            default:
                channelExtras.image[kind == .title ? "title" : "description"] = FeedText.plainText(text.bytes)
            }
        case .textInput:
            let value = trimmedText()
            guard !value.isEmpty else { return }
            switch kind {
            case .link: channelExtras.textInput["link"] = resolve(value, baseCount: captureBaseCount)
            case .name: channelExtras.textInput["name"] = value
            case .title: channelExtras.textInput["title"] = FeedText.plainText(text.bytes)
            default: channelExtras.textInput["description"] = FeedText.plainText(text.bytes)
            }
        }
    }

    /// Replaces base64 text by what it encodes; it is then read as text. Only real base64 is decoded (white space
    /// aside, nothing but the base64 alphabet, and UTF-8 text inside): a title whose `type` is a media type we do not
    /// know but that holds plain words stays as written instead of becoming garbage. Content that is real base64 of
    /// something other than text (an image) is ``TextType/opaque``.
    func decodeBase64(_ kind: ElementKind) {
        captureType = base64Type
        base64Type = .text
        var encoded = String(decoding: text.bytes, as: UTF8.self)
        encoded.removeAll { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let data = Data(base64Encoded: encoded), !data.isEmpty else { return }
        guard data.withUnsafeBytes({ UTF8Sanitizer.isValid($0.bindMemory(to: UInt8.self)) }) else {
            if kind == .atomContent { captureType = .opaque }
            return
        }
        text.removeAll()
        text.append(Array(data))
    }

    func plainTitle(of kind: ElementKind) -> String {
        FeedText.withoutFormatControls(
            capturedTitleIsMarkup(kind)
                ? FeedText.plainText(text.bytes)
                : FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
        )
    }

    /// An RSS title, `dc:title` or `media:title`: a title whose type its format leaves unsaid.
    static func isUntypedTitle(_ kind: ElementKind?) -> Bool {
        kind == .title || kind == .dcTitle || kind == .mediaTitle
    }

    /// Whether the capture is a title whose type is unsaid (``isUntypedTitle(_:)``), read as HTML: it is made plain,
    /// as HTML only when it looks like HTML (``capturedTitleIsMarkup(_:)``). Its child elements give only their text:
    /// written as tags, one that is no HTML element (`<title>cast<char>(0xFE)</char></title>`, newsboat's tests)
    /// would be shown as text, since only HTML's elements are markup in a title.
    var capturesRSSTitle: Bool { captureType == .html && Self.isUntypedTitle(capturing) }

    /// Whether a captured title is HTML, to be made plain, rather than text as written. Atom and an explicit type
    /// say which. An RSS title (RSS leaves its type unsaid) is HTML only when it looks like HTML, as feedparser
    /// guesses (``FeedText/looksLikeHTML(_:)``: an end tag or a character reference, and only HTML's elements):
    /// `History of the &lt;blink&gt; tag` is a title about a tag and keeps it, `Using &lt;b&gt;bold&lt;/b&gt;` is
    /// markup.
    func capturedTitleIsMarkup(_ kind: ElementKind) -> Bool {
        switch captureType {
        case .text:
            return false
        case .html where Self.isUntypedTitle(kind):
            return FeedText.looksLikeHTML(text.bytes)
        default:
            return true
        }
    }

    /// The captured text of a plain-text element as written, white space collapsed: the XML parser has already
    /// decoded its references, so `<` and `&` are characters of the text, not markup. An author's
    /// `Name <a@b.example>` is text to split, and a category `&lt;canvas&gt;` (a web developer's tag) is the tag
    /// `<canvas>`, as feedparser and gofeed read it.
    func textAsWritten() -> String {
        FeedText.plainText(text.bytes, stripTags: false, decodeEntities: false)
    }

    func trimmedText() -> String {
        FeedText.trimmed(text.bytes)
    }

    /// The captured text, kept in the item to be read as `reading` when it is built (see ``RawText``).
    func rawText(_ reading: RawText.Reading) -> RawText {
        item.keep(text.bytes, as: reading)
    }

    /// The captured text without the white space around it, kept in the item to be read as `reading`; `nil` when
    /// nothing is left.
    func trimmedRawText(_ reading: RawText.Reading) -> RawText? {
        let bytes = text.bytes
        let kept = FeedText.trimmedRange(bytes)
        guard !kept.isEmpty else { return nil }
        return item.keep(UnsafeBufferPointer(rebasing: bytes[kept]), as: reading)
    }

    /// What relative links in the captured HTML resolve against; `nil` when there is no base at all (they are
    /// then left as written).
    func linkBase() -> RawText.LinkBase? {
        guard captureBaseCount > 0 || baseURLString != nil else { return nil }
        return RawText.LinkBase(base: urlBase(captureBaseCount))
    }

    /// The base URL in effect `baseCount` entries into the `xml:base` chain, else the feed URL, split (and kept for
    /// the next reference); `nil` when there is none or it cannot be a base.
    func urlBase(_ baseCount: Int) -> URLResolver.Base? {
        guard let base = baseString(baseCount) else { return nil }
        if resolverBase?.string != base { resolverBase = URLResolver.Base(base) }
        return resolverBase
    }

    func parseDate() -> Date? {
        FeedDate.parse(bytes: text.bytes)
    }

    /// An `xml:base` value resolved against the chain in effect; `nil` for one that cannot be a base (a `javascript:`
    /// URL), which is ignored as feedparser ignores it. `http:///example.com/` (a slash too many) is read as
    /// `http://example.com/`, as feedparser reads it.
    func xmlBase(_ value: String, baseCount: Int) -> String? {
        var resolved = resolve(value, baseCount: baseCount)
        guard FeedItem.isSafeLink(resolved) else { return nil }
        for scheme in ["http:///", "https:///"] where resolved.hasPrefix(scheme) {
            let rest = resolved.dropFirst(scheme.count).drop { $0 == "/" }
            resolved = String(scheme.dropLast()) + rest
        }
        return resolved
    }

    /// Resolves a URL reference against the `xml:base` chain in effect, then the feed URL
    /// (``RawText/LinkBase/resolve(_:)``).
    func resolve(_ reference: String, baseCount: Int) -> String {
        RawText.LinkBase(base: urlBase(baseCount)).resolve(reference)
    }

    /// The base URL in effect `baseCount` entries into the `xml:base` chain, else the feed URL.
    func baseString(_ baseCount: Int) -> String? {
        baseCount > 0 && baseCount <= bases.count ? bases[baseCount - 1] : baseURLString
    }

    /// The value trimmed, `nil` when it is missing or nothing is left (an attribute written blank is none).
    static func nonBlank(_ value: String?) -> String? {
        value.map(FeedText.trimmed).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether an item field is read from the captured text when its element ends (not kept as ``RawText``).
    static func isReadAtOnce(_ kind: ElementKind) -> Bool {
        switch kind {
        case .author, .dcCreator, .itunesAuthor, .category, .dcSubject, .itunesKeywords, .source, .dcPublisher,
            .dcContributor:
            true
        default: false
        }
    }
}
