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
///
/// Everything but the final check of an http(s) URL and the resolution against the base works on UTF-8 bytes:
/// every link of every item goes through here, and Foundation's string searching cost most of the sanitizer's time.
enum URLPolicy {
    /// The HTML5-only references decoded before the scheme is read, in the order they are replaced.
    private static let html5References: [(reference: [UInt8], replacement: [UInt8])] = [
        (Array("&colon;".utf8), [0x3A]), (Array("&tab;".utf8), []), (Array("&newline;".utf8), []),
    ]

    /// The URL to write for `value`, or `nil` to drop the attribute.
    static func clean(_ value: String, base: URL?) -> String? {
        // Most links are plain http(s) URLs, which every step below leaves as they are.
        var value = value
        if value.withUTF8({ isKeptAsWritten($0) }) { return value }
        let flattened = flatten(Array(value.utf8))
        guard !flattened.isEmpty else { return nil }
        let encodedBytes = percentEncodeUnsafe(flattened)
        let encoded = String(decoding: encodedBytes, as: UTF8.self)
        if let scheme = scheme(ofBytes: flattened) {
            switch scheme {
            case .mailto:
                return encoded
            case .http:
                return hasHost(encoded, bytes: encodedBytes) ? encoded : nil
            case .other:
                return nil
            }
        }
        guard let base else { return encoded }
        // A reference such as `///a` resolves to `https:///a`, which has no host: checked like any other.
        guard let resolved = URL(string: encoded, relativeTo: base)?.absoluteURL.absoluteString else { return nil }
        let resolvedBytes = Array(resolved.utf8)
        guard scheme(ofBytes: resolvedBytes) == .http, hasHost(resolved, bytes: resolvedBytes) else { return nil }
        return resolved
    }

    /// Whether the http(s) URL `url` (whose UTF-8 is `bytes`) parses and has a host: otherwise it is not a link
    /// anyone can follow.
    private static func hasHost(_ url: String, bytes: [UInt8]) -> Bool {
        if isPlainHTTPURL(bytes) { return true }
        guard let host = URL(string: url)?.host else { return false }
        return !host.isEmpty
    }

    /// Whether ``clean(_:base:)`` returns `url` (UTF-8) as it is, which a scan of its bytes tells for most links:
    /// plain http(s) URLs (``isPlainHTTPURL(_:)-swift.method``) without an HTML5-only reference.
    static func isKeptAsWritten(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        isPlainHTTPURL(url) && !mayHoldHTML5Reference(url)
    }

    /// `base` when it is an absolute http(s) URL with a host, else `nil`.
    static func usableBase(_ base: URL?) -> URL? {
        guard let base, let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = base.host, !host.isEmpty
        else { return nil }
        return base
    }

    // MARK: - Internal (tested against the Foundation reference)

    /// What a URL's scheme allows.
    enum Scheme: Equatable {
        case http, mailto, other
    }

    /// The kind of scheme `url` has, or `nil` when it has none.
    static func scheme(ofBytes url: [UInt8]) -> Scheme? {
        guard let range = schemeRange(of: url) else { return nil }
        let lowered = url[range].map { $0 | 0x20 }  // letters only matter; the comparisons below are all letters
        switch lowered {
        case Array("http".utf8), Array("https".utf8): return .http
        case Array("mailto".utf8): return .mailto
        default: return .other
        }
    }

    /// `value` (UTF-8) with the HTML5-only references decoded (ASCII case-insensitively, each in one pass), every
    /// control character removed (C0, DEL, C1), and leading and trailing white space (tab, general category Zs) and
    /// control or format characters (Cc, Cf) trimmed: what `trimmingCharacters(in: .whitespaces.union(
    /// .controlCharacters))` trims.
    static func flatten(_ value: [UInt8]) -> [UInt8] {
        // The common case: no reference, no control character, nothing to trim.
        if !value.contains(where: { $0 == 0x26 || $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) { return trimmed(value) }
        var bytes = value
        for (reference, replacement) in html5References where bytes.contains(0x26) {
            bytes = replacingCaseInsensitive(reference, with: replacement, in: bytes)
        }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F {
                index += 1
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                index += 2  // a C1 control
            } else {
                kept.append(byte)
                index += 1
            }
        }
        return trimmed(kept)
    }

    /// Percent-encodes what a URL may not hold literally (spaces, quotes, angle brackets, non-ASCII), leaving `%`
    /// and everything else as it is, so encoding twice changes nothing.
    static func percentEncodeUnsafe(_ url: [UInt8]) -> [UInt8] {
        if !url.contains(where: isUnsafe) { return url }
        let hex = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(url.count)
        for byte in url {
            if isUnsafe(byte) {
                result.append(0x25)
                result.append(hex[Int(byte >> 4)])
                result.append(hex[Int(byte & 0x0F)])
            } else {
                result.append(byte)
            }
        }
        return result
    }

    /// Whether a URL may not hold `byte` literally.
    private static func isUnsafe(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D, ...0x20, 0x7F...: true
        default: false
        }
    }

    /// Whether `url` is an http(s) URL of the plainest form, which certainly parses and has a host: `http://` or
    /// `https://` (any case), a host of ASCII letters, digits, `.` and `-`, an optional port, then RFC 3986 path,
    /// query and fragment characters only (percent signs followed by two hex digits, at most one `#`). Most links
    /// are; the others are left to Foundation's parser.
    static func isPlainHTTPURL(_ url: [UInt8]) -> Bool {
        url.withUnsafeBufferPointer { isPlainHTTPURL($0) }
    }

    /// The first letter of each of ``html5References`` after its `&`, in lower case.
    private static let html5ReferenceStarts = Set(html5References.map { $0.reference[1] })

    /// Whether `url` holds an `&` followed by the first letter of one of ``html5References`` (any case).
    private static func mayHoldHTML5Reference(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        let starts = html5ReferenceStarts
        // Most links hold no `&` at all: the shared scanner finds that sixteen bytes at a time.
        var ampersand = ByteScan.find(url, from: 0, (0x26, 0, 0, 0, 0, 0), count: 1)
        while ampersand < url.count {
            if ampersand + 1 < url.count, starts.contains(url[ampersand + 1].asciiLowercased) { return true }
            ampersand = ByteScan.find(url, from: ampersand + 1, (0x26, 0, 0, 0, 0, 0), count: 1)
        }
        return false
    }

    private static func isPlainHTTPURL(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        guard url.count > 7, url[0] | 0x20 == 0x68, url[1] | 0x20 == 0x74, url[2] | 0x20 == 0x74,
            url[3] | 0x20 == 0x70
        else { return false }  // http
        var index = url[4] | 0x20 == 0x73 ? 5 : 4  // s
        guard index + 3 <= url.count, url[index] == 0x3A, url[index + 1] == 0x2F, url[index + 2] == 0x2F else {
            return false  // ://
        }
        index += 3
        let hostStart = index
        while index < url.count,
            url[index].isASCIILetter || url[index].isASCIIDigit || url[index] == 0x2E || url[index] == 0x2D
        {
            index += 1
        }
        guard index > hostStart else { return false }
        if index < url.count, url[index] == 0x3A {  // :port
            index += 1
            let portStart = index
            while index < url.count, (0x30...0x39).contains(url[index]) { index += 1 }
            guard index > portStart, index - portStart <= 5 else { return false }
        }
        guard index == url.count || url[index] == 0x2F || url[index] == 0x3F || url[index] == 0x23 else {
            return false
        }
        // After the host, the bytes of a plain URL: RFC 3986's unreserved and sub-delimiter characters, `:`, `@`,
        // `/` and `?` (found sixteen at a time), a `%` escape, and one `#`.
        var seenFragment = false
        while true {
            index = ByteScan.findNonURLByte(url, from: index)
            guard index < url.count else { break }
            switch url[index] {
            case 0x23:  // #
                guard !seenFragment else { return false }
                seenFragment = true
            case 0x25:  // %
                guard index + 2 < url.count, url[index + 1].isASCIIHexDigit, url[index + 2].isASCIIHexDigit else {
                    return false
                }
                index += 2
            default:
                return false
            }
            index += 1
        }
        return true
    }

    // MARK: - Private

    /// The bytes of the scheme: an ASCII letter, then letters, digits, `+`, `-` or `.`, up to the first `:`.
    private static func schemeRange(of url: [UInt8]) -> Range<Int>? {
        for (index, byte) in url.enumerated() {
            if byte == 0x3A { return index == 0 ? nil : 0..<index }
            let isLetter = byte.isASCIILetter
            if index == 0 {
                guard isLetter else { return nil }
            } else {
                guard isLetter || byte.isASCIIDigit || byte == 0x2B || byte == 0x2D || byte == 0x2E
                else { return nil }
            }
        }
        return nil
    }

    /// `bytes` with every occurrence of `pattern` (ASCII, compared case-insensitively) replaced, left to right,
    /// without looking again at what was replaced.
    private static func replacingCaseInsensitive(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8])
        -> [UInt8]
    {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x26, index + pattern.count <= bytes.count,
                zip(bytes[index..<index + pattern.count], pattern).allSatisfy({ $0.asciiLowercased == $1 })
            {
                result.append(contentsOf: replacement)
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// `bytes` without leading and trailing tab, Zs, Cc and Cf characters.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        // Most URLs start and end with ASCII that is not trimmed: nothing to decode.
        if let first = bytes.first, let last = bytes.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return bytes
        }
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return [] }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return bytes }
        return Array(String(scalars[first...last]).utf8)
    }

    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value == 0x20 || scalar.value == 0x09 { return true }
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .control, .format: return true
        default: return false
        }
    }
}
