import Foundation
public import TributaryCore

/// Reads one feed of any supported format (RSS 0.90 to 2.0, RDF, Atom 0.3 and 1.0, JSON Feed 1.0 and 1.1, told
/// from its first bytes by ``FeedDocumentKind``) chunk by chunk, and hands it on as JSON Feed 1.1: written to a file
/// descriptor as it is parsed, or collected whole. `tributary parse` is a thin command over this.
///
/// Written out, XML is parsed on the caller's thread while its items are built (their text read, their HTML made
/// safe) and written on a second thread (``BackgroundJSONFeedWriter``), so on two cores the wall time is close to
/// the longer of the two; at most some 512 items wait, so memory stays flat whatever the size of the feed. A JSON
/// Feed document is read whole (up to ``JSONFeedDocumentReader/maximumFileSize``) by ``JSONFeedDocumentReader``.
public enum FeedConversion {
    /// Where the feed goes.
    public enum Output: Sendable {
        /// Written as JSON Feed 1.1 to the file descriptor as it is read; after a failure, what was read is closed
        /// into a valid document.
        case jsonFeed(fileDescriptor: Int32)
        /// Collected and returned whole, for a renderer that needs every item first.
        case collected
    }

    /// Why the input is not a feed or could not be read, in words for a person.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The size of the chunks asked of `read`.
    public static let chunkSize = 1 << 16

    /// Converts one feed.
    ///
    /// - Parameters:
    ///   - options: the parser's options (the base URL, the source id stamped on items, an HTTP charset).
    ///   - output: where the feed goes.
    ///   - read: fills the buffer with the next bytes of the input (``chunkSize`` at most) and returns how many; 0
    ///     at the end. What it throws is reported with its description.
    ///   - warning: called for each warning (recovered markup, an encoding fixed, a member left out), as they come.
    /// - Returns: the whole feed for ``Output/collected``; `nil` for ``Output/jsonFeed(fileDescriptor:)``.
    /// - Throws: ``Failure`` when the input is not a feed or could not be read.
    public static func convert(
        options: FeedParserOptions,
        output: Output,
        read: (UnsafeMutableRawBufferPointer) throws -> Int,
        warning: (SourceWarning) -> Void
    ) throws(Failure) -> JSONFeed? {
        let destination: ConversionOutput
        switch output {
        case .jsonFeed(let descriptor): destination = .streaming(BackgroundJSONFeedWriter(fileDescriptor: descriptor))
        case .collected: destination = .collecting(CollectedFeed())
        }
        // One buffer for the whole input, so that reading allocates nothing per chunk.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            var first: [UInt8] = []
            var kind: FeedDocumentKind?
            while kind == nil {
                let count = try read(buffer)
                first += UnsafeRawBufferPointer(rebasing: buffer[..<count])
                if count == 0 { break }
                kind = FeedDocumentKind(start: first)
            }
            if case .json? = kind {
                try convertJSON(
                    first: first,
                    options: options,
                    output: destination,
                    buffer: buffer,
                    read: read,
                    warning: warning
                )
            } else {
                try convertXML(
                    first: first,
                    options: options,
                    output: destination,
                    buffer: buffer,
                    read: read,
                    warning: warning
                )
            }
        } catch {
            destination.finishAfterFailure()
            throw error as? Failure ?? Failure(description: "\(error)")
        }
        if case .collecting(let collected) = destination { return collected.feed }
        return nil
    }

    // MARK: - Private

    private static func convertXML(
        first: [UInt8],
        options: FeedParserOptions,
        output: ConversionOutput,
        buffer: UnsafeMutableRawBufferPointer,
        read: (UnsafeMutableRawBufferPointer) throws -> Int,
        warning: (SourceWarning) -> Void
    ) throws {
        let parser: StreamingFeedParser
        do {
            parser = try StreamingFeedParser(options: options)
        } catch {
            throw Failure(description: "\(error)")
        }
        func report() { parser.takeWarnings().forEach(warning) }
        do {
            var count = first.count
            // Items come unbuilt: whichever thread is ahead builds them (see `BackgroundJSONFeedWriter`).
            var items = count > 0 ? try first.withUnsafeBytes { try parser.parsePending($0) } : []
            while count > 0 {
                report()
                if let metadata = parser.metadata { output.begin(metadata.makeJSONFeed()) }
                output.write(items)
                count = try read(buffer)
                items = count > 0 ? try parser.parsePending(UnsafeRawBufferPointer(rebasing: buffer[..<count])) : []
            }
            items = try parser.finishPending()
            report()
            output.begin(parser.metadata?.makeJSONFeed() ?? JSONFeed(title: "", items: []))
            output.write(items)
            output.finish()
        } catch let error as FeedParseError {
            report()
            throw Failure(description: error.description)
        }
    }

    private static func convertJSON(
        first: [UInt8],
        options: FeedParserOptions,
        output: ConversionOutput,
        buffer: UnsafeMutableRawBufferPointer,
        read: (UnsafeMutableRawBufferPointer) throws -> Int,
        warning: (SourceWarning) -> Void
    ) throws {
        var data = Data(first)
        while true {
            let count = try read(buffer)
            guard count > 0 else { break }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            guard data.count <= JSONFeedDocumentReader.maximumFileSize else {
                throw Failure(
                    description:
                        "larger than \(JSONFeedDocumentReader.maximumFileSize >> 20) MiB, the limit for JSON Feed files"
                )
            }
        }
        do {
            let document = try JSONFeedDocumentReader.read(data: data, path: nil, sourceID: options.sourceID)
            document.warnings.forEach(warning)
            var header = document.feed
            header.items = []
            output.begin(header)
            output.write(document.feed.items)
            output.finish()
        } catch let error as SourceError {
            throw Failure(description: error.reasonDescription)
        }
    }
}
