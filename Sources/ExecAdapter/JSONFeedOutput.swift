import Foundation
import HTMLSanitizer
import TributaryCore

/// Decodes JSON Feed text a program printed: a whole document, or one item per line in stream mode.
///
/// Syntax is checked with core's ``LocatedJSON`` parser (so errors name a line and column); items are then decoded
/// one by one with ``FeedItem``'s own decoding, and an item that cannot be decoded is skipped with a warning.
/// Every item is stamped with the source id, gets ``FeedItem/derivedID()`` when its id is empty, and has its
/// relative URLs resolved against the feed's `home_page_url` or `feed_url` when that is an absolute web URL.
enum JSONFeedOutput {
    /// Decodes a whole JSON Feed document.
    /// - Throws: ``SourceError`` `invalidJSON` or `notAFeed`.
    static func document(_ bytes: [UInt8], sourceID: SourceID) throws(SourceError) -> (
        items: [FeedItem], warnings: [SourceWarning]
    ) {
        let data = Data(bytes)
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(data, allowsDuplicateKeys: true)
        } catch {
            throw SourceError(
                sourceID: sourceID,
                reason: .invalidJSON(path: "stdout", line: error.line, column: error.column, detail: error.detail)
            )
        }
        guard let version = root["version"]?.jsonValue.stringValue, version.hasPrefix("https://jsonfeed.org/version/")
        else {
            throw SourceError(
                sourceID: sourceID,
                reason: .notAFeed(path: "stdout", detail: "JSON without a JSON Feed \"version\" member")
            )
        }
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        let document: LenientDocument
        do {
            document = try JSONDecoder().decode(LenientDocument.self, from: body)
        } catch {
            throw SourceError(
                sourceID: sourceID,
                reason: .notAFeed(path: "stdout", detail: "\(version) document without an \"items\" array"),
                underlying: error
            )
        }
        let base = [document.homePageURL, document.feedURL].lazy.compactMap(absoluteWebURL).first
        var items: [FeedItem] = []
        var warnings: [SourceWarning] = []
        for (index, entry) in document.items.enumerated() {
            switch entry.item {
            case .success(let item):
                items.append(prepared(item, sourceID: sourceID, base: base))
            case .failure(let error):
                warnings.append(
                    SourceWarning("skipped an item that is not a JSON Feed item: \(error)", location: "items[\(index)]")
                )
            }
        }
        return (items, warnings)
    }

    /// One line of stream output: an item, or why the line was skipped.
    enum LineResult {
        case item(FeedItem)
        case skipped(SourceWarning)
    }

    /// Decodes one line of stream output as a JSON Feed item.
    /// - Returns: the item, or a warning saying why the line was skipped.
    static func line(_ text: Substring, number: Int, sourceID: SourceID) -> LineResult {
        let data = Data(text.utf8)
        do {
            _ = try LocatedJSON.parse(data)
        } catch {
            return .skipped(
                SourceWarning(
                    "skipped a line that is not JSON: \(error.detail)",
                    location: "line \(number), column \(error.column)"
                )
            )
        }
        do {
            let item = try JSONDecoder().decode(FeedItem.self, from: data)
            return .item(prepared(item, sourceID: sourceID, base: nil))
        } catch {
            return .skipped(
                SourceWarning(
                    "skipped a line that is not a JSON Feed item: \(describe(error))",
                    location: "line \(number)"
                )
            )
        }
    }

    /// A decoding error as one short line: where, and what.
    static func describe(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(_, let value)?, .valueNotFound(_, let value)?, .dataCorrupted(let value)?:
            context = value
        case .keyNotFound(let key, let value)?:
            return "missing \"\(key.stringValue)\"" + path(value.codingPath)
        default:
            return String(describing: error)
        }
        return context.debugDescription + path(context.codingPath)
    }

    // MARK: - Private

    private static func path(_ codingPath: [any CodingKey]) -> String {
        let names = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return names.isEmpty ? "" : " (at \(names.joined(separator: ".")))"
    }

    private static func prepared(_ item: FeedItem, sourceID: SourceID, base: URL?) -> FeedItem {
        var item = item
        if let base { item.resolveRelativeURLs(against: base) }
        if let html = item.contentHTML {
            // Relative URLs in the content are relative to the item's page, else to the feed's.
            item.contentHTML = HTMLSanitizer().sanitize(html, baseURL: item.url.flatMap { URL(string: $0) } ?? base)
        }
        if item.id.allSatisfy(\.isWhitespace) { item.id = item.derivedID() }
        item.sourceID = sourceID
        return item
    }

    private static func absoluteWebURL(_ string: String?) -> URL? {
        guard let string, let url = URL(string: string), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// The parts of a JSON Feed document the adapter needs, with items decoded one by one.
    private struct LenientDocument: Decodable {
        var homePageURL: String?
        var feedURL: String?
        var items: [LenientItem]

        enum CodingKeys: String, CodingKey {
            case items
            case homePageURL = "home_page_url"
            case feedURL = "feed_url"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            homePageURL = try? container.decodeIfPresent(String.self, forKey: .homePageURL)
            feedURL = try? container.decodeIfPresent(String.self, forKey: .feedURL)
            items = try container.decode([LenientItem].self, forKey: .items)
        }
    }

    /// One item, or why it could not be decoded.
    private struct LenientItem: Decodable {
        var item: Result<FeedItem, DecodingFailure>

        init(from decoder: any Decoder) throws {
            do {
                item = .success(try FeedItem(from: decoder))
            } catch {
                item = .failure(DecodingFailure(description: JSONFeedOutput.describe(error)))
            }
        }
    }

    private struct DecodingFailure: Error, CustomStringConvertible {
        var description: String
    }
}
