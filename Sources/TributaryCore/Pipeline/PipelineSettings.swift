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
