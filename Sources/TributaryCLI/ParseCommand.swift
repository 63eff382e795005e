import ArgumentParser
import FeedParser
import Foundation
import JSONFileAdapter
import Renderers
import TributaryCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `tributary parse`: read one feed and print it as JSON Feed 1.1 (or another format).
struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse one feed (RSS, Atom or JSON Feed) and print it as JSON Feed 1.1.",
        discussion: """
            INPUT is a file path, a file:// URL, or - for standard input. The format is detected from the content,
            not from the file name: RSS 0.90 to 2.0, RDF, Atom 0.3 and 1.0, JSON Feed 1.0 and 1.1.

            XML feeds are parsed as the bytes are read and JSON Feed output is written item by item, so memory
            stays flat however large the feed is.

            Exit codes: 0 the feed was parsed; 1 the input is not a feed or could not be read (what was parsed
            before a failure is still printed, as a complete document); 2 bad usage.
            """
    )

    @Argument(help: "The feed: a path, a file:// URL, or - for standard input.")
    var input: String

    @Option(help: "The output format: json (JSON Feed 1.1), html, markdown or text.")
    var format: FormatOption = .json

    @Option(name: .customLong("source-id"), help: "The source id stamped on every item.")
    var sourceID: String = "input"

    @Option(
        name: .customLong("base-url"),
        help: "The URL the feed was fetched from, to resolve relative links (default: the file's URL)."
    )
    var baseURL: String?

    func validate() throws {
        guard SourceID(sourceID).isValid else {
            throw ValidationError("--source-id must be lower-case letters, digits and '-', like 'my-feed'")
        }
        if let baseURL, URL(string: baseURL)?.scheme == nil {
            throw ValidationError("--base-url must be an absolute URL, like https://example.org/feed.xml")
        }
    }

    func run() async throws {
        let reader: ChunkReader
        do {
            reader = try ChunkReader(input: input)
        } catch let error as ChunkReader.OpenError {
            StandardError.write("tributary: \(TerminalText.sanitize(error.description))")
            throw CLIExit.sourceFailed
        }
        defer { reader.close() }
        let output = format == .json ? Output.streaming(JSONFeedStream()) : .collecting(CollectedFeed())
        do {
            let first = try reader.next()
            if Self.looksLikeJSON(first) {
                try parseJSON(first: first, reader: reader, output: output)
            } else {
                try parseXML(first: first, reader: reader, output: output)
            }
        } catch let failure as ParseFailure {
            output.finishAfterFailure()
            StandardError.write("tributary: \(displayPath): \(TerminalText.sanitize(failure.message))")
            throw CLIExit.sourceFailed
        }
        if case .collecting(let collected) = output { try render(collected) }
    }

    // MARK: - Private

    private var displayPath: String {
        input == "-" ? "<stdin>" : input
    }

    private func parseXML(first: [UInt8], reader: ChunkReader, output: Output) throws {
        let parser: StreamingFeedParser
        do {
            parser = try StreamingFeedParser(
                options: FeedParserOptions(baseURL: effectiveBaseURL, sourceID: SourceID(sourceID))
            )
        } catch {
            throw ParseFailure(message: "\(error)")
        }
        // One buffer for the whole input, so that reading allocates nothing per chunk.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkReader.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            var count = first.count
            var items = count > 0 ? try parser.parse(first) : []
            while count > 0 {
                report(parser.takeWarnings())
                if let metadata = parser.metadata { output.begin(metadata.makeJSONFeed()) }
                output.write(items)
                count = try reader.next(into: buffer)
                items = count > 0 ? try parser.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count])) : []
            }
            items = try parser.finish()
            report(parser.takeWarnings())
            output.begin(parser.metadata?.makeJSONFeed() ?? JSONFeed(title: "", items: []))
            output.write(items)
            output.finish()
        } catch let error as FeedParseError {
            report(parser.takeWarnings())
            throw ParseFailure(message: error.description)
        } catch let error as ChunkReader.ReadError {
            throw ParseFailure(message: error.description)
        }
    }

    private func parseJSON(first: [UInt8], reader: ChunkReader, output: Output) throws {
        var data = Data(first)
        do {
            var chunk = try reader.next()
            while !chunk.isEmpty {
                data.append(contentsOf: chunk)
                guard data.count <= JSONFeedDocumentReader.maximumFileSize else {
                    throw ParseFailure(
                        message:
                            "larger than \(JSONFeedDocumentReader.maximumFileSize >> 20) MiB, the limit for JSON Feed files"
                    )
                }
                chunk = try reader.next()
            }
        } catch let error as ChunkReader.ReadError {
            throw ParseFailure(message: error.description)
        }
        do {
            let document = try JSONFeedDocumentReader.read(data: data, path: nil, sourceID: SourceID(sourceID))
            report(document.warnings)
            var header = document.feed
            header.items = []
            output.begin(header)
            output.write(document.feed.items)
            output.finish()
        } catch let error as SourceError {
            throw ParseFailure(message: error.reasonDescription)
        }
    }

    private func render(_ collected: CollectedFeed) throws {
        let feed = collected.feed
        let id = SourceID(sourceID)
        let status = SourceStatus(
            sourceID: id,
            kind: "parse",
            title: feed.title,
            state: .succeeded,
            itemCount: feed.items.count
        )
        let digest = DigestBuilder(title: feed.title, timeZone: .current, generatedAt: RunClock.now()())
            .build(items: feed.items, statuses: [status])
        let rendered = try RendererFactory.make(
            format.outputFormat,
            width: Terminal.width(of: 1),
            color: Terminal.allowsColor(on: 1)
        ).render(digest)
        FileHandle.standardOutput.write(Data(rendered.utf8))
    }

    private var effectiveBaseURL: URL? {
        if let baseURL { return URL(string: baseURL) }
        guard input != "-" else { return nil }
        if let url = URL(string: input), url.scheme?.lowercased() == "file" { return url }
        return URL(fileURLWithPath: input).standardizedFileURL
    }

    private func report(_ warnings: [SourceWarning]) {
        for warning in warnings {
            StandardError.write("tributary: \(displayPath): warning: \(TerminalText.sanitize(warning.description))")
        }
    }

    /// Whether the input starts, after a byte-order mark and white space, with `{`.
    private static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "{")
    }

    private struct ParseFailure: Error {
        var message: String
    }
}

/// Where parsed items go: straight to standard output as JSON Feed, or collected for a renderer.
private enum Output {
    case streaming(JSONFeedStream)
    case collecting(CollectedFeed)

    func begin(_ header: JSONFeed) {
        switch self {
        case .streaming(let stream): stream.begin(header)
        case .collecting(let collected): collected.begin(header)
        }
    }

    func write(_ items: [FeedItem]) {
        switch self {
        case .streaming(let stream): stream.write(items)
        case .collecting(let collected): collected.feed.items += items
        }
    }

    func finish() {
        if case .streaming(let stream) = self { stream.finish() }
    }

    /// Closes a document that was started, so what was printed before a failure is still valid JSON.
    func finishAfterFailure() {
        if case .streaming(let stream) = self, stream.hasBegun { stream.finish() }
    }
}

/// Writes a JSON Feed document to standard output item by item, in blocks of about 64 KiB.
private final class JSONFeedStream {
    private var writer = JSONFeedWriter()
    private var buffer: [UInt8] = []
    private var pending: [FeedItem] = []
    private(set) var hasBegun = false
    private var hasFinished = false

    init() {
        buffer.reserveCapacity(1 << 17)
    }

    /// Writes the header once; items seen before it are held until then.
    func begin(_ header: JSONFeed) {
        guard !hasBegun else { return }
        hasBegun = true
        writer.writeHeader(of: header, into: &buffer)
        let held = pending
        pending = []
        write(held)
    }

    func write(_ items: [FeedItem]) {
        guard hasBegun else {
            pending += items
            return
        }
        // Items are read in place (an `UnsafeBufferPointer` element is borrowed, not copied): a `FeedItem` copy
        // retains and releases some twenty references.
        items.withUnsafeBufferPointer { items in
            for index in items.indices {
                if items[index].contentHTML == nil, items[index].contentText == nil {
                    writer.writeItem(items[index].withRequiredContent(), into: &buffer)
                } else {
                    writer.writeItem(items[index], into: &buffer)
                }
            }
        }
        if buffer.count >= 1 << 16 { flush() }
    }

    func finish() {
        guard !hasFinished else { return }
        begin(JSONFeed(title: "", items: []))
        hasFinished = true
        writer.writeFooter(into: &buffer)
        flush()
    }

    /// Writes the buffer to standard output with `write(2)`, without copying it into a `Data` first.
    private func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { bytes in
            guard var cursor = bytes.baseAddress else { return }
            var remaining = bytes.count
            while remaining > 0 {
                let written = systemWrite(STDOUT_FILENO, cursor, remaining)
                if written > 0 {
                    cursor += written
                    remaining -= written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // standard output is gone (a closed pipe); nothing more can be shown
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The whole feed, for renderers that need every item before they start.
private final class CollectedFeed {
    var feed = JSONFeed(title: "", items: [])

    func begin(_ header: JSONFeed) {
        guard feed.title.isEmpty, feed.homePageURL == nil else { return }
        let items = feed.items
        feed = header
        feed.items = items
    }
}

/// `write(2)`, named apart from the `write` methods above.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
