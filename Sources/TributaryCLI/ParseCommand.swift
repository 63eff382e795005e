import ArgumentParser
import Foundation
import JSONFileAdapter
import Renderers
import TributaryCore

/// `tributary parse`: read one feed and print it as JSON Feed 1.1 (or another format).
struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse one feed and print it as JSON Feed 1.1.",
        discussion: """
            INPUT is a file path, a file:// URL, or - for standard input. The format is detected from the content,
            not from the file name.

            Exit codes: 0 the feed was parsed; 1 the input is not a feed or could not be read; 2 bad usage.
            """
    )

    @Argument(help: "The feed: a path, a file:// URL, or - for standard input.")
    var input: String

    @Option(help: "The output format: json (JSON Feed 1.1), html, markdown or text.")
    var format: FormatOption = .json

    @Option(name: .customLong("source-id"), help: "The source id stamped on every item.")
    var sourceID: String = "input"

    func validate() throws {
        guard SourceID(sourceID).isValid else {
            throw ValidationError("--source-id must be lower-case letters, digits and '-', like 'my-feed'")
        }
    }

    func run() async throws {
        let id = SourceID(sourceID)
        let feed: JSONFeed
        do {
            let data = try readInput()
            let document = try JSONFeedDocumentReader.read(data: data, path: displayPath, sourceID: id)
            for warning in document.warnings {
                StandardError.write(
                    "tributary: \(displayPath): warning: \(TerminalText.sanitize(warning.description))"
                )
            }
            feed = document.feed
        } catch let error as SourceError {
            StandardError.write("tributary: \(TerminalText.sanitize(error.reasonDescription))")
            throw CLIExit.sourceFailed
        }
        let output: String
        if format == .json {
            output = try JSONFeedRenderer.encode(feed)
        } else {
            let status = SourceStatus(
                sourceID: id,
                kind: "parse",
                title: feed.title,
                state: .succeeded,
                itemCount: feed.items.count
            )
            let digest = DigestBuilder(title: feed.title, timeZone: .current, generatedAt: RunClock.now()())
                .build(items: feed.items, statuses: [status])
            output = try RendererFactory.make(
                format.outputFormat,
                width: Terminal.width(of: 1),
                color: Terminal.allowsColor(on: 1)
            ).render(digest)
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    private var displayPath: String {
        input == "-" ? "<stdin>" : input
    }

    private func readInput() throws -> Data {
        if input == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var path = input
        if let url = URL(string: input), let scheme = url.scheme?.lowercased() {
            switch scheme {
            case "file":
                path = url.path
            case "http", "https":
                throw SourceError(
                    sourceID: SourceID(sourceID),
                    reason: .other(
                        "\(input): fetching over HTTP is not supported yet; save the feed to a file and parse that"
                    )
                )
            default:
                break
            }
        }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SourceError(sourceID: SourceID(sourceID), reason: .other("\(input): no such file"))
        }
        guard !isDirectory.boolValue else {
            throw SourceError(
                sourceID: SourceID(sourceID),
                reason: .unreadable(path: input, detail: "it is a directory")
            )
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw SourceError(
                sourceID: SourceID(sourceID),
                reason: .unreadable(path: input, detail: "\(error.localizedDescription)")
            )
        }
    }
}
