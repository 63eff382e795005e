public import Foundation

/// Settings that apply to every source of a ``Pipeline`` run.
public struct PipelineSettings: Sendable {
    /// Items whose date (`date_published`, else `date_modified`) is older than `now - maxAge` are dropped; undated
    /// items are kept.
    public var maxAge: Duration?
    /// Keep at most the newest this many items per source, unless the source sets its own `maxItems`.
    public var maxItemsPerSource: Int?
    /// Global keywords: an item must contain one of them (empty: no constraint).
    public var include: [String]
    /// Global keywords: an item containing any of them is dropped.
    public var exclude: [String]
    /// The timeout of a source that sets none.
    public var defaultTimeout: Duration
    /// The wall clock: the reference for `maxAge` and the time items are seen.
    public var now: @Sendable () -> Date
    /// Whether the run holds every kept item whole until it ends (``PipelineResult/items``). `false` holds only
    /// each item's outline once the store has saved the item (``PipelineResult/outlines``), for runs whose digest
    /// reads the items back from the store: memory then stays flat in the number of items. `true` by default.
    public var holdsItems: Bool = true
    /// Whether the router goes on deciding batches while the store writes, so that deciding and writing run side by
    /// side: one write on its way at a time, the batches that queue up behind it written together next, in order.
    /// Events still come in the order they were decided, each batch's once the store has it, but that is seen only
    /// when a later batch comes or the run ends: for one-shot runs (``AggregationRun``), not for `watch`, whose
    /// events must show as they happen. Off by default.
    public var overlapsSaves: Bool = false
    /// Whether the run's events carry its items (``PipelineEvent/itemsAdded(_:)``, `itemsUpdated`, `itemsRemoved`).
    /// `false` for a run whose listener shows only statuses and warnings (the progress lines of `digest`): the
    /// router then neither takes the saved items back from the store's answer nor builds events of them, work a
    /// 1,000-feed run did 50,000 times for nobody. `true` by default.
    public var publishesItems: Bool = true
    /// The most sources a one-shot run has going at once; the others wait for a turn, which is not charged to their
    /// timeout. Each running source holds its response, its parser and a batch of items, so this bounds a run's
    /// memory whatever the number of feeds. `nil` (the default) runs every source at once, as `watch` needs for
    /// sources that never end.
    public var maxConcurrentSources: Int?

    /// Creates settings; the defaults keep everything and give each source 60 seconds.
    public init(
        maxAge: Duration? = nil,
        maxItemsPerSource: Int? = nil,
        include: [String] = [],
        exclude: [String] = [],
        defaultTimeout: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxAge = maxAge
        self.maxItemsPerSource = maxItemsPerSource
        self.include = include
        self.exclude = exclude
        self.defaultTimeout = defaultTimeout
        self.now = now
    }

    /// Items kept per source when feeds.json sets no `maxItemsPerSource`: far more than any real feed holds at
    /// once (a podcast's whole archive fits), few enough that a hostile feed of 700,000 tiny items cannot take
    /// gigabytes. The newest are kept and a warning names the cap and the key that raises it.
    public static let defaultMaxItemsPerSource = 5000

    /// The most sources `digest` and `summary` fetch at once: enough to keep any network busy (sfeed's default is
    /// 16, and hosts are limited further by `maxConnectionsPerHost`), few enough that memory stays flat.
    public static let defaultMaxConcurrentSources = 64

    /// How many turns of ``defaultMaxConcurrentSources`` a one-shot run of `sources` sources takes (at least one).
    public static func turns(for sources: Int) -> Int {
        max(1, (sources + defaultMaxConcurrentSources - 1) / defaultMaxConcurrentSources)
    }

    /// Creates settings from feeds.json's top-level keys (`maxAge`, `maxItemsPerSource`, `include`, `exclude`),
    /// with ``defaultMaxItemsPerSource`` when it sets no cap.
    public init(configuration: FeedsConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(
            maxAge: configuration.maxAge,
            maxItemsPerSource: configuration.maxItemsPerSource ?? Self.defaultMaxItemsPerSource,
            include: configuration.include,
            exclude: configuration.exclude,
            now: now
        )
    }
}
