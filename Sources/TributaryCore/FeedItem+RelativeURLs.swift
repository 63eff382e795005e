public import Foundation

extension FeedItem {
    /// Makes the item's relative URLs absolute against `base`: `url`, `external_url`, `image`, `banner_image`,
    /// every attachment's `url` and every author's `url` and `avatar`. Absolute URLs, empty strings and strings
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
    }
}

extension FeedItem {
    /// Leaves out every URL of the item that is not absolute (the fields of ``resolveRelativeURLs(against:)``; an
    /// attachment without an absolute URL is left out whole), for a source that has no web address to resolve
    /// them against, such as a feed read from a local file: a file's path is never a base, and SRC-5 asks for
    /// absolute URLs. Returns one line per URL left out, such as `url "/2003/a.html"`.
    public mutating func removeRelativeURLs() -> [String] {
        var removed: [String] = []
        func keep(_ string: String?, _ field: String) -> String? {
            guard let string, !string.isEmpty else { return string }
            if let scheme = URL(string: string)?.scheme, !scheme.isEmpty { return string }
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
        return removed
    }
}
