import Foundation
import TributaryCore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// OPML subscription lists, as feed readers exchange them (OPML 1.0 and 2.0: newsboat, Miniflux, FreshRSS,
/// Feedly and most others): read into subscriptions with their folder, and written back from feeds.json.
enum OPML {
    /// One feed of an OPML file.
    struct Subscription: Equatable {
        /// The feed's URL (`xmlUrl`).
        var url: String
        /// `title`, else `text`; `nil` when neither says anything.
        var title: String?
        /// The site's address (`htmlUrl`).
        var siteURL: String?
        /// The folders it is nested in, outermost first, joined with `/` (or OPML 2.0's `category` attribute).
        var category: String?
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The subscriptions of an OPML document, in document order. Outlines without `xmlUrl` are folders.
    /// - Throws: ``ReadError`` naming the line when the file is not well-formed XML or not OPML.
    static func subscriptions(in data: Data) throws(ReadError) -> [Subscription] {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if !parsed || reader.root == nil {
            let line = parser.lineNumber
            let detail = parser.parserError.map { _ in "not well-formed XML at line \(line)" } ?? "empty"
            throw ReadError(description: "\(detail); export the subscriptions from your feed reader again")
        }
        guard reader.root == "opml" else {
            throw ReadError(description: "not an OPML file (its root element is <\(reader.root ?? "")>, not <opml>)")
        }
        return reader.subscriptions
    }

    /// An OPML 2.0 document listing `subscriptions` (folders from their categories).
    static func document(title: String, subscriptions: [Subscription], created: Date) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="2.0">"#,
            "  <head>",
            "    <title>\(escaped(title))</title>",
            "    <dateCreated>\(rfc822(created))</dateCreated>",
            "    <docs>https://opml.org/spec2.opml</docs>",
            "  </head>",
            "  <body>",
        ]
        func outline(_ subscription: Subscription, indent: String) -> String {
            let title = escaped(subscription.title ?? subscription.url)
            var attributes = #"type="rss" text="\#(title)" title="\#(title)" xmlUrl="\#(escaped(subscription.url))""#
            if let site = subscription.siteURL { attributes += #" htmlUrl="\#(escaped(site))""# }
            return "\(indent)<outline \(attributes)/>"
        }
        // Folders nest as the categories' `/` paths say (`Dev/Rust` is Rust inside Dev), in first-seen order.
        final class Folder {
            var name: String
            var feeds: [Subscription] = []
            var children: [Folder] = []
            init(_ name: String) { self.name = name }
            func child(_ name: String) -> Folder {
                if let existing = children.first(where: { $0.name == name }) { return existing }
                let folder = Folder(name)
                children.append(folder)
                return folder
            }
        }
        let root = Folder("")
        for subscription in subscriptions {
            var folder = root
            for part in (subscription.category ?? "").split(separator: "/") where !part.isEmpty {
                folder = folder.child(String(part))
            }
            folder.feeds.append(subscription)
        }
        func write(_ folder: Folder, indent: String) {
            lines += folder.feeds.map { outline($0, indent: indent) }
            for child in folder.children {
                lines.append(#"\#(indent)<outline text="\#(escaped(child.name))" title="\#(escaped(child.name))">"#)
                write(child, indent: indent + "  ")
                lines.append("\(indent)</outline>")
            }
        }
        write(root, indent: "    ")
        lines += ["  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Private

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n", "\t", "\r": result += " "
            default:
                // Characters XML 1.0 cannot hold are left out.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Collects outlines; folders are the outlines without `xmlUrl` that enclose others.
    private final class Reader: NSObject, XMLParserDelegate {
        var root: String?
        var subscriptions: [Subscription] = []
        /// One entry per open `<outline>`: its folder name, or `nil` for a feed (or a nameless folder).
        private var stack: [String?] = []

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name.lowercased() }
            guard name.lowercased() == "outline" else { return }
            // Attribute names as written vary in case between readers (xmlUrl, xmlurl).
            var lowered: [String: String] = [:]
            for (key, value) in attributes { lowered[key.lowercased()] = value }
            func value(_ key: String) -> String? {
                guard let text = lowered[key]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
                    return nil
                }
                return text
            }
            let label = value("title") ?? value("text")
            if let url = value("xmlurl") {
                let folders = stack.compactMap { $0 }
                let category =
                    folders.isEmpty
                    ? value("category").map { $0.split(separator: "/").joined(separator: "/") }.flatMap {
                        $0.isEmpty ? nil : $0
                    } : folders.joined(separator: "/")
                subscriptions.append(
                    Subscription(url: url, title: label, siteURL: value("htmlurl"), category: category)
                )
                stack.append(nil)
            } else {
                stack.append(label)
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name.lowercased() == "outline", !stack.isEmpty { stack.removeLast() }
        }
    }
}
