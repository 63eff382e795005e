import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NetworkFailure
import TributaryCore

/// Downloads a feed over HTTP(S) with async-http-client and streams the body into a ``FeedStreamConsumer``.
struct HTTPFeedLoader {
    /// The `Accept` header: feed types first, then any XML.
    static let accept =
        "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5"
    /// The largest accepted ratio of decompressed to compressed size (a "zip bomb" guard; real feeds compress
    /// by 5 to 20 times).
    static let decompressionRatio = 100

    let reader: FeedReader

    /// The one HTTP client of the process: every `rss` and `google-news` source of a run shares its pool, so the
    /// feeds of one host reuse keep-alive connections instead of each opening (and closing) its own. Like
    /// async-http-client's `HTTPClient.shared`, it lives as long as the process and is never shut down; a cancelled
    /// request closes its own connection. Timeouts are per request (the fetch's deadline).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            // Redirects are followed here, one by one, so that each target can be checked (``RedirectPolicy``).
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(FeedFetchSettings.connectTimeout)),
            // Bodies are decompressed by ``BodyInflater``, which also reads the raw deflate many servers send.
            decompression: .disabled
        )
        // A one-shot fetch reports an unknown host or a refused connection at once (the next run tries again)
        // instead of retrying with back-off until the connect timeout: offline, every network source would
        // otherwise hold the digest up for the whole connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        // As many connections per host as the politeness limit lets requests run at once (feeds.json
        // `maxConnectionsPerHost`), and idle ones closed soon after a run.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        configuration.connectionPool.idleTimeout = .seconds(30)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Discards async-http-client's log messages.
    private static let quiet = Logger(label: "tributary.http", factory: { _ in SwiftLogNoOpLogHandler() })

    func load(
        _ url: URL,
        into sink: EventSink,
        shape: @escaping @Sendable (FeedItem) -> FeedItem?,
        validators: Validators
    ) async throws -> FeedReadResult {
        do {
            return try await download(url, with: Self.client, into: sink, shape: shape, validators: validators)
        } catch {
            throw translate(error, url: url)
        }
    }

    // MARK: - Private

    private func download(
        _ url: URL,
        with client: HTTPClient,
        into sink: EventSink,
        shape: @escaping @Sendable (FeedItem) -> FeedItem?,
        validators previous: Validators
    ) async throws -> FeedReadResult {
        let settings = reader.settings
        let sourceID = reader.sourceID
        let deadline = NIODeadline.now() + TimeAmount(settings.timeout)
        var current = url
        var visited: Set<String> = [url.absoluteString]
        var response: HTTPClientResponse
        while true {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.method = .GET
            request.headers.add(name: "User-Agent", value: settings.userAgent)
            request.headers.add(name: "Accept", value: Self.accept)
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            if let entityTag = previous.entityTag { request.headers.add(name: "If-None-Match", value: entityTag) }
            if let lastModified = previous.lastModified {
                request.headers.add(name: "If-Modified-Since", value: lastModified)
            }
            if !previous.isEmpty {
                reader.logger.debug(
                    "conditional GET",
                    metadata: [
                        "url": "\(current)", "etag": "\(previous.entityTag ?? "-")",
                        "lastModified": "\(previous.lastModified ?? "-")",
                    ]
                )
            }
            // async-http-client's own logging (connection ids, event loops) is not for the person reading `-v`.
            response = try await client.execute(request, deadline: deadline, logger: Self.quiet)
            guard [301, 302, 303, 307, 308].contains(response.status.code),
                let location = response.headers.first(name: "Location"),
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            else { break }
            let fail = { (detail: String) in
                SourceError(sourceID: sourceID, reason: .connection(url: url.absoluteString, detail: detail))
            }
            guard visited.count <= settings.maxRedirects else {
                throw fail("more than \(settings.maxRedirects) redirects; raise \"maxRedirects\" or use the final URL")
            }
            guard visited.insert(next.absoluteString).inserted else {
                throw fail("the redirects go round in a cycle")
            }
            if let refusal = await RedirectPolicy.refusal(
                from: current,
                to: next,
                allowPrivate: settings.allowPrivateRedirects
            ) {
                throw fail("not following the redirect: \(refusal)")
            }
            reader.logger.debug("following a redirect", metadata: ["from": "\(current)", "to": "\(next)"])
            current = next
        }
        let url = current
        if response.status == .notModified, !previous.isEmpty {
            // RFC 9110 section 15.4.5: a 304 may carry new validators; the others stay as they were.
            let validators = Validators(
                entityTag: response.headers.first(name: "ETag") ?? previous.entityTag,
                lastModified: response.headers.first(name: "Last-Modified") ?? previous.lastModified
            )
            return FeedReadResult(
                metadata: nil,
                validators: validators,
                itemCount: 0,
                byteCount: 0,
                isNotModified: true
            )
        }
        let status = Int(response.status.code)
        if status == 429 || status == 503 {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfter.delay($0, now: Date()) }
            // A 503 without Retry-After is an ordinary server error; a 429 always means "slow down".
            if status == 429 || retryAfter != nil {
                throw SourceError(
                    sourceID: sourceID,
                    reason: .throttled(url: url.absoluteString, status: status, retryAfter: retryAfter)
                )
            }
        }
        guard (200..<300).contains(status) else {
            throw SourceError(sourceID: sourceID, reason: .httpStatus(url: url.absoluteString, status: status))
        }
        if response.headers.first(name: "Content-Encoding") == nil,
            let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > settings.maxBytes
        {
            throw SourceError(sourceID: sourceID, reason: .tooLarge(limit: settings.maxBytes, unit: "bytes"))
        }
        let validators = Validators(
            entityTag: response.headers.first(name: "ETag"),
            lastModified: response.headers.first(name: "Last-Modified")
        )
        let consumer = try FeedStreamConsumer(
            sourceID: sourceID,
            location: url.absoluteString,
            baseURL: url,
            httpCharset: response.headers.first(name: "Content-Type").flatMap(ContentType.charset),
            httpLanguage: response.headers.first(name: "Content-Language"),
            settings: settings,
            sink: sink,
            shape: shape
        )
        let inflater = try inflater(for: response.headers.first(name: "Content-Encoding"), url: url)
        do {
            for try await chunk in response.body {
                try Task.checkCancellation()
                var items: [FeedItem] = []
                try chunk.withUnsafeReadableBytes { bytes in
                    if let inflater {
                        try inflater.inflate(bytes) { items += try consumer.consume($0) }
                    } else {
                        items = try consumer.consume(bytes)
                    }
                }
                await consumer.emit(items)
            }
            try Task.checkCancellation()
            var items: [FeedItem] = []
            try inflater?.finish { items += try consumer.consume($0) }
            await consumer.emit(items)
        } catch let failure as BodyInflater.Failure {
            throw sourceError(failure, url: url)
        }
        try await consumer.finish()
        return FeedReadResult(
            metadata: consumer.metadata,
            validators: validators,
            itemCount: consumer.itemCount,
            byteCount: consumer.byteCount
        )
    }

    /// The decompressor a `Content-Encoding` calls for, or `nil` for a body sent as it is.
    private func inflater(for contentEncoding: String?, url: URL) throws -> BodyInflater? {
        do {
            return try BodyInflater.Encoding.named(contentEncoding ?? "").map {
                BodyInflater(encoding: $0, maxRatio: Self.decompressionRatio)
            }
        } catch {
            throw SourceError(
                sourceID: reader.sourceID,
                reason: .connection(
                    url: url.absoluteString,
                    detail:
                        "the server sent the feed compressed as \"\(error.name)\", which Tributary did not ask for and cannot read (it reads gzip and deflate)"
                )
            )
        }
    }

    private func sourceError(_ failure: BodyInflater.Failure, url: URL) -> SourceError {
        switch failure {
        case .tooLarge:
            // A body that inflates far beyond its compressed size: a decompression bomb, or not worth reading.
            SourceError(
                sourceID: reader.sourceID,
                reason: .tooLarge(limit: Self.decompressionRatio, unit: "times its compressed size when decompressed")
            )
        case .corrupt(let detail):
            SourceError(
                sourceID: reader.sourceID,
                reason: .connection(url: url.absoluteString, detail: "the compressed body could not be read: \(detail)")
            )
        }
    }

    /// Turns what async-http-client and NIO throw into a ``SourceError`` that names the URL.
    private func translate(_ error: any Error, url: URL) -> any Error {
        if error is SourceError || error is CancellationError { return error }
        if Task.isCancelled { return CancellationError() }
        let sourceID = reader.sourceID
        let settings = reader.settings
        let location = url.absoluteString
        let host = url.host ?? location
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        guard let httpError = error as? HTTPClientError else {
            let detail =
                NetworkFailure.describe(error, host: host, port: port)
                ?? "the connection to \(host):\(port) failed (\(error))"
            return SourceError(
                sourceID: sourceID,
                reason: .connection(url: location, detail: detail),
                underlying: error
            )
        }
        let reason: SourceError.Reason
        switch httpError {
        case .deadlineExceeded, .readTimeout:
            reason = .timedOut(after: settings.timeout)
        case .connectTimeout:
            reason = .connection(
                url: location,
                detail:
                    "\(host):\(port) did not accept the connection within \(DurationFormat.string(FeedFetchSettings.connectTimeout)) (offline, or blocked?)"
            )
        case .cancelled:
            return CancellationError()
        case .remoteConnectionClosed:
            reason = .connection(url: location, detail: "\(host):\(port) closed the connection before answering")
        case .bodyLengthMismatch:
            reason = .connection(url: location, detail: "the response's length does not match its Content-Length")
        case .emptyHost, .emptyScheme, .invalidURL:
            reason = .connection(url: location, detail: "not an http:// or https:// URL with a host; check the URL")
        default:
            reason = .connection(
                url: location,
                detail: NetworkFailure.describe(error, host: host, port: port) ?? "the request failed (\(httpError))"
            )
        }
        return SourceError(sourceID: sourceID, reason: reason, underlying: error)
    }
}
