public import Foundation

/// One configured source, ready for the ``Pipeline`` to run: the adapter plus the keys every source may have.
public struct PipelineSource: Sendable {
    /// The adapter instance.
    public var source: any Source
    /// The adapter's `kind`, for statuses.
    public var kind: String
    /// The display name from feeds.json.
    public var title: String?
    /// Keywords an item of this source must contain one of (empty: no constraint).
    public var include: [String]
    /// Keywords that drop an item of this source.
    public var exclude: [String]
    /// Keep at most the newest this many items of this source; ``PipelineSettings/maxItemsPerSource`` when `nil`.
    public var maxItems: Int?
    /// How long the source may run; ``PipelineSettings/defaultTimeout`` when `nil`.
    public var timeout: Duration?
    /// The URL relative item URLs resolve against when the item's own URL cannot serve (a feed's address); an
    /// unresolvable relative URL is dropped with a warning.
    public var baseURL: URL?

    /// Creates a pipeline source.
    public init(
        source: any Source,
        kind: String,
        title: String? = nil,
        include: [String] = [],
        exclude: [String] = [],
        maxItems: Int? = nil,
        timeout: Duration? = nil,
        baseURL: URL? = nil
    ) {
        self.source = source
        self.kind = kind
        self.title = title
        self.include = include
        self.exclude = exclude
        self.maxItems = maxItems
        self.timeout = timeout
        self.baseURL = baseURL
    }

    /// Creates a pipeline source from its feeds.json entry, copying the common keys (`kind`, `title`, `include`,
    /// `exclude`, `maxItems`, `timeout`).
    public init(source: any Source, configuration: SourceConfiguration) {
        self.init(
            source: source,
            kind: configuration.kind,
            title: configuration.title,
            include: configuration.include,
            exclude: configuration.exclude,
            maxItems: configuration.maxItems,
            timeout: configuration.timeout
        )
    }

    /// The source's id.
    public var id: SourceID { source.id }
}
