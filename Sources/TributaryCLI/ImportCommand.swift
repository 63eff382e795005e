import ArgumentParser
import Foundation
import GoogleNewsAdapter
import TributaryCore

/// `tributary import FILE.opml`: adds an OPML file's subscriptions to feeds.json.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the feeds of an OPML file (from another feed reader) to feeds.json.",
        discussion: """
            Reads OPML 1.0 or 2.0 as newsboat, Miniflux, FreshRSS, Feedly and most feed readers export it. Each feed \
            becomes an "rss" source: its id is made from its title, a feed whose URL feeds.json already lists is \
            skipped, and the folder it was in is kept as its "category". New entries are appended to the "sources" \
            array; the rest of the file is left as it was. feeds.json is created when it does not exist.

            Exit codes: 0 done; 2 the OPML file or feeds.json cannot be read or is invalid (nothing is written).
            """
    )

    @Argument(help: "The OPML file.")
    var file: String

    @Option(name: [.short, .customLong("config")], help: "The feeds.json to add to (created when missing).")
    var configPath: String = "feeds.json"

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            StandardError.write("tributary: \(file): no such file")
            throw CLIExit.usage
        }
        let subscriptions: [OPML.Subscription]
        do {
            subscriptions = try OPML.subscriptions(in: data)
        } catch {
            StandardError.write("tributary: \(file): \(error.description)")
            throw CLIExit.usage
        }
        let list = SubscriptionList(
            displayPath: configPath,
            url: URL(fileURLWithPath: configPath).standardizedFileURL,
            registry: SourceRegistry(TributaryMain.sources)
        )
        let outcome = try list.add(
            subscriptions.map { .init(url: $0.url, title: $0.title, category: $0.category) }
        )
        var report = "tributary: \(configPath): added \(outcome.added.count) feed\(outcome.added.count == 1 ? "" : "s")"
        if !outcome.alreadyListed.isEmpty { report += ", \(outcome.alreadyListed.count) already listed" }
        if subscriptions.isEmpty { report += " (the OPML file lists no feeds)" }
        StandardError.write(report)
        if !outcome.added.isEmpty {
            StandardError.write("  " + outcome.added.map(\.rawValue).joined(separator: ", "))
        }
    }
}

/// `tributary export --opml`: feeds.json's feeds as OPML 2.0, for another feed reader.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write feeds.json's feeds as OPML 2.0 on standard output.",
        discussion: """
            Every "rss" source with a web URL and every "google-news" source becomes an outline, in a folder per \
            "category". Sources OPML cannot describe (push, json-file, exec, file paths) are left out and named on \
            standard error.
            """
    )

    @Flag(help: "Write OPML 2.0 (the only format; the flag says so in scripts).")
    var opml = false

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let registry = SourceRegistry(TributaryMain.sources)
        let configuration = try options.loadConfiguration(registry: registry)
        var subscriptions: [OPML.Subscription] = []
        var leftOut: [String] = []
        let context = SourceContext(
            baseDirectory: configuration.directory,
            allowsPathsOutsideBaseDirectory: configuration.allowPathsOutside
        )
        for source in configuration.sources {
            var url: String?
            if source.kind == "rss", let text = source.entry["url"]?.stringValue,
                ["http", "https"].contains(URLComponents(string: text)?.scheme?.lowercased() ?? "")
            {
                url = text
            } else if source.kind == "google-news",
                let made = try? registry.makeSource(for: source, context: context) as? GoogleNewsSource
            {
                url = made.feedURL.absoluteString
            }
            guard let url else {
                leftOut.append("\(source.id) (\(source.kind))")
                continue
            }
            subscriptions.append(
                OPML.Subscription(url: url, title: source.title ?? source.id.rawValue, category: source.category)
            )
        }
        print(
            OPML.document(title: configuration.title, subscriptions: subscriptions, created: RunClock.now()()),
            terminator: ""
        )
        if !leftOut.isEmpty {
            StandardError.write("tributary: left out (OPML holds feed URLs only): \(leftOut.joined(separator: ", "))")
        }
    }
}
