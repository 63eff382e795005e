import ArgumentParser
import Foundation
import RSSAdapter
import Renderers
import TributaryCore

/// `tributary add URL`: adds a feed, or the feed a site announces, to feeds.json.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a feed to feeds.json from its address or its site's address.",
        discussion: """
            URL is a feed, or a web page: then the feeds it announces (<link rel="alternate"> of RSS, Atom and JSON \
            Feed types) are found, else the paths sites commonly use (/feed, /rss.xml, /atom.xml, …) are tried. \
            With several feeds, you choose one at the prompt (or with --pick N without a terminal). The source is \
            appended to feeds.json's "sources" as an "rss" source (its id made from the feed's title); the rest of \
            the file is left as it was. feeds.json is created when it does not exist.

            Exit codes: 0 added (or already listed); 1 no feed found or the address could not be fetched; 2 bad \
            usage, several feeds and no choice, or an invalid feeds.json (nothing is written).
            """
    )

    @Argument(help: "The feed's or the site's http(s) address.")
    var url: String

    @Option(help: "Which of several feeds found to add (1 is the first listed).")
    var pick: Int?

    @Option(help: "The source's id (default: made from the feed's title).")
    var id: String?

    @Option(help: "The folder to file it under (feeds.json's \"category\").")
    var category: String?

    @Option(name: [.short, .customLong("config")], help: "The feeds.json to add to (created when missing).")
    var configPath: String = "feeds.json"

    /// The address as given, `https://` assumed when it names no scheme; `nil` when it is no http(s) address.
    private var address: URL? {
        guard let parsed = URL(string: url.contains("://") ? url : "https://" + url),
            ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false
        else { return nil }
        return parsed
    }

    func validate() throws {
        guard address != nil else {
            throw ValidationError("'\(url)' is not an http(s) address, like https://example.org/")
        }
        if let id, !SourceID(id).isValid {
            throw ValidationError("--id must be lower-case letters, digits and '-', like 'my-feed'")
        }
        if let pick, pick < 1 { throw ValidationError("--pick counts from 1") }
    }

    func run() async throws {
        guard let address else { throw CLIExit.usage }  // validate() refused it already
        let found: [FeedDiscovery.Candidate]
        do {
            found = try await FeedDiscovery.feeds(at: address)
        } catch {
            StandardError.write("tributary: \(TerminalText.sanitize(error.description))")
            throw CLIExit.sourceFailed
        }
        guard !found.isEmpty else {
            StandardError.write(
                "tributary: \(address.absoluteString) is not a feed and announces none, and none was found at "
                    + "\(FeedDiscovery.commonPaths.joined(separator: ", ")); give the feed's own address"
            )
            throw CLIExit.sourceFailed
        }
        var chosen = try choose(from: found)
        if chosen.title == nil, let page = try? await WebPage.fetch(chosen.url),
            let title = FeedDiscovery.parse(page)?.title, !title.isEmpty
        {
            chosen.title = title
        }
        let list = SubscriptionList(
            displayPath: configPath,
            url: URL(fileURLWithPath: configPath).standardizedFileURL,
            registry: SourceRegistry(TributaryMain.sources)
        )
        let outcome = try list.add(
            [.init(url: chosen.url.absoluteString, title: chosen.title, category: category)],
            id: id.map { SourceID($0) }
        )
        if let added = outcome.added.first {
            StandardError.write("tributary: \(configPath): added \(added) (\(chosen.url.absoluteString))")
        } else {
            StandardError.write("tributary: \(configPath) already lists \(chosen.url.absoluteString)")
        }
    }

    /// The feed to add: the only one, the `--pick`ed one, or the one chosen at the prompt.
    private func choose(from found: [FeedDiscovery.Candidate]) throws -> FeedDiscovery.Candidate {
        if found.count == 1, pick == nil || pick == 1 { return found[0] }
        let listing = found.enumerated().map { index, candidate in
            "  \(index + 1)) \(candidate.title.map { TerminalText.sanitize($0) + "  " } ?? "")\(candidate.url.absoluteString)"
        }
        if let pick {
            guard pick <= found.count else {
                StandardError.write("tributary: --pick \(pick), but \(found.count) feeds were found:")
                StandardError.write(listing.joined(separator: "\n"))
                throw CLIExit.usage
            }
            return found[pick - 1]
        }
        guard isatty(STDIN_FILENO) == 1 else {
            StandardError.write("tributary: \(found.count) feeds found; choose one with --pick N:")
            StandardError.write(listing.joined(separator: "\n"))
            throw CLIExit.usage
        }
        StandardError.write("\(found.count) feeds found:")
        StandardError.write(listing.joined(separator: "\n"))
        while true {
            StandardError.writeRaw("Add which one (1-\(found.count))? ")
            guard let line = readLine() else { throw CLIExit.usage }
            if let number = Int(line.trimmingCharacters(in: .whitespaces)), (1...found.count).contains(number) {
                return found[number - 1]
            }
        }
    }
}
