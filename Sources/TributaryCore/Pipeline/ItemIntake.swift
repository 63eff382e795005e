import Foundation

/// The work on a source's items that needs nothing of the rest of the run: normalise (``Normaliser``), then keep
/// what passes the keyword filters (feeds.json's and the source's own) and `maxAge`.
///
/// A ``Pipeline`` does it in each source's own task, as the source sends a batch, so sources do it side by side;
/// the router, one task for the whole run, then does only what needs the whole run (deduplicate, cap, save).
/// Items served from the store (a `notModified` source) were normalised when they arrived and are only filtered.
struct ItemIntake: Sendable {
    /// A batch as the router receives it.
    struct Batch: Sendable {
        /// The normalised items that passed the filters, in the source's order.
        var items: [FeedItem]
        /// One warning for each URL normalising had to drop, in the items' order.
        var warnings: [SourceWarning]
    }

    private let sourceID: SourceID
    private let baseURL: URL?
    private let normaliser = Normaliser()
    private let globalFilter: KeywordFilter
    private let sourceFilter: KeywordFilter
    private let maxAge: Duration?
    private let now: @Sendable () -> Date

    init(source: PipelineSource, settings: PipelineSettings, globalFilter: KeywordFilter) {
        sourceID = source.id
        baseURL = source.baseURL
        self.globalFilter = globalFilter
        sourceFilter = KeywordFilter(include: source.include, exclude: source.exclude)
        maxAge = settings.maxAge
        now = settings.now
    }

    /// The items the run takes from a batch the source sent.
    func take(_ items: [FeedItem]) -> Batch {
        var batch = Batch(items: [], warnings: [])
        batch.items.reserveCapacity(items.count)
        let cutoff = self.cutoff()
        for item in items {
            let output = normaliser.normalise(item, from: sourceID, baseURL: baseURL)
            batch.warnings += output.warnings
            if allows(output.item, cutoff: cutoff) { batch.items.append(output.item) }
        }
        return batch
    }

    /// The stored items the run takes for a source that has not changed: filtered as they are.
    func takeStored(_ items: [FeedItem]) -> [FeedItem] {
        let cutoff = self.cutoff()
        return items.filter { allows($0, cutoff: cutoff) }
    }

    // MARK: - Private

    private func cutoff() -> Date? {
        maxAge.map { now().addingTimeInterval(-$0.timeInterval) }
    }

    private func allows(_ item: FeedItem, cutoff: Date?) -> Bool {
        guard globalFilter.allows(item), sourceFilter.allows(item) else { return false }
        if let cutoff, let date = item.ownDate, date < cutoff { return false }
        return true
    }
}
