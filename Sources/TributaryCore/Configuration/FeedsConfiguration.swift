public import Foundation

/// A loaded and validated feeds.json (version 1): the digest's settings and its sources.
public struct FeedsConfiguration: Sendable {
    /// The feeds.json file this came from.
    public var file: URL
    /// The digest's title (`title`).
    public var title: String
    /// The time zone days and times are shown in (`timeZone`, an IANA name); the system's when absent.
    public var timeZone: TimeZone
    /// Items older than this are left out (`maxAge`).
    public var maxAge: Duration?
    /// At most this many items per source (`maxItemsPerSource`); a source's own `maxItems` wins.
    public var maxItemsPerSource: Int?
    /// Keywords an item must contain one of, for every source (`include`).
    public var include: [String]
    /// Keywords that drop an item, for every source (`exclude`).
    public var exclude: [String]
    /// Where `digest` writes, relative to the directory holding feeds.json (`output`); `digest.html` when absent.
    public var output: String?
    /// A Mustache template for the HTML digest (`template`), relative to the directory holding feeds.json; the
    /// built-in look when absent. `tributary digest --template` overrides it.
    public var template: String?
    /// Whether sources may read files outside the directory holding feeds.json (`allowPathsOutside`).
    public var allowPathsOutside: Bool
    /// The sources, in file order, disabled ones included.
    public var sources: [SourceConfiguration]
    /// The most requests to one host at a time in a run (`maxConnectionsPerHost`).
    public var maxConnectionsPerHost = HostLimiter.defaultMaxConcurrentRequests
    /// The least time between the starts of two requests to one host (`minimumHostInterval`).
    public var minimumHostInterval = HostLimiter.defaultMinimumInterval
    /// The state store (`store`, or its older name `state`): a SQLite file relative to the directory holding
    /// feeds.json, or a `postgres://` URL (``isDatabaseURL(_:)``); ``defaultState`` when absent.
    public var state: String?
    /// How long the state store keeps an item no run has seen (`retention`); ``defaultRetention`` unless set.
    public var retention: Duration = FeedsConfiguration.defaultRetention

    /// The longest a one-shot run (`digest`, `summary`) may take, from the moment it holds the state store to its
    /// output written (`runTimeout`); ``defaultRunTimeout(longestSourceTimeout:)`` unless set.
    public var runTimeout: Duration?

    /// The run-wide deadline without `runTimeout`: the longest source timeout for each turn of
    /// ``PipelineSettings/defaultMaxConcurrentSources`` sources that `sources` enabled sources take (a run fetches
    /// that many at once, and a source's wait for its turn is not charged to its timeout), plus 2 minutes for the
    /// store and the output.
    public static func defaultRunTimeout(longestSourceTimeout: Duration, sources: Int = 1) -> Duration {
        longestSourceTimeout * PipelineSettings.turns(for: sources) + .seconds(120)
    }

    /// Where the state store lives when feeds.json has no `state`: `.tributary/state.sqlite` beside it.
    public static let defaultState = ".tributary/state.sqlite"
    /// How long items are kept without `retention`: 30 days.
    public static let defaultRetention = Duration.seconds(30 * 86_400)

    /// Creates a configuration; ``ConfigurationLoader`` makes one from feeds.json, tests may build one directly.
    public init(
        file: URL,
        title: String = "Tributary digest",
        timeZone: TimeZone = .current,
        maxAge: Duration? = nil,
        maxItemsPerSource: Int? = nil,
        include: [String] = [],
        exclude: [String] = [],
        output: String? = nil,
        template: String? = nil,
        allowPathsOutside: Bool = false,
        sources: [SourceConfiguration]
    ) {
        self.file = file
        self.title = title
        self.timeZone = timeZone
        self.maxAge = maxAge
        self.maxItemsPerSource = maxItemsPerSource
        self.include = include
        self.exclude = exclude
        self.output = output
        self.template = template
        self.allowPathsOutside = allowPathsOutside
        self.sources = sources
    }

    /// The directory holding feeds.json, against which relative paths resolve.
    public var directory: URL { file.deletingLastPathComponent() }

    /// Whether a `store` value names a PostgreSQL database rather than a SQLite file.
    public static func isDatabaseURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The state store's file: ``state`` (or ``defaultState``) against ``directory``. Meaningless when ``state``
    /// is a database URL.
    public var stateURL: URL {
        URL(fileURLWithPath: state ?? Self.defaultState, relativeTo: directory).standardizedFileURL
    }

    /// The sources that are not switched off with `"enabled": false`.
    public var enabledSources: [SourceConfiguration] { sources.filter(\.enabled) }
}

/// One entry of feeds.json's `sources`: the keys every source has, plus the whole entry for the adapter to decode
/// its own options from.
public struct SourceConfiguration: Sendable, Equatable {
    /// The source's id (`id`), unique within the file.
    public var id: SourceID
    /// The adapter that reads it (`kind`), e.g. `rss`.
    public var kind: String
    /// A display name (`title`); the id when absent.
    public var title: String?
    /// The folder the source is filed under (`category`), as OPML import keeps it and export writes it back.
    public var category: String?
    /// `false` keeps the entry in the file without running it.
    public var enabled: Bool
    /// Keywords an item must contain one of (case-insensitive, in title, summary, text or tags).
    public var include: [String]
    /// Keywords that drop an item.
    public var exclude: [String]
    /// At most this many items from this source.
    public var maxItems: Int?
    /// How long the source may run before it is cancelled and reported as timed out.
    public var timeout: Duration?
    /// How often a `tributary worker` fetches the source (`interval`); the worker's `--interval` when absent.
    public var interval: Duration?
    /// The whole entry as written, from which the adapter decodes its `Options`.
    public var entry: JSONValue
    /// The line where the entry's `{` is in feeds.json (1-based), for messages.
    public var line: Int?
    /// The column (in characters, 1-based) of the entry's `{`.
    public var column: Int?
    /// The configuration file as the user named it, for messages about this entry (``SourceRegistry/makeSource(for:context:)``).
    public var file: String?
    /// Where the value of each of the entry's keys starts in feeds.json, so that an option the adapter rejects
    /// can be pointed at; empty for entries not loaded from a file.
    public var valuePositions: [String: JSONPosition]

    /// Creates an entry; ``ConfigurationLoader`` fills in the place fields (`line`, `column`, `file`,
    /// `valuePositions`) so that messages can point into feeds.json.
    public init(
        id: SourceID,
        kind: String,
        title: String? = nil,
        enabled: Bool = true,
        include: [String] = [],
        exclude: [String] = [],
        maxItems: Int? = nil,
        timeout: Duration? = nil,
        entry: JSONValue = .object([:]),
        line: Int? = nil,
        column: Int? = nil,
        file: String? = nil,
        valuePositions: [String: JSONPosition] = [:]
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.enabled = enabled
        self.include = include
        self.exclude = exclude
        self.maxItems = maxItems
        self.timeout = timeout
        self.entry = entry
        self.line = line
        self.column = column
        self.file = file
        self.valuePositions = valuePositions
    }

    /// The keys every source may have, whatever its kind; the adapter's options are the entry's other keys.
    public static let commonKeys: Set<String> = [
        "id", "kind", "title", "category", "enabled", "include", "exclude", "maxItems", "timeout", "interval",
    ]
}
