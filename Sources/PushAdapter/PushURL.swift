import Foundation

/// Reading and writing the `after=` resume parameter of a push URL.
enum PushURL {
    /// `url` with `after=seq` set (replacing any `after` already there), or `url` unchanged when `seq` is `nil`.
    static func resuming(_ url: String, after seq: Int64?) -> String {
        guard let seq, var components = URLComponents(string: url) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "after" }
        items.append(URLQueryItem(name: "after", value: String(seq)))
        components.queryItems = items
        return components.string ?? url
    }

    /// The `after` parameter of a URL or of a request path with a query, if it is a non-negative integer.
    static func after(in urlOrPath: String) -> Int64? {
        guard let query = urlOrPath.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "after", let value = Int64(parts[1]), value >= 0 { return value }
        }
        return nil
    }
}
