import Foundation
import TributaryCore

/// Decides which URLs from feeds become links, and makes them safe to write.
///
/// Only `http`, `https` and `mailto` URLs are linked: `javascript:`, `data:`, `file:` and everything else is shown as
/// text. A linked URL is trimmed, stripped of control characters, and has every byte outside the printable ASCII
/// characters URLs may hold percent-encoded (spaces, `<`, `>`, `"`, `\`, `^`, `` ` ``, `{`, `|`, `}` and non-ASCII
/// text as UTF-8, and `[`, `]` outside the host), so it can stand in an HTML attribute or a Markdown `<…>` destination without breaking out.
enum LinkPolicy {
    /// The URL schemes that become links.
    static let allowedSchemes = ["http:", "https:", "mailto:"]

    /// The URL made safe to write, or `nil` when it must not be a link.
    static func linkable(_ url: String) -> String? {
        // The usual case, an http(s) or mailto URL of printable ASCII with nothing to encode, is returned as it is.
        var contiguous = url
        if URLBytes.hasWebScheme(url) || URLBytes.hasPrefix(url, "mailto:"),
            contiguous.withUTF8({ bytes in bytes.allSatisfy { URLBytes.isURLByte($0) && !URLBytes.isBracket($0) } })
        {
            return url
        }
        var cleaned = Substring(ControlCharacters.removing(from: url))
        while cleaned.first == " " { cleaned = cleaned.dropFirst() }
        while cleaned.last == " " { cleaned = cleaned.dropLast() }
        let lowered = cleaned.lowercased()
        guard allowedSchemes.contains(where: { lowered.hasPrefix($0) }) else { return nil }
        // `[` and `]` may only stand in the host (an IPv6 literal such as `http://[::1]/`); elsewhere they are encoded.
        let bytes = Array(cleaned.utf8)
        var authorityEnd = 0
        if let slashes = cleaned.range(of: "://") {
            let start = cleaned.utf8.distance(from: cleaned.utf8.startIndex, to: slashes.upperBound)
            authorityEnd = bytes[start...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
        }
        var result = ""
        for (offset, byte) in bytes.enumerated() {
            if URLBytes.isURLByte(byte), !(URLBytes.isBracket(byte) && offset >= authorityEnd) {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result.append("%")
                result.append(hexDigits[Int(byte >> 4)])
                result.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    // MARK: - Private

    private static let hexDigits: [Character] = Array("0123456789ABCDEF")

}
