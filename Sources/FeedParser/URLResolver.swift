/// Resolves URL references against a base URL (RFC 3986 section 5.2) on bytes, without Foundation's `URL`, which
/// was the largest cost of parsing Atom feeds with relative links.
enum URLResolver {
    /// Resolves `reference` against the absolute URL `base`; returns `reference` unchanged when it is already
    /// absolute, and `nil` when `base` is not an absolute hierarchical URL.
    static func resolve(_ reference: String, against base: String) -> String? {
        if schemeLength(Array(reference.utf8)) != nil { return reference }
        return Base(base)?.resolve(reference)
    }

    /// A base URL split once into its parts, for resolving many references against it; a class, so that the items
    /// whose links resolve against it share it for the price of a reference count.
    final class Base: Sendable {
        /// The base URL's text, to check that a cached `Base` still applies.
        let string: String
        private let bytes: [UInt8]
        private let schemeEnd: Int
        private let pathStart: Int
        private let pathEnd: Int
        private let queryEnd: Int
        /// The base up to the last `/` of its path, which a plain relative path is appended to.
        private let directory: String?
        /// The base's scheme and authority (`https://example.org`), which a plain absolute path is appended to.
        private let origin: String

        /// Splits `string`; `nil` unless it is `scheme://authority...`.
        init?(_ string: String) {
            let base = Array(string.utf8)
            guard let schemeEnd = URLResolver.schemeLength(base), schemeEnd + 2 < base.count,
                base[schemeEnd + 1] == 0x2F, base[schemeEnd + 2] == 0x2F
            else { return nil }
            var pathStart = schemeEnd + 3
            while pathStart < base.count, ![0x2F, 0x3F, 0x23].contains(base[pathStart]) { pathStart += 1 }
            var pathEnd = pathStart
            while pathEnd < base.count, base[pathEnd] != 0x3F, base[pathEnd] != 0x23 { pathEnd += 1 }
            var queryEnd = pathEnd
            while queryEnd < base.count, base[queryEnd] != 0x23 { queryEnd += 1 }
            self.string = string
            self.bytes = base
            self.schemeEnd = schemeEnd
            self.pathStart = pathStart
            self.pathEnd = pathEnd
            self.queryEnd = queryEnd
            origin = String(decoding: base[..<pathStart], as: UTF8.self)
            if pathStart == pathEnd {
                directory = String(decoding: base[..<pathStart], as: UTF8.self) + "/"
            } else {
                var lastSlash = pathEnd - 1
                while lastSlash > pathStart, base[lastSlash] != 0x2F { lastSlash -= 1 }
                directory = base[lastSlash] == 0x2F ? String(decoding: base[...lastSlash], as: UTF8.self) : nil
            }
        }

        /// Whether `reference` is a relative path with no scheme-like colon and no dot segments.
        private static func isPlainRelativePath(_ reference: String) -> Bool {
            guard let first = reference.utf8.first, first != 0x2F, first != 0x3F, first != 0x23 else { return false }
            var previous: UInt8 = 0x2F
            for byte in reference.utf8 {
                switch byte {
                case 0x3A: return false  // perhaps a scheme
                case 0x2E where previous == 0x2F: return false  // a segment starting with '.'
                case 0x3F, 0x23: return true  // the path ends here
                default: previous = byte
                }
            }
            return true
        }

        /// Whether `reference` is an absolute path (`/posts/42`) with no empty segment (so no `//host`) and no
        /// segment starting with `.`: removing dot segments leaves it as it is.
        private static func isPlainAbsolutePath(_ reference: String) -> Bool {
            let utf8 = reference.utf8
            guard utf8.first == 0x2F else { return false }
            var previous: UInt8 = 0
            for byte in utf8 {
                switch byte {
                case 0x2F where previous == 0x2F: return false  // an empty segment, or a network-path reference
                case 0x2E where previous == 0x2F: return false  // a segment starting with '.'
                case 0x3F, 0x23: return true  // the path ends here
                default: previous = byte
                }
            }
            return true
        }

        /// Resolves a reference (RFC 3986 section 5.2.2).
        func resolve(_ reference: String) -> String {
            // Fast paths, the common cases in feeds: a relative path without dot segments (`posts/42/`), and an
            // absolute one (`/posts/42`).
            if let directory, Self.isPlainRelativePath(reference) { return directory + reference }
            if Self.isPlainAbsolutePath(reference) { return origin + reference }
            let ref = Array(reference.utf8)
            if URLResolver.schemeLength(ref) != nil { return reference }
            let base = bytes
            var result: [UInt8] = []
            result.reserveCapacity(base.count + ref.count)
            if ref.starts(with: [0x2F, 0x2F]) {
                result += base[...schemeEnd]
                result += ref
            } else if ref.first == 0x2F {
                result += base[..<pathStart]
                result += URLResolver.removeDotSegments(ref)
            } else if ref.isEmpty {
                result += base[..<queryEnd]
            } else if ref.first == 0x3F {
                result += base[..<pathEnd]
                result += ref
            } else if ref.first == 0x23 {
                result += base[..<queryEnd]
                result += ref
            } else {
                // Merge: the base path up to its last '/', then the reference; then remove dot segments.
                var merged: [UInt8] = []
                if pathStart == pathEnd {
                    merged.append(0x2F)
                } else {
                    var lastSlash = pathEnd - 1
                    while lastSlash > pathStart, base[lastSlash] != 0x2F { lastSlash -= 1 }
                    merged += base[pathStart...lastSlash]
                }
                merged += ref
                result += base[..<pathStart]
                result += URLResolver.removeDotSegments(merged)
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// The index of the ':' ending a scheme at the start of `bytes`, or `nil`.
    fileprivate static func schemeLength(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return nil }
        for (index, byte) in bytes.enumerated().dropFirst() {
            switch byte {
            case 0x3A: return index
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2D, 0x2E: continue
            default: return nil
            }
        }
        return nil
    }

    /// RFC 3986 section 5.2.4, applied to the path part (a query or fragment is kept as it is).
    fileprivate static func removeDotSegments(_ input: [UInt8]) -> [UInt8] {
        var pathEnd = 0
        while pathEnd < input.count, input[pathEnd] != 0x3F, input[pathEnd] != 0x23 { pathEnd += 1 }
        let path = input[..<pathEnd]
        guard path.contains(0x2E) else { return input }
        let absolute = path.first == 0x2F
        var segments: [ArraySlice<UInt8>] = []
        let parts = path.split(separator: 0x2F, omittingEmptySubsequences: false)
        for (index, segment) in parts.enumerated() {
            let isLast = index == parts.count - 1
            if segment.elementsEqual([0x2E]) {
                if isLast { segments.append([]) }
            } else if segment.elementsEqual([0x2E, 0x2E]) {
                if segments.count > (absolute ? 1 : 0) { segments.removeLast() }
                if isLast { segments.append([]) }
            } else {
                segments.append(segment)
            }
        }
        var output: [UInt8] = []
        for (index, segment) in segments.enumerated() {
            if index > 0 { output.append(0x2F) }
            output += segment
        }
        if absolute, output.first != 0x2F { output.insert(0x2F, at: 0) }
        return output + input[pathEnd...]
    }
}
