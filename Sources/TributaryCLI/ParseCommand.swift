import ArgumentParser
import FeedParser
import Foundation
import RSSAdapter
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
            INPUT is an http(s) URL, a file path, a file:// URL, or - for standard input. The format is detected from the content, \
            not from the file name: RSS 0.90 to 2.0, RDF, Atom 0.3 and 1.0, JSON Feed 1.0 and 1.1.

            XML feeds are parsed as the bytes are read and JSON Feed output is written item by item, so memory \
            stays flat however large the feed is.

            Exit codes: 0 the feed was parsed; 1 the input is not a feed or could not be read (what was parsed \
            before a failure is still printed, as a complete document); 2 bad usage.
            """
    )

    @Argument(help: "The feed: an http(s) URL, a path, a file:// URL, or - for standard input.")
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

    @Option(
        help: ArgumentHelp(
            "The language the feed was served in (the HTTP Content-Language): the feed's language when it names none.",
            valueName: "tag"
        )
    )
    var language: String?

    func validate() throws {
        guard SourceID(sourceID).isValid else {
            throw ValidationError("--source-id must be lower-case letters, digits and '-', like 'my-feed'")
        }
        if let baseURL, URL(string: baseURL)?.scheme == nil {
            throw ValidationError("--base-url must be an absolute URL, like https://example.org/feed.xml")
        }
    }

    func run() async throws {
        if let url = URL(string: input), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            // Fetched whole (a feed is at most a few MiB), then read like a file, with the URL it came from (after
            // redirects) as its base and the charset it was served with.
            let page: WebPage
            do {
                page = try await WebPage.fetch(url, accept: HTTPFeedAccept.value, maxBytes: 64 << 20)
            } catch {
                StandardError.write("tributary: \(TerminalText.sanitize(error.description))")
                throw CLIExit.sourceFailed
            }
            try convert(
                baseURL: effectiveBaseURL ?? page.url,
                charset: charset ?? page.charset,
                language: language ?? page.contentLanguage,
                read: page.bodyReader()
            )
            return
        }
        let reader: ChunkReader
        do {
            reader = try ChunkReader(input: input)
        } catch let error as ChunkReader.OpenError {
            StandardError.write("tributary: \(TerminalText.sanitize(error.description))")
            throw CLIExit.sourceFailed
        }
        defer { reader.close() }
        try convert(baseURL: effectiveBaseURL, charset: charset, language: language) { try reader.next(into: $0) }
    }

    /// Parses what `read` gives and prints it in the chosen format.
    private func convert(
        baseURL: URL?,
        charset: String?,
        language: String?,
        read: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws {
        let options = FeedParserOptions(
            baseURL: baseURL,
            sourceID: SourceID(sourceID),
            httpCharset: charset,
            httpLanguage: language
        )
        let feed: JSONFeed?
        do {
            feed = try FeedConversion.convert(
                options: options,
                output: format == .json ? .jsonFeed(fileDescriptor: STDOUT_FILENO) : .collected,
                read: read,
                warning: report
            )
        } catch {
            StandardError.write("tributary: \(displayPath): \(TerminalText.sanitize(error.description))")
            throw CLIExit.sourceFailed
        }
        if let feed { try render(feed) }
    }

    // MARK: - Private

    private var displayPath: String {
        input == "-" ? "<stdin>" : input
    }

    private func render(_ feed: JSONFeed) throws {
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

    private func report(_ warning: SourceWarning) {
        StandardError.write("tributary: \(displayPath): warning: \(TerminalText.sanitize(warning.description))")
    }

}
