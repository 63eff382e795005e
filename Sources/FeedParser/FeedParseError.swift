/// Why a document could not be read as a feed.
public struct FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The input is not RSS or Atom: empty, binary, an HTML page or another XML vocabulary.
        case notAFeed(String)
        /// The input starts like XML but is broken beyond recovery before its root element could be read.
        case malformed(line: Int, column: Int, detail: String)
        /// Entity expansion exceeded the budget (a "billion laughs" document); parsing stopped.
        case entityLimit
        /// libxml2 could not set up the requested character encoding.
        case unsupportedEncoding(String)
        /// libxml2 could not allocate a parser.
        case parserUnavailable
    }

    /// What went wrong.
    public var reason: Reason

    /// Creates an error for a reason.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// What went wrong and what to do about it, in one line.
    public var description: String {
        switch reason {
        case .notAFeed(let detail):
            "not a feed: \(detail); expected an RSS (<rss>, <rdf:RDF>) or Atom (<feed>) document"
        case .malformed(let line, let column, let detail):
            "malformed XML at line \(line), column \(column): \(detail); check that the URL serves a feed"
        case .entityLimit:
            "entity expansion limit exceeded (a billion-laughs document?); the feed was rejected"
        case .unsupportedEncoding(let name):
            "unsupported character encoding '\(name)'; set a known encoding override for this feed"
        case .parserUnavailable:
            "libxml2 could not create a parser (out of memory?)"
        }
    }
}
