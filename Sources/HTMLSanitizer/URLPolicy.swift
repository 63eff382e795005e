import Foundation

/// Decides whether a URL attribute is kept, and resolves relative URLs.
///
/// The value arrives with libxml2's character references decoded. The scheme is then read the way a browser's URL
/// parser reads it (WHATWG URL): leading and trailing spaces and control characters are ignored, tabs and line
/// breaks anywhere are removed, and the scheme is an ASCII letter followed by letters, digits, `+`, `-` or `.` up to
/// the first `:`. HTML5 references libxml2 (an HTML 4 parser) does not know, `&colon;`, `&tab;` and `&newline;`,
/// are decoded first, so `javascript&colon;` counts as `javascript:`. Only `http`, `https` and `mailto` pass. A URL
/// without a scheme is resolved against the base when there is one (and dropped if it cannot be); the result is
/// checked again. Whatever is written is the checked string itself, escaped, so a browser reads exactly it.
enum URLPolicy {
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// The URL to write for `value`, or `nil` to drop the attribute.
    static func clean(_ value: String, base: URL?) -> String? {
        let flattened = flatten(value)
        guard !flattened.isEmpty else { return nil }
        if let scheme = scheme(of: flattened) {
            guard allowedSchemes.contains(scheme) else { return nil }
            let encoded = percentEncodeUnsafe(flattened)
            if scheme == "mailto" { return encoded }
            // An http(s) URL must parse and have a host, or it is not a link anyone can follow.
            guard let url = URL(string: encoded), let host = url.host, !host.isEmpty else { return nil }
            return encoded
        }
        let encoded = percentEncodeUnsafe(flattened)
        guard let base else { return encoded }
        guard let resolved = URL(string: encoded, relativeTo: base)?.absoluteURL.absoluteString,
            let scheme = scheme(of: resolved), scheme == "http" || scheme == "https"
        else { return nil }
        return resolved
    }

    /// `base` when it is an absolute http(s) URL with a host, else `nil`.
    static func usableBase(_ base: URL?) -> URL? {
        guard let base, let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = base.host, !host.isEmpty
        else { return nil }
        return base
    }

    /// The lower-cased scheme of `url`, or `nil` when it has none.
    static func scheme(of url: String) -> String? {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            if scheme.isEmpty {
                guard isLetter else { return nil }
            } else {
                guard isLetter || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "."
                else { return nil }
            }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    // MARK: - Private

    /// `value` with the HTML5-only references decoded, leading and trailing spaces and controls trimmed, and every
    /// control character removed.
    private static func flatten(_ value: String) -> String {
        var text = value
        for (reference, replacement) in [("&colon;", ":"), ("&tab;", ""), ("&newline;", "")] {
            text = text.replacingOccurrences(of: reference, with: replacement, options: .caseInsensitive)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) {
            scalars.append(scalar)
        }
        let result = String(scalars)
        return result.trimmingCharacters(in: .whitespaces.union(.controlCharacters))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Percent-encodes what a URL may not hold literally (spaces, quotes, angle brackets, non-ASCII), leaving `%`
    /// and everything else as it is, so encoding twice changes nothing.
    private static func percentEncodeUnsafe(_ url: String) -> String {
        var result = ""
        for scalar in url.unicodeScalars {
            if scalar.value > 0x20, scalar.value < 0x7F, !"\"<>\\^`{|}".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
