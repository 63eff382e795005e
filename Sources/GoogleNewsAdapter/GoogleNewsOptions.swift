/// The options of a `google-news` source: its slice of the feeds.json entry.
///
/// `hl`, `gl` and `ceid` are required and must agree (`ceid` is `GL:lang`, with `GL` equal to `gl` and `lang`
/// the language of `hl`). At most one of `topic`, `search` and `geo` is given; without any, the source reads
/// the top stories.
///
/// ```json
/// { "id": "swift-search", "kind": "google-news", "search": "Swift language when:7d",
///   "hl": "en-US", "gl": "US", "ceid": "US:en" }
/// ```
public struct GoogleNewsOptions: Decodable, Sendable, Hashable {
    /// The interface language, e.g. `en-US`, `ja`, `es-419`.
    public var hl: String
    /// The country edition, e.g. `US`, `JP`.
    public var gl: String
    /// The edition as `COUNTRY:language`, e.g. `US:en`, `JP:ja`.
    public var ceid: String
    /// A topic section: `WORLD`, `NATION`, `BUSINESS`, `TECHNOLOGY`, `ENTERTAINMENT`, `SPORTS`, `SCIENCE` or
    /// `HEALTH`.
    public var topic: String?
    /// A search query; operators such as `when:7d`, `site:example.com`, `intitle:` and `OR` go inside it.
    public var search: String?
    /// A place, for its local headlines (`Tokyo`, `San Francisco`).
    public var geo: String?
    /// Where Google News is served; `https://news.google.com` when absent (tests point it at a local server).
    public var baseURL: String?
    /// How long the fetch may take, as a duration string (`"30s"`); the common `timeout` key.
    public var timeout: String?

    /// Creates the options.
    /// - Parameters:
    ///   - hl: the interface language.
    ///   - gl: the country edition.
    ///   - ceid: the edition, `COUNTRY:language`.
    ///   - topic: a topic section.
    ///   - search: a search query.
    ///   - geo: a place.
    ///   - baseURL: where Google News is served.
    ///   - timeout: the fetch's time limit, as a duration string.
    public init(
        hl: String,
        gl: String,
        ceid: String,
        topic: String? = nil,
        search: String? = nil,
        geo: String? = nil,
        baseURL: String? = nil,
        timeout: String? = nil
    ) {
        self.hl = hl
        self.gl = gl
        self.ceid = ceid
        self.topic = topic
        self.search = search
        self.geo = geo
        self.baseURL = baseURL
        self.timeout = timeout
    }
}
