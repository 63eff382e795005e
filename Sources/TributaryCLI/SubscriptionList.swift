import Foundation
import TributaryCore

/// Adding feeds to feeds.json, as `import` and `add` do: ids made from titles (or the host) and unique, URLs
/// already listed skipped, the file edited in place and checked before it is written.
struct SubscriptionList {
    /// feeds.json's path as the user named it, and its URL.
    var displayPath: String
    var url: URL
    var registry: SourceRegistry

    /// A feed to add.
    struct Feed {
        var url: String
        var title: String?
        var category: String?
    }

    /// What adding did.
    struct Outcome {
        var added: [SourceID] = []
        var alreadyListed: [String] = []
    }

    /// Appends `feeds` as `rss` sources, skipping URLs the file already lists; writes the file only when what it
    /// would write loads as a valid configuration.
    /// - Throws: ``CLIExit/usage`` after printing the problem.
    func add(_ feeds: [Feed], id requested: SourceID? = nil) throws -> Outcome {
        let exists = FileManager.default.fileExists(atPath: url.path)
        let text: String
        if exists {
            guard let data = FileManager.default.contents(atPath: url.path),
                let decoded = String(validating: data, as: UTF8.self)
            else {
                StandardError.write("tributary: \(displayPath): cannot be read as UTF-8 text")
                throw CLIExit.usage
            }
            text = decoded
        } else {
            text = ""
        }
        let current = exists ? try load(text) : nil
        var ids = Set(current?.sources.map(\.id.rawValue) ?? [])
        var urls = Set((current?.sources ?? []).compactMap { $0.entry["url"]?.stringValue.map(Self.key(for:)) })
        var outcome = Outcome()
        var entries: [FeedsFileEditor.Entry] = []
        for feed in feeds {
            guard urls.insert(Self.key(for: feed.url)).inserted else {
                outcome.alreadyListed.append(feed.url)
                continue
            }
            let id = requested.map(\.rawValue) ?? Self.uniqueID(for: feed, taken: ids)
            if ids.contains(id) {
                StandardError.write("tributary: \(displayPath) already has a source '\(id)'; choose another --id")
                throw CLIExit.usage
            }
            ids.insert(id)
            var fields: [(key: String, value: String)] = [("id", id), ("kind", "rss"), ("url", feed.url)]
            if let title = feed.title, !title.isEmpty, title != id { fields.append(("title", title)) }
            if let category = feed.category, !category.isEmpty { fields.append(("category", category)) }
            entries.append(FeedsFileEditor.Entry(fields: fields))
            outcome.added.append(SourceID(id))
        }
        guard !entries.isEmpty else { return outcome }
        let edited: String
        do {
            edited = exists ? try FeedsFileEditor.appending(entries, to: text) : FeedsFileEditor.newFile(with: entries)
        } catch {
            StandardError.write("tributary: \(displayPath): \(error.description)")
            throw CLIExit.usage
        }
        _ = try load(edited)
        do {
            try Data(edited.utf8).write(to: url, options: .atomic)
        } catch {
            StandardError.write("tributary: \(displayPath): could not be written (\(error.localizedDescription))")
            throw CLIExit.sourceFailed
        }
        return outcome
    }

    // MARK: - Private

    /// Loads `text` as feeds.json; on problems prints them and throws exit code 2.
    private func load(_ text: String) throws -> FeedsConfiguration {
        do {
            return try ConfigurationLoader.load(
                data: Data(text.utf8),
                file: url,
                displayPath: displayPath,
                registry: registry
            )
        } catch let errors as ConfigurationErrors {
            for error in errors.errors { StandardError.write(error.description) }
            StandardError.write("tributary: \(displayPath) was not changed; fix it first (`tributary validate`)")
            throw CLIExit.usage
        }
    }

    /// A URL as compared for duplicates: no surrounding space, scheme and host in lower case, no trailing `/`.
    static func key(for url: String) -> String {
        var text = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if var components = URLComponents(string: text) {
            components.scheme = components.scheme?.lowercased()
            components.host = components.host?.lowercased()
            text = components.string ?? text
        }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// An id from the title, else the URL's host and path; `-2`, `-3` … when taken.
    static func uniqueID(for feed: Feed, taken: Set<String>) -> String {
        var base = SourceID.slug(feed.title ?? "")
        if base.isEmpty, let components = URLComponents(string: feed.url) {
            let host = (components.host ?? "").replacingOccurrences(of: "www.", with: "")
            base = SourceID.slug(host)
        }
        if base.isEmpty { base = "feed" }
        var candidate = base
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(base)-\(number)"
            number += 1
        }
        return candidate
    }
}
