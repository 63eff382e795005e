import Foundation

/// Keeps credentials written into a URL (`https://user:secret@host/feed`) out of what Tributary prints.
public enum URLCredentials {
    /// `text` with the user information of every URL in it removed: `https://user:secret@host/feed` becomes
    /// `https://host/feed`. Text without `://` followed by an `@` before the host's end is returned as it is.
    public static func redacted(_ text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var output = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            output += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            // The authority ends at the first `/`, `?`, `#` or white space; user information ends at its last `@`.
            let authorityEnd =
                rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace || $0 == "\"" })
                ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                rest = rest[rest.index(after: at)...]
            }
        }
        output += rest
        return output
    }
}
