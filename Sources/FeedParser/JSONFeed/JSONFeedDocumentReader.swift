public import Foundation
import HTMLSanitizer
public import TributaryCore

/// Reads JSON Feed 1.0 and 1.1 documents into a ``JSONFeed`` whose items are ready for the pipeline: the one home
/// of JSON Feed decoding.
///
/// The `json-file` adapter reads its file through this type, the `exec` adapter a program's output (a document, or
/// one item per line with ``readLine(_:number:sourceID:)``), and `tributary parse FILE`, with the same errors and
/// warnings:
///
/// - The JSON syntax is checked strictly first by ``LocatedJSON/parse(_:maximumDepth:allowsDuplicateKeys:)``, as
///   feeds.json is (RFC 8259: UTF-8, no trailing commas, no comments), except that a key may appear twice in an
///   object (RFC 8259 allows it, and other readers accept such feeds), and a syntax error is a
///   ``SourceError`` with ``SourceError/Reason/invalidJSON(path:line:column:detail:)`` naming the line and column
///   (columns count characters, from 1).
/// - Valid JSON without a `version` of the form `https://jsonfeed.org/version/…` or without an `items` array is
///   ``SourceError/Reason/notAFeed(path:detail:)``, saying what is missing.
/// - Items are decoded one by one and member by member (``JSONFeedItemReading``): a member that cannot be read (a
///   date in no known form, an `id` that is an object) is left out with a ``SourceWarning`` naming the item's index
///   in `items`, and the item is kept; only an element that is not an object at all is skipped.
/// - Numeric ids become strings, 1.0's `author` becomes `authors` (both done by ``FeedItem``'s decoding), an empty
///   or missing id is replaced by ``FeedItem/derivedID()``, and every item is stamped with the source id.
/// - Relative item URLs (`url`, `external_url`, `image`, `banner_image`, attachment URLs, author URLs and avatars)
///   are resolved against the feed's `home_page_url`, else its `feed_url`, when that is an absolute http(s) URL.
///   Without such a base they are left as written, for the pipeline to resolve or drop.
public enum JSONFeedDocumentReader {
    /// The largest file ``readFile(at:path:sourceID:)`` reads: 64 MiB.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// The prefix of every JSON Feed `version` URL.
    static let versionPrefix = "https://jsonfeed.org/version/"

    /// Decodes a JSON Feed document.
    ///
    /// - Parameters:
    ///   - data: the document, UTF-8 (a leading byte order mark is allowed).
    ///   - path: the file's path as the user wrote it, for messages; `nil` when the data does not come from a file.
    ///   - sourceID: the id stamped on every item (`_tributary.source`) and named in errors.
    /// - Returns: the feed, its items in document order, and a warning for every item that was skipped.
    /// - Throws: ``SourceError`` with reason `invalidJSON` or `notAFeed`; nothing else.
    public static func read(
        data: Data,
        path: String?,
        sourceID: SourceID
    ) throws -> (feed: JSONFeed, warnings: [SourceWarning]) {
        // Core's strict parser, the one feeds.json is read with, checks the syntax and locates the first error.
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(data, allowsDuplicateKeys: true)
        } catch {
            throw SourceError(
                sourceID: sourceID,
                reason: .invalidJSON(path: path, line: error.line, column: error.column, detail: error.detail)
            )
        }
        guard root.members != nil else {
            throw SourceError(
                sourceID: sourceID,
                reason: .notAFeed(
                    path: path,
                    detail: "the document is \(root.typeDescription), not an object with \"version\" and \"items\""
                )
            )
        }
        // The items are decoded with Foundation rather than from the parsed tree, whose numbers are `Double`s:
        // `JSONDecoder` keeps large numeric ids exact. The byte order mark the parser allowed is not passed on.
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        let document: LenientFeedDocument
        do {
            document = try JSONDecoder().decode(LenientFeedDocument.self, from: body)
        } catch {
            throw SourceError(
                sourceID: sourceID,
                reason: .notAFeed(path: path, detail: DecodingErrorText.describe(error)),
                underlying: error
            )
        }
        let outcomes = try checkShape(of: document, path: path, sourceID: sourceID)
        var feed = try decodeHeader(document.header, path: path, sourceID: sourceID)
        let base = [feed.homePageURL, feed.feedURL].lazy.compactMap(absoluteWebURL).first
        var items: [FeedItem] = []
        var warnings: [SourceWarning] = []
        var skipped = 0
        items.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            switch outcome {
            case .decoded(let reading):
                items.append(prepared(reading.item, sourceID: sourceID, base: base))
                let location = "items[\(items.count - 1 + skipped)]"
                for problem in reading.problems {
                    warnings.append(SourceWarning(problem + Self.label(of: reading.item), location: location))
                }
            case .failed(let index, let label, let error):
                skipped += 1
                warnings.append(
                    SourceWarning(
                        "skipped item\(label.suffix): \(DecodingErrorText.describe(error, droppingFirst: 2))",
                        location: "items[\(index)]"
                    )
                )
            }
        }
        feed.items = items
        return (feed, warnings)
    }

    /// One line of a program's stream output: an item, or why the line was skipped.
    public enum LineResult: Sendable {
        /// The item, ready for the pipeline, and one warning per member that had to be left out.
        case item(FeedItem, warnings: [SourceWarning])
        /// The line is not a JSON object.
        case skipped(SourceWarning)
    }

    /// Reads one line of stream output (JSON lines) as a JSON Feed item, with the same member rules as a document.
    public static func readLine(_ text: Substring, number: Int, sourceID: SourceID) -> LineResult {
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
            let reading = try JSONDecoder().decode(JSONFeedItemReading.self, from: data)
            let item = prepared(reading.item, sourceID: sourceID, base: nil)
            let warnings = reading.problems.map { SourceWarning($0 + label(of: item), location: "line \(number)") }
            return .item(item, warnings: warnings)
        } catch {
            return .skipped(
                SourceWarning(
                    "skipped a line that is not a JSON Feed item: \(DecodingErrorText.describe(error))",
                    location: "line \(number)"
                )
            )
        }
    }

    /// Makes a decoded item ready for the pipeline: relative URLs resolved against `base`, its HTML sanitized (with
    /// relative URLs in it resolved against the item's page, else `base`), an id derived when it has none, and the
    /// source id stamped. Push frames and every other JSON Feed item go through here.
    public static func prepared(_ item: FeedItem, sourceID: SourceID, base: URL?) -> FeedItem {
        var item = item
        if let base { item.resolveRelativeURLs(against: base) }
        // Links that are not http(s) or mailto are dropped here too (the pipeline's Normaliser says so per item):
        // `parse` of a JSON Feed prints what this returns.
        _ = item.removeUnsafeURLs()
        if item.mayHoldHTML {
            let contentBase = item.url.flatMap { URL(string: $0) }.flatMap { $0.scheme == nil ? nil : $0 } ?? base
            item.sanitizeContent(with: HTMLSanitizer(), baseURL: contentBase)
        }
        if item.id.allSatisfy(\.isWhitespace) { item.id = item.derivedID() }
        item.sourceID = sourceID
        return item
    }

    /// ` (id "x")` or ` ("Title")`, to say which item a warning is about.
    private static func label(of item: FeedItem) -> String {
        if !item.id.isEmpty, !item.id.hasPrefix("tributary:") { return " (id \"\(item.id)\")" }
        if let title = item.title { return " (\"\(title.prefix(60))\")" }
        return ""
    }

    /// Reads a JSON Feed file's bytes, refusing directories and files over ``maximumFileSize``.
    ///
    /// - Parameters:
    ///   - url: the file, already resolved (see ``SourceContext/resolvePath(_:)``).
    ///   - path: the path as the user wrote it, for messages.
    ///   - sourceID: the source named in errors.
    /// - Throws: ``SourceError`` with reason `fileNotFound`, `unreadable` or `tooLarge`; nothing else.
    public static func readFile(at url: URL, path: String, sourceID: SourceID) throws -> Data {
        func fail(_ reason: SourceError.Reason, _ underlying: (any Error)? = nil) -> SourceError {
            SourceError(sourceID: sourceID, reason: reason, underlying: underlying)
        }
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw fail(.fileNotFound(path: path))
        }
        guard !isDirectory.boolValue else {
            throw fail(.unreadable(path: path, detail: "it is a directory; name a JSON Feed file inside it"))
        }
        if let problem = LocalFile.notARegularFile(url.path) { throw fail(.unreadable(path: path, detail: problem)) }
        if let size = (try? fileManager.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
            size.intValue > maximumFileSize
        {
            throw fail(.tooLarge(limit: maximumFileSize, unit: "bytes"))
        }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // Read one byte past the limit, so a file that grew after the size check is still caught.
            let data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
            guard data.count <= maximumFileSize else { throw fail(.tooLarge(limit: maximumFileSize, unit: "bytes")) }
            return data
        } catch let error as SourceError {
            throw error
        } catch {
            throw fail(.unreadable(path: path, detail: readFailureDetail(error)), error)
        }
    }

    // MARK: - Private

    /// Checks that the document is a JSON Feed at all, and returns its items.
    private static func checkShape(
        of document: LenientFeedDocument,
        path: String?,
        sourceID: SourceID
    ) throws -> [LenientFeedDocument.Outcome] {
        var problems: [String] = []
        switch document.header["version"] {
        case nil:
            problems.append("no \"version\" member (a JSON Feed has \"version\": \"\(JSONFeed.version1_1)\")")
        case .string(let version) where version.hasPrefix(versionPrefix):
            break
        case .string(let version):
            problems.append(
                "\"version\" is \"\(version)\", not a JSON Feed version URL such as \"\(JSONFeed.version1_1)\""
            )
        case let version?:
            problems.append("\"version\" is \(version.kindName), not a JSON Feed version URL")
        }
        switch document.items {
        case .missing:
            problems.append("no \"items\" array")
        case .notAnArray(let kind):
            problems.append("\"items\" is \(kind), not an array")
        case .array(let outcomes):
            if problems.isEmpty { return outcomes }
        }
        throw SourceError(sourceID: sourceID, reason: .notAFeed(path: path, detail: problems.joined(separator: "; ")))
    }

    /// Decodes the feed-level members through ``JSONFeed``'s own decoding, with an empty item list.
    private static func decodeHeader(_ header: [String: JSONValue], path: String?, sourceID: SourceID) throws
        -> JSONFeed
    {
        var members = header
        members["items"] = .array([])
        do {
            return try JSONDecoder().decode(JSONFeed.self, from: JSONEncoder().encode(JSONValue.object(members)))
        } catch {
            throw SourceError(
                sourceID: sourceID,
                reason: .notAFeed(path: path, detail: DecodingErrorText.describe(error)),
                underlying: error
            )
        }
    }

    private static func absoluteWebURL(_ string: String?) -> URL? {
        guard let string, let url = URL(string: string), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    private static func readFailureDetail(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, cocoa.code == .fileReadNoPermission {
            return "permission denied; make the file readable by this user"
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain, nsError.code == Int(EACCES) {
            return "permission denied; make the file readable by this user"
        }
        return nsError.localizedDescription
    }
}
