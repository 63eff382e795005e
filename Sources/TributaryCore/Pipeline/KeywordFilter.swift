import Foundation

/// Keeps or drops items by keywords, as feeds.json's `include` and `exclude` say.
///
/// An item matches a keyword when its title, summary, `content_text` or one of its tags contains it, ignoring
/// case, diacritics and character width (so `cafe` matches `Café` and `ｓｗｉｆｔ` matches `Swift`). Keywords in any
/// script work (`日本`). Blank keywords are ignored.
public struct KeywordFilter: Sendable, Equatable {
    /// An item must match at least one of these (no constraint when empty).
    public let include: [String]
    /// An item matching any of these is dropped.
    public let exclude: [String]

    private let foldedInclude: [String]
    private let foldedExclude: [String]

    /// Creates a filter.
    public init(include: [String] = [], exclude: [String] = []) {
        self.include = include
        self.exclude = exclude
        foldedInclude = include.map(Self.fold).filter { !$0.isEmpty }
        foldedExclude = exclude.map(Self.fold).filter { !$0.isEmpty }
    }

    /// Whether the filter lets nothing through unexamined: no keywords at all.
    public var isEmpty: Bool { foldedInclude.isEmpty && foldedExclude.isEmpty }

    /// Whether `item` passes: it matches an include keyword (when there are any) and no exclude keyword.
    public func allows(_ item: FeedItem) -> Bool {
        if isEmpty { return true }
        let fields = ([item.title, item.summary, item.contentText].compactMap { $0 } + item.tags).map(Self.fold)
        func matches(_ keyword: String) -> Bool { fields.contains { $0.contains(keyword) } }
        if !foldedInclude.isEmpty, !foldedInclude.contains(where: matches) { return false }
        return !foldedExclude.contains(where: matches)
    }

    // MARK: - Private

    private static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
