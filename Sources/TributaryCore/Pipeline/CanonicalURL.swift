import Foundation

/// The form of a URL used to recognise the same story delivered by different sources.
///
/// The scheme and host are lower-cased, a default port (80 for http, 443 for https) is dropped, an empty path
/// becomes `/`, the fragment is dropped, and `utm_*` query parameters (any case) are dropped while the others keep
/// their order and spelling; a query left empty is dropped with its `?`.
public enum CanonicalURL {
    /// The canonical form of `text`, or `nil` when it is not an absolute URL with a host.
    public static func string(for text: String) -> String? {
        alreadyCanonical(text) ?? parsed(text)
    }

    /// The common case without parsing: `http(s)://host/path` with a lower-case host of letters, digits, dots and
    /// hyphens, no port, query or fragment, and only characters a URL may hold, is its own canonical form (with `/`
    /// for an empty path). `nil` when the URL is anything else; ``parsed(_:)`` then decides.
    static func alreadyCanonical(_ text: String) -> String? {
        let utf8 = text.utf8
        guard let schemeLength = URLBytes.webSchemeLength(text) else { return nil }
        var hostLength = 0
        var inHost = true
        for byte in utf8.dropFirst(schemeLength) {
            if inHost {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."),
                    UInt8(ascii: "-"):
                    hostLength += 1
                    continue
                case UInt8(ascii: "/"):
                    inHost = false
                    continue
                default:
                    return nil
                }
            }
            guard URLBytes.isURLByte(byte), !URLBytes.isBracket(byte), byte != UInt8(ascii: "?"),
                byte != UInt8(ascii: "#")
            else { return nil }
        }
        guard hostLength > 0 else { return nil }
        return inHost ? text + "/" : text
    }

    /// The canonical form through `URLComponents`.
    static func parsed(_ text: String) -> String? {
        guard var components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.percentEncodedHost = host.lowercased()
        if let port = components.port, (scheme == "http" && port == 80) || (scheme == "https" && port == 443) {
            components.port = nil
        }
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        components.fragment = nil
        if let query = components.percentEncodedQuery {
            let kept = query.split(separator: "&", omittingEmptySubsequences: true).filter { parameter in
                !parameter.lowercased().hasPrefix("utm_")
            }
            components.percentEncodedQuery = kept.isEmpty ? nil : kept.joined(separator: "&")
        }
        return components.string
    }
}
