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
        help: "The URL the feed was fetched from, to resolve relative links (a file's path is never a base)."
    )
    var baseURL: String?

    @Option(
        help: ArgumentHelp(
            "The charset the feed was served with (the HTTP Content-Type's charset=), as RFC 7303 weighs it.",
            valueName: "name"
        )
    )
    var charset: String?

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
        let output =
            format == .json
            ? Output.streaming(BackgroundJSONFeedWriter())
            : .collecting(CollectedFeed())
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
                options: FeedParserOptions(
                    baseURL: effectiveBaseURL,
                    sourceID: SourceID(sourceID),
                    httpCharset: charset
                )
            )
        } catch {
            throw ParseFailure(message: "\(error)")
        }
        // One buffer for the whole input, so that reading allocates nothing per chunk.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkReader.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            var count = first.count
            // Items come unbuilt: whichever thread is ahead builds them (see `BackgroundJSONFeedWriter`).
            var items = count > 0 ? try first.withUnsafeBytes { try parser.parsePending($0) } : []
            while count > 0 {
                report(parser.takeWarnings())
                if let metadata = parser.metadata { output.begin(metadata.makeJSONFeed()) }
                output.write(items)
                count = try reader.next(into: buffer)
                items = count > 0 ? try parser.parsePending(UnsafeRawBufferPointer(rebasing: buffer[..<count])) : []
            }
            items = try parser.finishPending()
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
        // A file's path is never a base (a `file:///blog/...` link means nothing to a reader): without --base-url or
        // an xml:base, relative links stay as written.
        baseURL.flatMap { URL(string: $0) }
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
    case streaming(BackgroundJSONFeedWriter)
    case collecting(CollectedFeed)

    func begin(_ header: @autoclosure () -> JSONFeed) {
        switch self {
        case .streaming(let writer): writer.begin(header())
        case .collecting(let collected): collected.begin(header())
        }
    }

    /// Writes items.
    func write(_ items: [FeedItem]) {
        switch self {
        case .streaming(let writer): writer.write(.built(items.map { WritableFeedItem(item: $0) }))
        case .collecting(let collected): collected.feed.items += items
        }
    }

    /// Builds and writes items.
    func write(_ items: [PendingFeedItem]) {
        switch self {
        case .streaming(let writer): writer.write(.pending(items))
        case .collecting(let collected): collected.feed.items += PendingFeedItem.build(items)
        }
    }

    func finish() {
        if case .streaming(let writer) = self { writer.finish(afterFailure: false) }
    }

    /// Closes a document that was started, so what was printed before a failure is still valid JSON.
    func finishAfterFailure() {
        if case .streaming(let writer) = self { writer.finish(afterFailure: true) }
    }
}

/// Builds items and writes them as JSON Feed (``JSONFeedStream``) on a thread of its own, so that reading and
/// parsing the feed, on the caller's thread, and building items (their text read, their HTML made safe) and writing
/// them, on this one, run side by side: on two cores the wall time of `parse` is close to the longer of the two
/// instead of their sum.
///
/// Items travel as the parser returns them, one array per chunk read (never copied item by item: a `FeedItem` copy
/// costs some twenty reference counts); at most ``capacity`` items wait, so memory stays flat whatever the size of
/// the feed. The JSON Feed stream belongs to the writer's thread alone.
///
/// The parser's items come unbuilt (``PendingFeedItem``), and building them is the work the two threads share.
/// The writer builds each part it takes, unless it is built already. The caller never waits idle for the writer:
/// when the queue is full (the writer is behind: Atom feeds, with long content to make safe), and at the end of the
/// feed, it builds the newest waiting part itself, while the writer works from the oldest. When the writer keeps up
/// (Google News, whose items are short), the caller only parses. Parts are small (some 30 items), so at the end the
/// two threads finish within a part of each other.
private final class BackgroundJSONFeedWriter: @unchecked Sendable {
    /// Items, as the parser returned them.
    enum Part {
        case built([WritableFeedItem])
        case pending([PendingFeedItem])

        var count: Int {
            switch self {
            case .built(let items): items.count
            case .pending(let items): items.count
            }
        }

        /// The items, built.
        consuming func build() -> [WritableFeedItem] {
            switch consume self {
            case .built(let items): items
            case .pending(let pending): PendingFeedItem.buildForWriting(pending)
            }
        }
    }

    /// A part in the queue. Its items belong to whichever thread claimed it (``isClaimed``, under the lock).
    private final class Slot: @unchecked Sendable {
        private(set) var part: Part?
        let count: Int
        /// Whether a thread took the part to build it.
        var isClaimed = false
        /// Whether its items are built.
        var isBuilt = false

        init(_ part: Part) {
            count = part.count
            self.part = part
        }

        /// Builds the items, moving them so that the part's array stays uniquely referenced and its items are moved,
        /// not copied.
        func build() {
            if let pending = part.take() { part = .built(pending.build()) }
        }

        /// The items, moved out.
        func take() -> [WritableFeedItem] {
            part.take()?.build() ?? []
        }
    }

    private enum Message {
        case begin(JSONFeed)
        case items(Slot)
        case finish(afterFailure: Bool)
    }

    /// The most items waiting for the writer before the caller turns to building them. Measured on the 100 MB
    /// Google News feed, fewer waiting items did not take less memory (batches of 64: 30 MiB peak, 128: 29.5,
    /// 256: 28; the cause, malloc arenas most likely, was not pinned down).
    private static let capacity = 512

    private let stream: JSONFeedStream
    /// Guards ``messages``, ``waitingItems``, ``isDone`` and the slots' states; signalled whenever one of them changes.
    private let condition = NSCondition()
    private var messages: [Message] = []
    /// The items in the slots of ``messages``.
    private var waitingItems = 0
    private var isDone = false
    /// On the caller's thread: whether the header was sent.
    private var hasBegun = false

    /// Starts the writer's thread.
    init() {
        stream = JSONFeedStream()
        let thread = Thread { [self] in run() }
        thread.name = "tributary.parse-writer"
        thread.start()
    }

    /// Writes the header once; items sent before it are held by the stream until then.
    func begin(_ header: @autoclosure () -> JSONFeed) {
        guard !hasBegun else { return }
        hasBegun = true
        send(.begin(header()))
    }

    /// Sends items to be written; while ``capacity`` items are already waiting, builds waiting ones instead.
    func write(_ items: Part) {
        guard items.count > 0 else { return }
        send(.items(Slot(items)))
    }

    /// Ends the document (after a failure, only when it was begun) and returns once all of it is written, building
    /// waiting parts meanwhile.
    func finish(afterFailure: Bool) {
        condition.lock()
        messages.append(.finish(afterFailure: afterFailure))
        condition.broadcast()
        while !isDone {
            if !helpBuild() { condition.wait() }
        }
        condition.unlock()
    }

    private func send(_ message: Message) {
        condition.lock()
        while waitingItems >= Self.capacity, !isDone {
            if !helpBuild() { condition.wait() }
        }
        if !isDone {
            messages.append(message)
            if case .items(let slot) = message { waitingItems += slot.count }
            condition.broadcast()
        }
        condition.unlock()
    }

    /// On the caller's thread, with the lock held: builds the newest part no thread has claimed, releasing the
    /// lock meanwhile; returns whether there was one.
    private func helpBuild() -> Bool {
        for message in messages.reversed() {
            guard case .items(let slot) = message, !slot.isClaimed else { continue }
            slot.isClaimed = true
            condition.unlock()
            slot.build()
            condition.lock()
            slot.isBuilt = true
            condition.broadcast()
            return true
        }
        return false
    }

    /// The writer's thread: takes the messages in order until the document is finished.
    private func run() {
        while true {
            condition.lock()
            while messages.isEmpty { condition.wait() }
            let message = messages.removeFirst()
            if case .items(let slot) = message {
                waitingItems -= slot.count
                if slot.isClaimed {
                    // The caller is building it: wait for that.
                    while !slot.isBuilt { condition.wait() }
                } else {
                    slot.isClaimed = true
                }
            }
            condition.broadcast()
            condition.unlock()
            switch consume message {
            case .begin(let header):
                stream.begin(header)
            case .items(let slot):
                stream.write(slot.take())
            case .finish(let afterFailure):
                if !afterFailure || stream.hasBegun { stream.finish() }
                condition.lock()
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}

/// Writes a JSON Feed document to standard output item by item, in blocks of about 64 KiB.
private final class JSONFeedStream {
    private var writer = JSONFeedWriter()
    private var buffer: [UInt8] = []
    /// Items seen before the header.
    private var pending: [[WritableFeedItem]] = []
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
        var held: [[WritableFeedItem]] = []
        swap(&held, &pending)
        held.reverse()
        while let items = held.popLast() { write(items) }
    }

    /// Writes items; a safe `content_html` kept beside an item as UTF-8 goes into the JSON as it is.
    func write(_ items: consuming [WritableFeedItem]) {
        guard hasBegun else {
            pending.append(items)
            return
        }
        // Each item is moved out of the array while it is written, then moved back: reading it in place (through
        // `withUnsafeBufferPointer`) copied it before each call, and a `FeedItem` copy retains and releases some
        // twenty references. The writer and the buffer are locals meanwhile, sparing an exclusivity check per use.
        var items = items
        var writer = writer
        var buffer: [UInt8] = []
        swap(&buffer, &self.buffer)
        items.withUnsafeMutableBufferPointer { items in
            for index in items.indices {
                let entry = items.moveElement(from: index)
                if let safe = entry.safeContentHTML {
                    writer.writeItem(entry.item, contentHTML: safe, into: &buffer)
                } else if entry.item.contentHTML == nil, entry.item.contentText == nil {
                    writer.writeItem(entry.item.withRequiredContent(), into: &buffer)
                } else {
                    writer.writeItem(entry.item, into: &buffer)
                }
                items.initializeElement(at: index, to: entry)
            }
        }
        self.writer = writer
        swap(&buffer, &self.buffer)
        if self.buffer.count >= 1 << 16 { flush() }
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
