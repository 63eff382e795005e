import Foundation

/// The form of a URL used to recognise the same story delivered by different sources.
///
/// The scheme and host are lower-cased, a default port (80 for http, 443 for https) is dropped, an empty path
/// becomes `/`, the fragment is dropped, and `utm_*` query parameters (any case) are dropped while the others keep
/// their order and spelling; a query left empty is dropped with its `?`.
public enum CanonicalURL {
    /// The canonical form of `text`, or `nil` when it is not an absolute URL with a host.
    public static func string(for text: String) -> String? {
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
