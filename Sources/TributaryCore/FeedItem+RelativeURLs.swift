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

    /// The schemes a link in any output may have: the web's and e-mail's. `javascript:`, `vbscript:`, `data:`,
    /// `file:` and the rest are not links a reader should be handed, whatever output carries them.
    public static let linkSchemes: Set<String> = ["http", "https", "mailto"]

    /// Whether `string` is a link with one of ``linkSchemes`` (or relative: no scheme at all).
    public static func isSafeLink(_ string: String) -> Bool {
        if URLBytes.hasWebScheme(string) { return true }
        guard let colon = string.firstIndex(of: ":") else { return true }
        let scheme = string[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // A colon after a path, query or fragment character is not a scheme's (`a/b:c`, `?q=a:b`).
        if scheme.contains(where: { "/?#".contains($0) }) { return true }
        return linkSchemes.contains(scheme)
    }

    /// Leaves out every URL of the item whose scheme is not http, https or mailto (the fields of
    /// ``removeRelativeURLs()``, and the origin's icon and logo). Returns one line per URL left out, such as
    /// `url "javascript:alert(1)"`.
    public mutating func removeUnsafeURLs() -> [String] {
        retainURLs(where: Self.isSafeLink)
    }

    /// Keeps the item's URLs for which `keeps` holds and leaves out the others; one line per URL left out.
    private mutating func retainURLs(where keeps: (String) -> Bool) -> [String] {
        var removed: [String] = []
        func keep(_ string: String?, _ field: String) -> String? {
            guard let string, !string.isEmpty, !keeps(string) else { return string }
            removed.append("\(field) \"\(string.prefix(120))\"")
            return nil
        }
        url = keep(url, "url")
        externalURL = keep(externalURL, "external_url")
        image = keep(image, "image")
        bannerImage = keep(bannerImage, "banner_image")
        attachments = attachments.filter { keep($0.url, "attachment url") != nil }
        for index in authors.indices {
            authors[index].url = keep(authors[index].url, "author url")
            authors[index].avatar = keep(authors[index].avatar, "author avatar")
        }
        if var tributary {
            if var origin = tributary.origin {
                origin.url = keep(origin.url, "origin url")
                origin.icon = keep(origin.icon, "origin icon")
                origin.logo = keep(origin.logo, "origin logo")
                tributary.origin = origin
            }
            for index in tributary.related.indices {
                tributary.related[index].url = keep(tributary.related[index].url, "related url")
            }
            tributary.links = tributary.links.filter { keep($0.url, "link url") != nil }
            tributary.comments = keep(tributary.comments, "comments")
            tributary.commentsFeed = keep(tributary.commentsFeed, "comments_feed")
            self.tributary = tributary
        }
        return removed
    }
}
