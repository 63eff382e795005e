import FeedParser
import Foundation
import TributaryCore

/// Turns a program's stdout into items as it arrives: RSS or Atom (streamed through ``StreamingFeedParser``), a
/// JSON Feed document, or, in stream mode, JSON lines of items.
///
/// The format of a document is told from its first bytes by ``FeedDocumentKind``: XML or JSON. XML items are returned as each chunk completes them; a JSON Feed document is decoded at end
/// of file. Output that is neither is `notAFeed`; no output at all is an empty feed.
final class FeedOutputReader {
    /// The most bytes of a JSON Feed document kept in memory: 64 MiB.
    static let maximumDocumentSize = 64 * 1024 * 1024
    /// The longest line of a JSON lines stream kept: one item. A longer line is skipped, with a warning, up to its
    /// end.
    static let maximumLineLength = 16 * 1024 * 1024

    private enum State {
        case undetermined([UInt8])
        case xml(StreamingFeedParser)
        case json([UInt8])
        case other(String)
        case lines(pending: [UInt8], lineNumber: Int)
    }

    private let sourceID: SourceID
    private var state: State
    /// Whether the stream is inside a line over ``maximumLineLength``, being skipped to its end.
    private var skippingLongLine = false

    /// Creates a reader; `stream` reads JSON lines instead of one document.
    init(sourceID: SourceID, stream: Bool) {
        self.sourceID = sourceID
        state = stream ? .lines(pending: [], lineNumber: 0) : .undetermined([])
    }

    /// Takes the next bytes; returns the items and warnings they completed.
    /// - Throws: ``SourceError`` when the output cannot be a feed (a fatal XML error, a document over the limit).
    func consume(_ bytes: [UInt8]) throws(SourceError) -> (items: [FeedItem], warnings: [SourceWarning]) {
        switch state {
        case .undetermined(let buffered):
            let all = buffered + bytes
            guard let kind = FeedDocumentKind(start: all) else {
                state = .undetermined(all)
                return ([], [])
            }
            switch kind {
            case .xml:
                let parser: StreamingFeedParser
                do {
                    parser = try StreamingFeedParser(options: FeedParserOptions(sourceID: sourceID))
                } catch {
                    throw failure(error)
                }
                state = .xml(parser)
                return try consume(all)
            case .json:
                state = .json([])
                return try consume(all)
            case .other(let start):
                state = .other(start)
                return ([], [])
            }
        case .xml(let parser):
            do {
                let items = try parser.parse(bytes)
                return (items, parser.takeWarnings())
            } catch {
                throw failure(error)
            }
        case .json(var buffered):
            guard buffered.count + bytes.count <= Self.maximumDocumentSize else {
                throw SourceError(sourceID: sourceID, reason: .tooLarge(limit: Self.maximumDocumentSize, unit: "bytes"))
            }
            state = .other("")  // Not kept while the buffer is mutated, so it is not copied.
            buffered += bytes
            state = .json(buffered)
            return ([], [])
        case .other:
            return ([], [])
        case .lines(var pending, var lineNumber):
            state = .other("")  // Not kept while `pending` is mutated, so it is not copied.
            var items: [FeedItem] = []
            var warnings: [SourceWarning] = []
            // Only the new bytes are searched for line ends: a long line is not scanned again with every chunk.
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lineNumber += 1
                if skippingLongLine {
                    skippingLongLine = false
                } else {
                    pending += bytes[start..<newline]
                    decodeLine(pending[...], number: lineNumber, items: &items, warnings: &warnings)
                }
                pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
                start = newline + 1
            }
            if !skippingLongLine {
                pending += bytes[start...]
                if pending.count > Self.maximumLineLength {
                    skippingLongLine = true
                    pending = []
                    warnings.append(
                        SourceWarning(
                            "skipped a line longer than \(Self.maximumLineLength / (1024 * 1024)) MiB (one item per line "
                                + "is expected)",
                            location: "line \(lineNumber + 1)"
                        )
                    )
                }
            }
            state = .lines(pending: pending, lineNumber: lineNumber)
            return (items, warnings)
        }
    }

    /// Ends the output; returns the last items and warnings.
    /// - Throws: ``SourceError`` when the output is not a feed.
    func finish() throws(SourceError) -> (items: [FeedItem], warnings: [SourceWarning]) {
        switch state {
        case .undetermined:
            // Nothing but white space: an empty feed.
            return ([], [])
        case .xml(let parser):
            do {
                let items = try parser.finish()
                return (items, parser.takeWarnings())
            } catch {
                throw failure(error)
            }
        case .json(let buffered):
            do {
                let (feed, warnings) = try JSONFeedDocumentReader.read(
                    data: Data(buffered),
                    path: "stdout",
                    sourceID: sourceID
                )
                return (feed.items, warnings)
            } catch let error as SourceError {
                throw error
            } catch {
                throw SourceError(sourceID: sourceID, reason: .notAFeed(path: "stdout", detail: "\(error)"))
            }
        case .other(let start):
            throw SourceError(
                sourceID: sourceID,
                reason: .notAFeed(
                    path: "stdout",
                    detail:
                        "the output starts with \"\(start)\", neither XML (RSS, Atom) nor JSON Feed; set \"stream\": true for JSON lines"
                )
            )
        case .lines(let pending, let lineNumber):
            var items: [FeedItem] = []
            var warnings: [SourceWarning] = []
            if !skippingLongLine {
                decodeLine(pending[...], number: lineNumber + 1, items: &items, warnings: &warnings)
            }
            return (items, warnings)
        }
    }

    // MARK: - Private

    private func decodeLine(
        _ bytes: ArraySlice<UInt8>,
        number: Int,
        items: inout [FeedItem],
        warnings: inout [SourceWarning]
    ) {
        let trimmed = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        switch JSONFeedDocumentReader.readLine(trimmed[...], number: number, sourceID: sourceID) {
        case .item(let item, let itemWarnings):
            items.append(item)
            warnings += itemWarnings
        case .skipped(let warning): warnings.append(warning)
        }
    }

    private func failure(_ error: any Error) -> SourceError {
        if let error = error as? FeedParseError {
            switch error.reason {
            case .malformed(let line, let column, let detail):
                return SourceError(
                    sourceID: sourceID,
                    reason: .notAFeed(
                        path: "stdout",
                        detail: "malformed XML at line \(line), column \(column): \(detail)"
                    ),
                    underlying: error
                )
            default:
                return SourceError(
                    sourceID: sourceID,
                    reason: .notAFeed(path: "stdout", detail: "\(error)"),
                    underlying: error
                )
            }
        }
        return SourceError(sourceID: sourceID, reason: .other("\(error)"), underlying: error)
    }
}
