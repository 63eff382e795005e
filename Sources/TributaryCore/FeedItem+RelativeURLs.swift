public import Foundation

extension FeedItem {
    /// Makes the item's relative URLs absolute against `base`: `url`, `external_url`, `image`, `banner_image`,
    /// every attachment's `url`, every author's `url` and `avatar`, and `_tributary`'s links and comments. Absolute URLs, empty strings and strings
    /// that do not parse as URLs are left as they are.
    ///
    /// For adapters that read JSON Feed, whose items may hold URLs relative to the feed's `home_page_url`.
    public mutating func resolveRelativeURLs(against base: URL) {
        func resolve(_ string: String?) -> String? {
            guard let string, !string.isEmpty, let relative = URL(string: string), relative.scheme == nil,
                let absolute = URL(string: string, relativeTo: base)?.absoluteString
            else { return string }
            return absolute
        }
        url = resolve(url)
        externalURL = resolve(externalURL)
        image = resolve(image)
        bannerImage = resolve(bannerImage)
        for index in attachments.indices {
            attachments[index].url = resolve(attachments[index].url) ?? attachments[index].url
        }
        for index in authors.indices {
            authors[index].url = resolve(authors[index].url)
            authors[index].avatar = resolve(authors[index].avatar)
        }
        if var tributary, !tributary.links.isEmpty || tributary.comments != nil || tributary.commentsFeed != nil {
            for index in tributary.links.indices {
                tributary.links[index].url = resolve(tributary.links[index].url) ?? tributary.links[index].url
            }
            tributary.comments = resolve(tributary.comments)
            tributary.commentsFeed = resolve(tributary.commentsFeed)
            self.tributary = tributary
        }
    }
}

extension FeedItem {
    /// Leaves out every URL of the item that is not absolute (the fields of ``resolveRelativeURLs(against:)``, and the
    /// origin's and related links'; an attachment without an absolute URL is left out whole), for a source that has
    /// no web address to resolve them against, such as a feed read from a local file: a file's path is never a base,
    /// and SRC-5 asks for absolute URLs. Returns one line per URL left out, such as `url "/2003/a.html"`.
    public mutating func removeRelativeURLs() -> [String] {
        retainURLs { string in URL(string: string)?.scheme.map { !$0.isEmpty } ?? false }
    }

    /// The schemes no URL in any output may have: those that run code (`javascript:`, `vbscript:`), carry a whole
    /// document (`data:`) or reach the reader's own machine or browser (`file:`, `blob:`, `about:`, `chrome:`...).
    /// Every other absolute URI is kept as the feed gave it: an RSS guid or Atom id such as `tag:example.com,2005:1`,
    /// `urn:uuid:...` or YouTube's `yt:video:...` is an item's address when it has no link, as feedparser reads it.
    /// Keeping a URL is not linking it: the renderers link only http, https and mailto (`LinkPolicy` in Renderers)
    /// and show any other address as text; HTML content's URLs are the sanitizer's (`URLPolicy` in HTMLSanitizer).
    public static let unsafeSchemes: Set<String> = [
        "javascript", "vbscript", "livescript", "jscript", "mocha", "data", "file", "blob", "filesystem", "about",
        "view-source", "jar", "mhtml", "ms-its", "res", "resource", "chrome", "chrome-extension", "moz-extension",
        "safari-extension", "wyciwyg", "x-javascript",
    ]

    /// Whether `string` may stand as a URL in any output: relative (no scheme at all), or an absolute URI whose
    /// scheme is well formed (a letter, then letters, digits, `+`, `-`, `.`) and not one of ``unsafeSchemes``. The
    /// scheme is read as a browser reads it: leading spaces and controls, and tabs and line breaks anywhere, do not
    /// count, and case does not matter (` Java\tScript:x` is `javascript:`).
    public static func isSafeLink(_ string: String) -> Bool {
        if URLBytes.hasWebScheme(string) { return true }
        guard let scheme = scheme(of: string) else {
            // No colon before a path, query or fragment character: relative (`a/b:c`, `?q=a:b`), unless what
            // stands before the colon is no scheme at all (`java script:`), which is refused rather than guessed.
            return !hasMalformedScheme(string)
        }
        return !unsafeSchemes.contains(scheme)
    }

    /// Whether `string` is an absolute URI that ``isSafeLink(_:)`` keeps: what an identifier must be to stand as an
    /// item's address (`tag:`, `urn:`, `https:`...).
    public static func isAbsoluteSafeLink(_ string: String) -> Bool {
        if URLBytes.hasWebScheme(string) { return true }
        guard let scheme = scheme(of: string) else { return false }
        return !unsafeSchemes.contains(scheme)
    }

    /// The well-formed scheme `string` starts with, lower case, as a browser reads it; `nil` when it has none.
    static func scheme(of string: String) -> String? {
        var scheme: [UInt8] = []
        for byte in string.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D || (scheme.isEmpty && byte <= 0x20) { continue }
            if byte == UInt8(ascii: ":") {
                return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self)
            }
            let lower = byte | 0x20
            if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") {
                scheme.append(lower)
            } else if !scheme.isEmpty,
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            {
                scheme.append(byte)
            } else {
                return nil
            }
        }
        return nil
    }

    /// Whether a colon stands before any `/`, `?` or `#` in `string` although what precedes it is no well-formed
    /// scheme (`java script:x`, `1x:y`): such a string is neither a safe relative URL nor a known scheme.
    private static func hasMalformedScheme(_ string: String) -> Bool {
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return true
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return false
            default: continue
            }
        }
        return false
    }

    /// Leaves out every URL of the item that ``isSafeLink(_:)`` refuses (the fields of ``removeRelativeURLs()``, and
    /// the origin's icon and logo). Returns one line per URL left out, such as
    /// `url "javascript:alert(1)"`.
    public mutating func removeUnsafeURLs() -> [String] {
        retainURLs(where: Self.isSafeLink)
    }

    /// Keeps the item's URLs for which `keeps` holds and leaves out the others; one line per URL left out.
    ///
    /// Nearly every item keeps all of them, so each field is looked at before anything is changed: changing the
    /// item's ``TributaryExtension`` while a copy of the item shares it would copy its fields.
    private mutating func retainURLs(where keeps: (String) -> Bool) -> [String] {
        var removed: [String] = []
        /// Whether `string` is to be left out.
        func fails(_ string: String?) -> Bool {
            guard let string, !string.isEmpty else { return false }
            return !keeps(string)
        }
        /// Whether `string` is left out; notes it as `field` if so.
        func drops(_ string: String?, _ field: String) -> Bool {
            guard let string, fails(string) else { return false }
            removed.append("\(field) \"\(string.prefix(120))\"")
            return true
        }
        if drops(url, "url") { url = nil }
        if drops(externalURL, "external_url") { externalURL = nil }
        if drops(image, "image") { image = nil }
        if drops(bannerImage, "banner_image") { bannerImage = nil }
        if attachments.contains(where: { fails($0.url) }) {
            attachments = attachments.filter { !drops($0.url, "attachment url") }
        }
        for index in authors.indices {
            if drops(authors[index].url, "author url") { authors[index].url = nil }
            if drops(authors[index].avatar, "author avatar") { authors[index].avatar = nil }
        }
        guard let tributary else { return removed }
        // The origin is read in place: a copy of it would retain each of its fields.
        if tributary.origin != nil {
            if drops(tributary.origin?.url, "origin url") { self.tributary?.origin?.url = nil }
            if drops(tributary.origin?.icon, "origin icon") { self.tributary?.origin?.icon = nil }
            if drops(tributary.origin?.logo, "origin logo") { self.tributary?.origin?.logo = nil }
            if let links = tributary.origin?.links, links.contains(where: { fails($0.url) }) {
                self.tributary?.origin?.links = links.filter { !drops($0.url, "origin link url") }
            }
        }
        for (index, related) in tributary.related.enumerated() where drops(related.url, "related url") {
            self.tributary?.related[index].url = nil
        }
        if tributary.links.contains(where: { fails($0.url) }) {
            self.tributary?.links = tributary.links.filter { !drops($0.url, "link url") }
        }
        if drops(tributary.comments, "comments") { self.tributary?.comments = nil }
        if drops(tributary.commentsFeed, "comments_feed") { self.tributary?.commentsFeed = nil }
        return removed
    }
}
