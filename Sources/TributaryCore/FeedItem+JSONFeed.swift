extension FeedItem {
    /// The item as a valid JSON Feed 1.1 item: the specification requires `content_html` or `content_text`, and
    /// many feeds have items with neither (a headline and a link), so such an item gets its summary, else its
    /// title, else the empty string, as `content_text`. Every other field is unchanged.
    public func withRequiredContent() -> FeedItem {
        guard contentHTML == nil, contentText == nil else { return self }
        var item = self
        item.contentText = summary ?? title ?? ""
        return item
    }
}
