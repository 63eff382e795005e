import FeedParser
import Foundation
import HTMLSanitizer
import TributaryCore

/// Feeds body chunks into one ``StreamingFeedParser`` and sends the items and warnings each chunk completes.
///
/// Lives inside one task for one document; not `Sendable`.
final class FeedStreamConsumer {
    private let parser: StreamingFeedParser
    private let sink: EventSink
    private let shape: @Sendable (FeedItem) -> FeedItem?
    private let sourceID: SourceID
    private let location: String
    private let maxBytes: Int
    private let baseURL: URL?
    private let sanitizer = HTMLSanitizer()
    private(set) var itemCount = 0
    private(set) var byteCount = 0
    /// What the body is, told from its first bytes by the one sniffer (``FeedDocumentKind``): XML streams into
    /// `parser`; a JSON Feed is kept until the end and read by ``JSONFeedDocumentReader``.
    private enum Body {
        case undetermined([UInt8])
        case xml
        case json([UInt8])
    }

    private var body = Body.undetermined([])

    /// Creates the parser.
    /// - Throws: ``SourceError`` when the encoding override names an encoding libxml2 cannot decode.
    init(
        sourceID: SourceID,
        location: String,
        baseURL: URL?,
        httpCharset: String?,
        httpLanguage: String? = nil,
        settings: FeedFetchSettings,
        sink: EventSink,
        shape: @escaping @Sendable (FeedItem) -> FeedItem?
    ) throws {
        self.sourceID = sourceID
        self.location = location
        self.sink = sink
        self.shape = shape
        self.maxBytes = settings.maxBytes
        let options = FeedParserOptions(
            baseURL: baseURL,
            sourceID: sourceID,
            httpCharset: httpCharset,
            httpLanguage: httpLanguage,
            encodingOverride: settings.encodingOverride,
            // Sanitized after `shape`, which may read the feed's own markup (google-news's related coverage).
            sanitizer: nil
        )
        self.baseURL = baseURL
        do {
            parser = try StreamingFeedParser(options: options)
        } catch let error as FeedParseError {
            throw SourceError(sourceID: sourceID, reason: .other(error.description), underlying: error)
        }
    }

    /// The feed header read so far.
    var metadata: FeedMetadata? { parser.metadata }

    /// Parses the next chunk and sends what it completed.
    /// - Throws: ``SourceError`` `tooLarge` past the byte budget, `notAFeed` when the document is not a feed.
    func consume(_ bytes: UnsafeRawBufferPointer) throws -> [FeedItem] {
        byteCount += bytes.count
        guard byteCount <= maxBytes else {
            throw SourceError(sourceID: sourceID, reason: .tooLarge(limit: maxBytes, unit: "bytes"))
        }
        switch body {
        case .xml:
            break
        case .json(var buffered):
            body = .xml  // Not kept while the buffer grows, so it is not copied.
            buffered += bytes
            body = .json(buffered)
            return []
        case .undetermined(let start):
            let all = start + bytes
            switch FeedDocumentKind(start: all) {
            case nil:
                body = .undetermined(all)
                return []
            case .json?:
                body = .json(all)
                return []
            case .xml?, .other?:
                // Anything but JSON goes to the XML parser, which says what it is when it is not a feed.
                body = .xml
                return try all.withUnsafeBytes { try parse($0) }
            }
        }
        return try parse(bytes)
    }

    private func parse(_ bytes: UnsafeRawBufferPointer) throws -> [FeedItem] {
        do {
            return try parser.parse(bytes)
        } catch let error as FeedParseError {
            throw sourceError(error)
        }
    }

    /// Sends the items one chunk completed, and any new warnings.
    func emit(_ items: [FeedItem]) async {
        for warning in parser.takeWarnings() {
            await sink.send(.warning(warning))
        }
        var shaped = items.compactMap(shape).map(sanitized)
        if let baseURL {
            // An RSS enclosure's URL is read as written (feedparser's reading); a relative one is resolved here,
            // against the address the feed was fetched from, as the parser resolves links.
            for index in shaped.indices
            where shaped[index].attachments.contains(where: { !FeedText.hasScheme($0.url) }) {
                shaped[index].resolveRelativeURLs(against: baseURL)
            }
        } else {
            // A local file has no web address: a link still relative after xml:base cannot be made absolute.
            for index in shaped.indices {
                for removed in shaped[index].removeRelativeURLs() {
                    await sink.send(
                        .warning(
                            SourceWarning(
                                "left out the relative \(removed): a local file has no web address to resolve it "
                                    + "against (give the feed an xml:base, or fetch it over HTTP)",
                                location: "item \(shaped[index].id)"
                            )
                        )
                    )
                }
            }
        }
        itemCount += shaped.count
        await sink.items(shaped)
    }

    /// Ends the document and sends the last items.
    /// - Throws: ``SourceError`` `notAFeed` when no feed was found.
    func finish() async throws {
        var items: [FeedItem]
        switch body {
        case .json(let buffered):
            // A JSON Feed served over HTTP (or in a file named as an rss source): read whole, links resolved against
            // the feed's own addresses, then the URL it was fetched from.
            let (feed, warnings) = try JSONFeedDocumentReader.read(data: Data(buffered), path: nil, sourceID: sourceID)
            for warning in warnings { await sink.send(.warning(warning)) }
            items = feed.items
            if let baseURL {
                for index in items.indices { items[index].resolveRelativeURLs(against: baseURL) }
            }
        case .undetermined(let start):
            if !start.isEmpty { _ = try start.withUnsafeBytes { try parse($0) } }
            fallthrough
        case .xml:
            do {
                items = try parser.finish()
            } catch let error as FeedParseError {
                throw sourceError(error)
            }
        }
        await emit(items)
    }

    // MARK: - Private

    /// The item with its `content_html` made safe (SRC-7), as the parser would have made it (the parser resolved
    /// relative URLs against the `xml:base` chain and the feed's URL already).
    private func sanitized(_ item: FeedItem) -> FeedItem {
        var item = item
        item.sanitizeContent(with: sanitizer, baseURL: baseURL)
        return item
    }

    private func sourceError(_ error: FeedParseError) -> SourceError {
        switch error.reason {
        case .notAFeed(let detail):
            return SourceError(sourceID: sourceID, reason: .notAFeed(path: location, detail: detail), underlying: error)
        case .malformed, .entityLimit, .unsupportedEncoding, .parserUnavailable:
            return SourceError(
                sourceID: sourceID,
                reason: .other("\(location): \(error.description)"),
                underlying: error
            )
        }
    }
}
