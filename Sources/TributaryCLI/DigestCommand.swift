import ArgumentParser
import Foundation
import Renderers
import TributaryCore

/// `tributary digest`: fetch every source and write the digest file.
struct DigestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Fetch all sources and write the digest (HTML by default).",
        discussion: """
            The file is written atomically (a temporary file renamed into place), so a reader never sees half a \
            digest. Without -o it goes to feeds.json's "output", or else to digest.<format> beside feeds.json. \
            A failing source does not stop the others: the digest is still written and names it. \
            What was seen is kept in .tributary/state.sqlite beside feeds.json (feeds.json's "state", --state PATH, \
            or --no-state to keep nothing): items first seen after the previous digest are marked new, and \
            --since last shows only those.

            --template (or "template" in feeds.json, relative to its directory) draws the HTML digest through your \
            own Mustache template; start from the built-in one (Sources/Renderers/Templates/digest.html.mustache) \
            and see docs/templates.md for its keys. The template is checked before anything is fetched.

            Exit codes: 0 all sources succeeded; 1 the digest was written but a source failed; 2 bad usage, \
            invalid configuration or a bad template (nothing fetched, nothing written).
            """
    )

    @OptionGroup var options: ConfigOptions

    @OptionGroup var state: StateOptions

    @OptionGroup var window: SinceOptions

    @Option(name: [.short, .long], help: "Where to write the digest; - for standard output.")
    var output: String?

    @Option(help: "The digest's format: html, markdown, text or json.")
    var format: FormatOption = .html

    @Option(
        help: ArgumentHelp(
            "A Mustache template for the HTML digest, instead of feeds.json's \"template\" or the built-in look.",
            valueName: "path"
        )
    )
    var template: String?

    @Flag(name: [.short, .long], help: "Report only failures and warnings on standard error.")
    var quiet = false

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try options.loadConfiguration(registry: registry)
        let destination = try resolveDestination(configuration)
        let htmlTemplate = try loadTemplate(configuration)

        var run = AggregationRun(
            configuration: configuration,
            registry: registry,
            options: options,
            state: state,
            since: window.since
        )
        let toStandardOutput = destination == nil
        let renderer = RendererFactory.make(
            format.outputFormat,
            width: toStandardOutput ? Terminal.width(of: 1) : 80,
            color: toStandardOutput && Terminal.allowsColor(on: 1),
            template: htmlTemplate
        )
        // The digest is drawn a batch at a time from the store (memory flat in the number of items); a template
        // that must be drawn whole has its run keep the items whole rather than read them back.
        run.holdsItems = !Self.drawsInParts(renderer)
        // The digest is written before the state records it as shown (see AggregationRun.run).
        let outcome = try await run.run(
            in: try state.location(for: configuration),
            lockTimeout: state.lockTimeout,
            progress: ProgressReporter(quiet: quiet)
        ) { outcome in
            try await OutputFile.writing(to: destination?.path ?? "-") {
                try await Self.draw(outcome, with: renderer, to: $0)
            }
        }
        if let destination {
            let failed = outcome.outline.failedSources.count
            if !quiet || failed > 0 {
                let items = outcome.outline.itemCount
                let sources = outcome.outline.sources.count
                StandardError.write(
                    "tributary: wrote \(Self.displayPath(of: destination)) (\(items) item\(items == 1 ? "" : "s") from "
                        + "\(sources) source\(sources == 1 ? "" : "s")\(failed > 0 ? ", \(failed) failed" : ""))"
                )
            }
        }
        if outcome.hasFailures { throw CLIExit.sourceFailed }
    }

    /// Whether `renderer` draws a digest in parts (every format does, but an HTML template that must be drawn whole).
    static func drawsInParts(_ renderer: any Renderer) -> Bool {
        (renderer as? any StreamingRenderer)?.drawsInParts ?? false
    }

    /// Draws the digest into `writer`: a part at a time from the store when the renderer can (every format, but an
    /// HTML template that must be drawn whole), so that memory stays flat in the number of items.
    static func draw(_ outcome: AggregationRun.Outcome, with renderer: any Renderer, to writer: OutputFile.Writer)
        async throws
    {
        if let streaming = renderer as? any StreamingRenderer, streaming.drawsInParts {
            try await outcome.render(with: streaming) { try writer.write($0) }
        } else {
            try writer.write(Array(try renderer.render(await outcome.digest()).utf8))
        }
    }

    /// A path for messages: relative to the working directory when the file is inside it.
    private static func displayPath(of url: URL) -> String {
        let directory = FileManager.default.currentDirectoryPath
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }

    /// The user's HTML template (`--template`, else feeds.json's `template`), or `nil` for the built-in one. Loaded
    /// and checked before anything is fetched; a bad template is printed with its file and line and exits with 2.
    private func loadTemplate(_ configuration: FeedsConfiguration) throws -> HTMLTemplate? {
        let url: URL
        let displayPath: String
        if let template {
            guard format == .html else {
                throw ValidationError("--template applies to the HTML digest; leave it out with --format \(format)")
            }
            url = URL(
                fileURLWithPath: template,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            )
            displayPath = template
        } else if let configured = configuration.template, format == .html {
            url = URL(fileURLWithPath: configured, relativeTo: configuration.directory)
            displayPath = Self.displayPath(of: url.standardizedFileURL)
        } else {
            return nil
        }
        do {
            return try HTMLTemplate(contentsOf: url.standardizedFileURL, displayPath: displayPath)
        } catch {
            StandardError.write(error.description)
            throw CLIExit.usage
        }
    }

    /// The file to write, or `nil` for standard output. Checked before anything is fetched, so a bad path costs
    /// nothing.
    private func resolveDestination(_ configuration: FeedsConfiguration) throws -> URL? {
        if let output, OutputFile.standardStream(output) == 1 { return nil }
        let url: URL
        if let output {
            url = URL(
                fileURLWithPath: output,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            )
        } else {
            let path = configuration.output ?? "digest.\(format.outputFormat.fileExtension)"
            url = URL(fileURLWithPath: path, relativeTo: configuration.directory)
        }
        let destination = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        let parent = destination.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("cannot write \(output ?? destination.path): the directory \(parent) does not exist")
        }
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ValidationError("cannot write \(output ?? destination.path): it is a directory; name a file")
        }
        return destination
    }
}
