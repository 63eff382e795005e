public import Foundation
public import Logging
public import TributaryCore

/// Reads one RSS or Atom feed from an `http(s)://` or `file://` URL and emits its items while the bytes arrive.
///
/// The body is fed chunk by chunk into FeedParser's `StreamingFeedParser`, and the items each chunk completes are
/// sent to the sink at once (SRC-12), so the first items reach the pipeline long before a slow download ends.
/// Over HTTP the reader waits for its turn at the host (``hostLimiter``), sends a real `User-Agent` and the
/// previous validators, accepts gzip and deflate, follows at most ``FeedFetchSettings/maxRedirects`` redirects,
/// passes the `Content-Type` charset to the parser, aborts a body larger than ``FeedFetchSettings/maxBytes``,
/// reports `429`/`503` with `Retry-After` as `throttled`, and gives up after ``FeedFetchSettings/timeout`` in
/// total (waiting for the host included). Files are read in 64 KiB chunks through the same parser.
///
/// Each read uses its own `HTTPClient` on the shared NIO event loop group, shut down before `read` returns, so
/// nothing outlives the read. The reader does no I/O until ``read(from:into:shaping:)`` is called.
///
/// This is the one way to fetch and parse a feed; the `google-news` adapter builds on it.
public struct FeedReader: Sendable {
    /// The source the items belong to (stamped on every item and named in every error).
    public var sourceID: SourceID
    /// Limits and identification.
    public var settings: FeedFetchSettings
    /// Where the reader logs.
    public var logger: Logger
    /// The run's per-host politeness limits, which every HTTP request waits for; `nil` sends at once.
    public var hostLimiter: HostLimiter?

    /// Creates a reader; performs no I/O.
    /// - Parameters:
    ///   - sourceID: the source the items belong to.
    ///   - settings: limits and identification.
    ///   - logger: where to log; usually ``SourceContext/logger``.
    ///   - hostLimiter: the run's per-host limits; usually ``SourceContext/hostLimiter``.
    public init(
        sourceID: SourceID,
        settings: FeedFetchSettings = FeedFetchSettings(),
        logger: Logger,
        hostLimiter: HostLimiter? = nil
    ) {
        self.sourceID = sourceID
        self.settings = settings
        self.logger = logger
        self.hostLimiter = hostLimiter
    }

    /// Fetches and parses the feed at `url`, sending warnings and batches of items to `sink` as they are read.
    ///
    /// It sends neither `started` nor a terminal event: the calling source does, so that it can add its own
    /// steps around the read.
    /// - Parameters:
    ///   - url: an `http`, `https` or `file` URL.
    ///   - sink: where items and warnings go.
    ///   - shape: applied to every parsed item before it is sent; return `nil` to drop the item.
    ///   - validators: the previous response's validators; over HTTP they make the request conditional, and a
    ///     `304 Not Modified` returns a result with ``FeedReadResult/isNotModified`` set and no items sent.
    /// - Returns: the feed's header, the HTTP validators and counts.
    /// - Throws: ``SourceError`` (`httpStatus`, `connection`, `tooLarge`, `timedOut`, `notAFeed`,
    ///   `fileNotFound`, `unreadable`), or `CancellationError` when the task is cancelled.
    public func read(
        from url: URL,
        into sink: EventSink,
        shaping shape: @escaping @Sendable (FeedItem) -> FeedItem? = { $0 },
        validators: Validators = Validators()
    ) async throws -> FeedReadResult {
        try await fetch(url, into: sink, shape: shape, validators: validators)
    }

    /// How long the other sources of a run leave a host alone after it answered `429` without `Retry-After`.
    static let pauseAfterThrottling = Duration.seconds(10)

    // MARK: - Private

    /// Runs `body` within ``FeedFetchSettings/timeout``.
    private func bounded<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result
    {
        let timeout = settings.timeout
        let sourceID = sourceID
        return try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw SourceError(sourceID: sourceID, reason: .timedOut(after: timeout))
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() else { throw CancellationError() }
            return result
        }
    }

    private func fetch(
        _ url: URL,
        into sink: EventSink,
        shape: @escaping @Sendable (FeedItem) -> FeedItem?,
        validators: Validators
    ) async throws -> FeedReadResult {
        let result: FeedReadResult
        if url.isFileURL {
            result = try await bounded { try await FileFeedLoader(reader: self).load(url, into: sink, shape: shape) }
        } else {
            let loader = HTTPFeedLoader(reader: self)
            let host = url.host?.lowercased() ?? ""
            let load = {
                try await bounded { try await loader.load(url, into: sink, shape: shape, validators: validators) }
            }
            guard let hostLimiter else { return try await load() }
            do {
                // The timeout counts from the start of the request, not from the start of the wait for a turn.
                let queued = ContinuousClock.now
                result = try await hostLimiter.withPermit(for: host) {
                    let waited = ContinuousClock.now - queued
                    if waited > .milliseconds(10) {
                        logger.debug(
                            "waited for a turn at the host",
                            metadata: ["host": "\(host)", "waited": "\(DurationFormat.string(waited))"]
                        )
                    }
                    do {
                        return try await load()
                    } catch let error as SourceError {
                        if case .throttled(_, _, let retryAfter) = error.reason {
                            // The host asked for a pause: the other sources of the run keep to it too. Set while
                            // the slot is still held, so that a source handed the slot next sees the pause.
                            await hostLimiter.holdOff(host, for: retryAfter ?? Self.pauseAfterThrottling)
                        }
                        throw error
                    }
                }
            } catch let heldOff as HostLimiter.HeldOff {
                throw SourceError(
                    sourceID: sourceID,
                    reason: .throttled(url: url.absoluteString, status: 429, retryAfter: heldOff.remaining)
                )
            }
        }
        logger.debug(
            "feed read",
            metadata: [
                "url": "\(url.absoluteString)", "items": "\(result.itemCount)", "bytes": "\(result.byteCount)",
                "notModified": "\(result.isNotModified)",
            ]
        )
        return result
    }
}
