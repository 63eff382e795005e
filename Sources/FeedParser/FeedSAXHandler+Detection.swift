import CLibXML2
import Foundation
import TributaryCore

/// Telling the format: the root element and the classification of every element by namespace and name.
extension FeedSAXHandler {
    func classify(_ localName: UnsafePointer<xmlChar>, _ namespace: UnsafePointer<xmlChar>?) -> ElementKind {
        // Fibonacci hashing of both interned pointers into a 1024-slot direct-mapped cache, backed by a dictionary
        // so that two names sharing a slot cost a hash lookup, not a classification by strings.
        let hash =
            UInt(bitPattern: localName) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: namespace) &* 0xC2B2_AE3D_27D4_EB4F
        let slot = Int(truncatingIfNeeded: hash >> 54)
        let entry = cache[slot]
        if entry.localName == localName, entry.namespace == namespace { return entry.kind }
        let key = NameKey(localName: UInt(bitPattern: localName), namespace: UInt(bitPattern: namespace))
        if let kind = overflow[key] {
            cache[slot] = CacheEntry(localName: localName, namespace: namespace, kind: kind)
            return kind
        }
        let kind = ElementKind.classify(
            namespace: namespace.map { String(cString: $0) } ?? "",
            localName: String(cString: localName),
            atomNamespace: atomNamespace,
            rssNamespace: rssNamespace
        )
        cache[slot] = CacheEntry(localName: localName, namespace: namespace, kind: kind)
        overflow[key] = kind
        return kind
    }

    /// The RSS version an `<rss>` root's `version` attribute names.
    static func rssFormat(version: String?) -> FeedFormat {
        switch version?.trimmingCharacters(in: .whitespaces) {
        case "0.91": .rss091
        case "0.92": .rss092
        case "0.90", "0.9": .rss090
        case "0.93": .rss093
        case "0.94": .rss094
        case nil, "": .rss
        default: .rss20
        }
    }

    /// Atom 1.0 for its namespace, Atom 0.3 for 0.3's and the drafts' before it.
    static func atomFormat(_ namespace: UnsafePointer<xmlChar>?) -> FeedFormat {
        let uri = namespace.map { String(cString: $0).lowercased() } ?? ""
        return uri == "http://www.w3.org/2005/atom" ? .atom10 : .atom03
    }

    func detectRoot(
        _ kind: ElementKind,
        _ localName: UnsafePointer<xmlChar>,
        _ namespace: UnsafePointer<xmlChar>?,
        _ attributes: Attributes
    ) {
        rootSeen = true
        switch kind {
        case .rss:
            format = Self.rssFormat(version: attributes.value("version"))
        case .channel:
            // CDF: the channel is the root, its address and date in attributes.
            format = .cdf
            if let href = Self.nonBlank(attributes.value(anyCase: "href")) {
                channelLink = resolve(href, baseCount: stack[0].baseCount)
            }
            if let lastModified = attributes.value(anyCase: "lastmod") {
                channelUpdated = FeedDate.parse(lastModified)
            }
        case .rdf:
            format = .rss10
        case .atomFeed:
            format = Self.atomFormat(namespace)
        case .atomEntry:
            // An Atom entry document (RFC 4287 section 4.1.2): one entry, read as a feed of one item.
            format = Self.atomFormat(namespace)
            if !itemIsNew { item = ItemBuilder(textCapacity: itemTextCapacity) }
            itemIsNew = false
            inItem = true
            itemDepth = 0
            item.language = currentLanguage
        default:
            let name = String(cString: localName)
            if name.lowercased() == "feed" {
                // An Atom feed without a namespace, or in one that is not Atom's (`https://www.w3.org/2005/Atom`, a
                // trailing slash, a draft's): its elements in that namespace are read as Atom, as feedparser reads
                // them.
                let uri = namespace.map { String(cString: $0) }
                atomNamespace = uri?.lowercased() ?? ""
                cache = cache.map { _ in CacheEntry(localName: nil, namespace: nil, kind: .other) }
                overflow.removeAll()
                // The root frame was classified before the namespace was known; its entries are matched on it.
                stack[0].kind = .atomFeed
                // No warning without a namespace: nothing is lost, and the reader of a digest can do nothing about
                // it (feedparser reads these silently too). A wrong one is worth telling the feed's author.
                if let uri {
                    warn("the feed's namespace \(uri) is not Atom's (http://www.w3.org/2005/Atom); read as Atom")
                }
                format = attributes.value("version") == "0.3" ? .atom03 : .atom10
            } else if name.lowercased() == "rss", let namespace {
                // An RSS document in a namespace that is no RSS one (`xmlns="https://cyber.harvard.edu/rss/rss.html"`,
                // the specification's address, on a news site): its elements in that namespace are read as RSS, as
                // feedparser reads them. (Without a namespace, `<rss>` is RSS's own and never comes here.)
                let uri = String(cString: namespace)
                rssNamespace = uri.lowercased()
                cache = cache.map { _ in CacheEntry(localName: nil, namespace: nil, kind: .other) }
                overflow.removeAll()
                stack[0].kind = .rss
                warn("the feed's namespace \(uri) is not RSS's (RSS 2.0 has none); read as RSS")
                format = Self.rssFormat(version: attributes.value("version"))
            } else if name.lowercased() == "rdf" {
                // An RSS 1.0 document whose <rdf:RDF> lost its prefix or namespace: its items are still items.
                format = .rss10
                stack[0].kind = .rdf
                warn("the root element <\(name)> is not RDF's <rdf:RDF>; read as RSS 1.0 anyway")
            } else if unreadRoot == nil {
                // Not a feed's root: the document is searched for one inside it (an XHTML page around an Atom
                // feed, as feedparser reads it). The root is taken off the stack, so that the feed's root element
                // is read at the depth of a root.
                let uri = namespace.map { " in namespace \(String(cString: $0))" } ?? ""
                unreadRoot = "<\(name)>\(uri)"
                rootSeen = false
                stack.removeAll()
                languages.removeAll()
                channelXMLLang = nil
                channelBase = nil
            }
        }
        if rootSeen, let unreadRoot {
            warn("the feed is inside another document (its root element is \(unreadRoot)); read the feed alone")
        }
    }

    /// An `<rdf:RDF>` that neither declares RSS's namespace nor holds a channel or an item is RDF of another kind
    /// (a FOAF profile, a blogroll: listparser's tests), not a feed, as feedparser reads it; an empty RSS 1.0
    /// document is an empty feed.
    var isRDFWithoutFeed: Bool { (format == .rss10 || format == .rss090) && !heldRSS }

    /// Notes the namespaces an element declares (libxml2's pairs of prefix and URI) until RSS's is among them.
    func noteNamespaces(_ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, count: Int) {
        for index in 0..<count {
            guard let uri = namespaces[2 * index + 1] else { continue }
            let name = ElementKind.normalizedNamespace(String(cString: uri))
            if name == "http://purl.org/rss/1.0/" || ElementKind.rss090Namespaces.contains(name) { heldRSS = true }
        }
    }

    /// Whether an element is a feed's root: RSS's `<rss>`, RSS 1.0's `<rdf:RDF>` or Atom's `<feed>` (with its
    /// namespace or without).
    static func isFeedRoot(
        _ kind: ElementKind,
        _ localName: UnsafePointer<xmlChar>,
        _ namespace: UnsafePointer<xmlChar>?
    ) -> Bool {
        switch kind {
        case .rss, .rdf, .atomFeed: return true
        default: return namespace == nil && xmlStrEqual(localName, "feed") != 0
        }
    }
}
