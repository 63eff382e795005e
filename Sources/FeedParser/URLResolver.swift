/// Resolves URL references against a base URL (RFC 3986 section 5.2) on bytes, without Foundation's `URL`, which
/// was the largest cost of parsing Atom feeds with relative links.
enum URLResolver {
    /// Resolves `reference` against the absolute URL `base`; returns `reference` unchanged when it is already
    /// absolute, and `nil` when `base` is not an absolute hierarchical URL.
    static func resolve(_ reference: String, against base: String) -> String? {
        let ref = Array(reference.utf8)
        if schemeLength(ref) != nil { return reference }
        let base = Array(base.utf8)
        guard let schemeEnd = schemeLength(base), schemeEnd + 2 < base.count, base[schemeEnd + 1] == 0x2F,
            base[schemeEnd + 2] == 0x2F
        else { return nil }
        // base = scheme "://" authority path [?query] [#fragment]
        let authorityStart = schemeEnd + 3
        var pathStart = authorityStart
        while pathStart < base.count, ![0x2F, 0x3F, 0x23].contains(base[pathStart]) { pathStart += 1 }
        var pathEnd = pathStart
        while pathEnd < base.count, base[pathEnd] != 0x3F, base[pathEnd] != 0x23 { pathEnd += 1 }
        var queryEnd = pathEnd
        while queryEnd < base.count, base[queryEnd] != 0x23 { queryEnd += 1 }

        var result: [UInt8]
        if ref.starts(with: [0x2F, 0x2F]) {
            result = Array(base[...schemeEnd]) + ref
        } else if ref.first == 0x2F {
            result = Array(base[..<pathStart]) + removeDotSegments(ref)
        } else if ref.isEmpty {
            result = Array(base[..<queryEnd])
        } else if ref.first == 0x3F {
            result = Array(base[..<pathEnd]) + ref
        } else if ref.first == 0x23 {
            result = Array(base[..<queryEnd]) + ref
        } else {
            // Merge: the base path up to its last '/', then the reference; then remove dot segments.
            var merged: [UInt8]
            if pathStart == pathEnd {
                merged = [0x2F]
            } else {
                var lastSlash = pathEnd - 1
                while lastSlash > pathStart, base[lastSlash] != 0x2F { lastSlash -= 1 }
                merged = Array(base[pathStart...lastSlash])
            }
            merged += ref
            result = Array(base[..<pathStart]) + removeDotSegments(merged)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The index of the ':' ending a scheme at the start of `bytes`, or `nil`.
    private static func schemeLength(_ bytes: [UInt8]) -> Int? {
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
    private static func removeDotSegments(_ input: [UInt8]) -> [UInt8] {
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
