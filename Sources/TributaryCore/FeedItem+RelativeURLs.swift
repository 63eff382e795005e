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
