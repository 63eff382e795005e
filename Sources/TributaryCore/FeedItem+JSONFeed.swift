extension FeedItem {
    /// The item as a valid JSON Feed 1.1 item: the specification requires `content_html` or `content_text`, and
    /// many feeds have items with neither (a headline and a link), so such an item gets the empty string as
    /// `content_text`: "no content", without repeating its title or summary as if it were the body (a reader
    /// comparing fields with other parsers, or showing the body under the title, would see it twice). Every other
    /// field is unchanged.
    public func withRequiredContent() -> FeedItem {
        guard contentHTML == nil, contentText == nil else { return self }
        var item = self
        item.contentText = ""
        return item
    }
}
