import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NetworkFailure
import TributaryCore

/// The `Accept` header of a feed request, for callers outside the adapter (`tributary parse URL`).
public enum HTTPFeedAccept {
    public static var value: String { HTTPFeedLoader.accept }
}

/// One page fetched for a person at the terminal (`tributary add URL`, `tributary parse URL`): the body whole, up
/// to a limit, through the process's one HTTP client, redirects followed, failures in words.
public struct WebPage: Sendable {
    /// The URL the body came from, after redirects: the base for its relative links.
    public var url: URL
    /// The `Content-Type` header, when there was one.
    public var contentType: String?
    /// The `Content-Language` header, when there was one.
    public var contentLanguage: String?
    public var body: [UInt8]

    /// Why the page could not be fetched, in words that name the URL.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The charset parameter of the `Content-Type`, if any.
    public var charset: String? { ContentType.charset(contentType ?? "") }

    /// GETs `url`, following up to five redirects.
    /// - Throws: ``Failure``: network errors, an HTTP status other than 2xx, a body over `maxBytes`, the timeout.
    public static func fetch(
        _ url: URL,
        accept: String = "text/html, application/rss+xml, application/atom+xml, application/feed+json, */*;q=0.5",
        maxBytes: Int = 16 << 20,
        timeout: Duration = .seconds(30)
    ) async throws(Failure) -> WebPage {
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        var current = url
        for _ in 0...5 {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: FeedFetchSettings.defaultUserAgent)
            request.headers.add(name: "Accept", value: accept)
            let host = current.host ?? current.absoluteString
            let port = current.port ?? (current.scheme?.lowercased() == "https" ? 443 : 80)
            do {
                let response = try await HTTPFeedLoader.client.execute(request, deadline: deadline)
                if [301, 302, 303, 307, 308].contains(response.status.code),
                    let location = response.headers.first(name: "Location"),
                    let next = URL(string: location, relativeTo: current)?.absoluteURL
                {
                    current = next
                    continue
                }
                guard (200..<300).contains(response.status.code) else {
                    throw Failure(
                        description:
                            "\(current.absoluteString): the server answered HTTP \(response.status.code) \(response.status.reasonPhrase)"
                    )
                }
                var body: [UInt8] = []
                for try await chunk in response.body {
                    body += chunk.readableBytesView
                    if body.count > maxBytes {
                        throw Failure(
                            description:
                                "\(current.absoluteString): larger than \(maxBytes >> 20) MiB; not a page to read"
                        )
                    }
                }
                return WebPage(
                    url: current,
                    contentType: response.headers.first(name: "Content-Type"),
                    contentLanguage: response.headers.first(name: "Content-Language"),
                    body: body
                )
            } catch let failure as Failure {
                throw failure
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
                throw Failure(
                    description: "\(current.absoluteString): no answer within \(DurationFormat.string(timeout))"
                )
            } catch {
                let detail = NetworkFailure.describe(error, host: host, port: port) ?? "the request failed (\(error))"
                throw Failure(description: "\(current.absoluteString): \(detail)")
            }
        }
        throw Failure(description: "\(url.absoluteString): more than five redirects; use the final URL")
    }
}
