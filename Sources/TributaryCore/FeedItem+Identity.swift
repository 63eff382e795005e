extension FeedItem {
    /// A stable id for an item whose feed gave it none: its URL when it has one, otherwise a hash of its title and
    /// date (and content, when those are missing, and enclosures, when the title is), prefixed with `tributary:` so it
    /// can never collide with a URL. A podcast's episodes that have nothing but their enclosure (gpodder's test feeds)
    /// get one id each; without the enclosures they shared one, and deduplication kept one episode of all.
    ///
    /// The result depends only on the item's own fields, so the same item gets the same id on every run (rule
    /// SRC-2 of ``Source``).
    public func derivedID() -> String {
        if let url = url ?? externalURL, !url.isEmpty { return url }
        var material = title ?? ""
        material += "\u{1F}" + (datePublished.map(RFC3339.format) ?? "")
        if title == nil || datePublished == nil {
            material += "\u{1F}" + (contentHTML ?? contentText ?? summary ?? "")
            // Only for an item without a title, so that every other item keeps the id it had.
            if title == nil {
                for attachment in attachments { material += "\u{1F}" + attachment.url }
            }
        }
        return "tributary:" + StableHash.hex(of: material)
    }
}

/// A 64-bit FNV-1a hash: tiny, fast and, unlike `Hasher`, the same in every process.
public enum StableHash {
    /// The hash of a string's UTF-8 bytes as 16 lower-case hex digits.
    public static func hex(of string: String) -> String {
        let value = fnv1a(string.utf8)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The 64-bit FNV-1a hash of a byte sequence.
    public static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
