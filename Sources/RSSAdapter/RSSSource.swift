import Foundation
public import TributaryCore

/// Reads an RSS 0.9x/2.0, RSS 1.0 (RDF) or Atom feed over HTTP(S) or from a local file: the `rss` kind.
///
/// `init` checks the options and does no I/O (SRC-1). ``run(into:)`` fetches the feed with a ``FeedReader``,
/// which streams the body into the parser and emits items after every chunk (SRC-12).
///
/// Failures are reported as a `failed` event carrying a ``SourceError`` (and `run` then returns normally):
/// `httpStatus` for a non-2xx answer, `connection` when the server cannot be reached or redirects too often,
/// `timedOut` past the `timeout`, `tooLarge` past `maxBytes`, `notAFeed` for a page that is not RSS or Atom,
/// `fileNotFound`, `unreadable` or `pathOutsideConfigDirectory` for files. When the task is cancelled, `run`
/// closes its connection and throws `CancellationError` (SRC-10).
public struct RSSSource: Source {
    public typealias Options = RSSOptions

    public static let kind = "rss"

    public static let documentation = SourceDocumentation(
        summary: "An RSS 0.9x/2.0, RSS 1.0 (RDF) or Atom feed over HTTP(S), or a local feed file.",
        options: [
            .init(
                "url",
                .string,
                required: true,
                help:
                    "The feed's http:// or https:// URL, a file:// URL, or a path relative to the directory holding feeds.json.",
                title: "Feed URL",
                examples: ["https://www.swift.org/atom.xml"]
            ),
            .init(
                "encoding",
                .string,
                help:
                    "A character encoding that overrides what the feed and the server declare, e.g. \"windows-1252\".",
                title: "Encoding override",
                examples: ["windows-1252", "Shift_JIS"]
            ),
            .init(
                "userAgent",
                .string,
                default: FeedFetchSettings.defaultUserAgent,
                help: "The User-Agent header sent with the request.",
                title: "User-Agent"
            ),
            .init(
                "maxBytes",
                .integer,
                default: "\(FeedFetchSettings.defaultMaxBytes)",
                help: "The largest response body in bytes (after decompression); a larger download is aborted.",
                title: "Maximum size"
            ),
            .init(
                "maxRedirects",
                .integer,
                default: "\(FeedFetchSettings.defaultMaxRedirects)",
                help: "How many HTTP redirects are followed.",
                title: "Maximum redirects"
            ),
            .init(
                "allowPrivateRedirects",
                .boolean,
                default: "false",
                help:
                    "Follow a redirect to another host even when it leads to a private, loopback or link-local address (a feed on the internet cannot send the client into your network unless this is set).",
                title: "Allow redirects into private networks"
            ),
        ],
        example: #"{ "id": "swift-org", "kind": "rss", "url": "https://www.swift.org/atom.xml" }"#
    )

    public let id: SourceID
    /// The options from feeds.json.
    public let options: RSSOptions
    /// The limits and identification the fetch uses, from the options.
    public let settings: FeedFetchSettings
    private let location: FeedLocation
    private let context: SourceContext
    private let validatorMemory: ValidatorMemory

    /// Creates the source; checks the options and performs no I/O (SRC-1).
    /// - Throws: ``SourceOptionError`` for `url` (empty, or a scheme other than http, https or file), `timeout`
    ///   (not a duration), `maxBytes` (not positive), `maxRedirects` (negative) or `userAgent` (empty).
    public init(id: SourceID, options: RSSOptions, context: SourceContext) throws {
        self.id = id
        self.options = options
        self.context = context
        location = try FeedLocation(options.url, key: "url")
        if case .file(let path) = location, context.pathLeavesBaseDirectory(path) {
            throw SourceOptionError(key: "url", message: SourceContext.pathOutsideMessage)
        }
        settings = try FeedFetchSettings(options: options)
        validatorMemory = ValidatorMemory(savedState: context.savedState)
    }

    // MARK: - Source

    /// Fetches the feed and emits `started`, warnings and items as they are parsed, then the new HTTP validators
    /// as a checkpoint and `finished` (or `failed`). A feed fetched over HTTP before is requested conditionally;
    /// a `304 Not Modified` ends the run with `notModified` and no items.
    /// - Throws: `CancellationError` when the task is cancelled before the run completes.
    public func run(into sink: EventSink) async throws {
        await sink.started()
        let url: URL
        let result: FeedReadResult
        do {
            url = try location.resolve(in: context, sourceID: id)
            let reader = FeedReader(
                sourceID: id,
                settings: settings,
                logger: context.logger,
                hostLimiter: context.hostLimiter
            )
            result = try await reader.read(from: url, into: sink, validators: validatorMemory.validators(for: url))
        } catch let error as SourceError {
            try Task.checkCancellation()
            await sink.failed(error)
            return
        }
        try Task.checkCancellation()
        await validatorMemory.finish(result, of: url, into: sink)
    }
}

extension FeedFetchSettings {
    /// The settings an `rss` entry asks for.
    /// - Throws: ``SourceOptionError`` naming the offending key.
    init(options: RSSOptions) throws {
        self.init(encodingOverride: options.encoding, allowPrivateRedirects: options.allowPrivateRedirects ?? false)
        if let userAgent = options.userAgent {
            guard !userAgent.allSatisfy(\.isWhitespace) else {
                throw SourceOptionError(key: "userAgent", message: "is empty; leave it out to send the default")
            }
            self.userAgent = userAgent
        }
        if let text = options.timeout {
            guard let timeout = DurationFormat.parse(text), timeout > .zero else {
                throw SourceOptionError(key: "timeout", message: "a positive duration such as \"30s\" or \"2m\"")
            }
            self.timeout = timeout
        }
        if let maxBytes = options.maxBytes {
            guard maxBytes > 0 else {
                throw SourceOptionError(key: "maxBytes", message: "a positive number of bytes, e.g. 20971520")
            }
            self.maxBytes = maxBytes
        }
        if let maxRedirects = options.maxRedirects {
            guard maxRedirects >= 0 else {
                throw SourceOptionError(key: "maxRedirects", message: "zero or a positive number of redirects")
            }
            self.maxRedirects = maxRedirects
        }
    }
}
