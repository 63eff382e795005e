public import Foundation
import RSSAdapter
public import TributaryCore

/// Reads Google News RSS (top stories, a topic section, a search or a place): the `google-news` kind.
///
/// `init` checks the options, builds the feed URL (DESIGN.md section 9) and does no I/O (SRC-1): `hl`, `gl` and
/// `ceid` must agree, and at most one of `topic`, `search` and `geo` may be given. ``run(into:)`` fetches the
/// feed with RSSAdapter's ``FeedReader`` (streaming, limits, timeouts), one request at a time per host through
/// a ``HostLimiter`` of its own (one request at a time, a second apart), and shapes every item: the article token becomes the id, the publisher moves from the
/// title into `_tributary.origin`, the description's related coverage goes into `_tributary.related`, and the
/// description itself, which is a list of links rather than article text, is dropped.
///
/// Failures are reported as a `failed` event carrying a ``SourceError``, as for `rss`. When the task is cancelled,
/// `run` throws `CancellationError` (SRC-10).
public struct GoogleNewsSource: Source {
    public typealias Options = GoogleNewsOptions

    public static let kind = "google-news"

    /// The throttle the sources of this process share when they are not given one: at most one request to a
    /// host at a time and one second between requests. The one piece of process-wide state in the adapter,
    /// deliberately: politeness only works when every source in a run asks the same gatekeeper.
    public static let defaultThrottle = HostLimiter(maxConcurrentRequests: 1, minimumInterval: .seconds(1))

    /// Where Google News is served unless the options say otherwise.
    public static let defaultBaseURL = "https://news.google.com"

    public static let documentation = SourceDocumentation(
        summary: "Google News RSS: top stories, a topic section, a search, or a place's local headlines.",
        options: [
            .init(
                "hl",
                .string,
                required: true,
                help: "The interface language, e.g. \"en-US\", \"ja\", \"es-419\".",
                title: "Language (hl)",
                examples: ["en-US", "ja"]
            ),
            .init(
                "gl",
                .string,
                required: true,
                help: "The country edition, e.g. \"US\", \"JP\".",
                title: "Country (gl)",
                examples: ["US", "JP"]
            ),
            .init(
                "ceid",
                .string,
                required: true,
                help: "The edition as COUNTRY:language, e.g. \"US:en\", \"JP:ja\"; must agree with hl and gl.",
                title: "Edition (ceid)",
                examples: ["US:en", "JP:ja"]
            ),
            .init(
                "topic",
                .string,
                help: "A topic section: \(GoogleNewsSection.topics.joined(separator: ", ")).",
                title: "Topic section",
                allowedValues: GoogleNewsSection.topics
            ),
            .init(
                "search",
                .string,
                help: "A search query; operators such as when:7d, site:example.com, intitle: and OR go inside it.",
                title: "Search query",
                examples: ["Swift language when:7d"]
            ),
            .init("geo", .string, help: "A place, for its local headlines, e.g. \"Tokyo\".", title: "Place"),
            .init(
                "baseURL",
                .string,
                default: GoogleNewsSource.defaultBaseURL,
                help: "Where Google News is served (for tests and mirrors).",
                title: "Base URL"
            ),
        ],
        example: #"{ "id": "google-news-jp", "kind": "google-news", "hl": "ja", "gl": "JP", "ceid": "JP:ja" }"#
    )

    public let id: SourceID
    /// The options from feeds.json.
    public let options: GoogleNewsOptions
    /// The feed's URL, built from the options.
    public let feedURL: URL
    private let settings: FeedFetchSettings
    private let throttle: HostLimiter
    private let context: SourceContext
    private let validatorMemory: ValidatorMemory

    /// Creates the source with the shared ``defaultThrottle``; checks the options and performs no I/O (SRC-1).
    /// - Throws: ``SourceOptionError`` naming the key: an inconsistent `hl`/`gl`/`ceid`, more than one of `topic`,
    ///   `search` and `geo`, an unknown topic, a malformed `baseURL` or `timeout`.
    public init(id: SourceID, options: GoogleNewsOptions, context: SourceContext) throws {
        try self.init(id: id, options: options, context: context, throttle: Self.defaultThrottle)
    }

    /// Creates the source with its own throttle (tests give a short interval).
    /// - Parameters:
    ///   - id: the source's id.
    ///   - options: the options from feeds.json.
    ///   - context: what the host gives the source.
    ///   - throttle: the gatekeeper for requests to the Google News host.
    /// - Throws: ``SourceOptionError`` as ``init(id:options:context:)``.
    public init(id: SourceID, options: GoogleNewsOptions, context: SourceContext, throttle: HostLimiter) throws {
        let edition = try GoogleNewsEdition(hl: options.hl, gl: options.gl, ceid: options.ceid)
        let section = try GoogleNewsSection(options: options)
        let baseText = options.baseURL ?? Self.defaultBaseURL
        guard let base = URL(string: baseText), let scheme = base.scheme?.lowercased(),
            scheme == "http" || scheme == "https", base.host != nil,
            let feedURL = section.url(base: base, edition: edition)
        else {
            throw SourceOptionError(key: "baseURL", message: "an http(s) URL such as \"https://news.google.com\"")
        }
        var settings = FeedFetchSettings()
        if let text = options.timeout {
            guard let timeout = DurationFormat.parse(text), timeout > .zero else {
                throw SourceOptionError(key: "timeout", message: "a positive duration such as \"30s\" or \"2m\"")
            }
            settings.timeout = timeout
        }
        self.id = id
        self.options = options
        self.feedURL = feedURL
        self.settings = settings
        self.throttle = throttle
        self.context = context
        validatorMemory = ValidatorMemory(savedState: context.savedState)
    }

    // MARK: - Source

    /// Fetches the feed (conditionally, when an earlier fetch left validators) and emits `started`, warnings and
    /// shaped items as they are parsed, then the validators' checkpoint and `finished`, `notModified` after a
    /// `304`, or `failed`.
    /// - Throws: `CancellationError` when the task is cancelled before the run completes.
    public func run(into sink: EventSink) async throws {
        await sink.started()
        let reader = FeedReader(
            sourceID: id,
            settings: settings,
            logger: context.logger,
            hostLimiter: context.hostLimiter
        )
        let shaper = GoogleNewsItemShaper()
        let url = feedURL
        let validators = validatorMemory.validators(for: url)
        var read: FeedReadResult?
        do {
            // The result is handed out through a variable, not as the closure's value: returned through the
            // generic `withPermit`, the debug build of Swift 6.3 copied it to a bad address (a crash in every
            // google-news test once `FeedReadResult` grew).
            try await throttle.withPermit(for: url.host ?? "") {
                read = try await reader.read(
                    from: url,
                    into: sink,
                    shaping: { shaper.shape($0) },
                    validators: validators
                )
            }
        } catch let error as SourceError {
            try Task.checkCancellation()
            await sink.failed(error)
            return
        }
        try Task.checkCancellation()
        guard let result = read else { return }
        await validatorMemory.finish(result, of: url, into: sink)
    }
}
