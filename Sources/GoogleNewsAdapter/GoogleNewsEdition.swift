import TributaryCore

/// A checked `hl`/`gl`/`ceid` triple. Google answers an inconsistent triple with empty or odd results, so it is
/// refused up front (DESIGN.md section 9).
struct GoogleNewsEdition: Sendable, Hashable {
    let hl: String
    let gl: String
    let ceid: String

    /// Checks the triple.
    /// - Throws: ``SourceOptionError`` naming `hl`, `gl` or `ceid`, with the value that would agree.
    init(hl: String, gl: String, ceid: String) throws {
        guard Self.isLanguageTag(hl) else {
            throw SourceOptionError(
                key: "hl",
                message: "a language such as \"en-US\", \"ja\" or \"es-419\" (letters, then an optional -REGION)"
            )
        }
        guard gl.count == 2, gl.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw SourceOptionError(key: "gl", message: "a two-letter country code such as \"US\" or \"JP\"")
        }
        let language = Self.primaryLanguage(hl)
        let suggestion = "\(gl.uppercased()):\(language)"
        let parts = ceid.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, Self.isLanguageTag(String(parts[1])) else {
            throw SourceOptionError(
                key: "ceid",
                message: "COUNTRY:language, e.g. \"\(suggestion)\" for hl \"\(hl)\" and gl \"\(gl)\""
            )
        }
        guard parts[0].uppercased() == gl.uppercased() else {
            throw SourceOptionError(
                key: "ceid",
                message:
                    "its country \"\(parts[0])\" does not agree with gl \"\(gl)\"; use \"\(suggestion)\" (or change gl)"
            )
        }
        guard Self.primaryLanguage(String(parts[1])) == language else {
            throw SourceOptionError(
                key: "ceid",
                message:
                    "its language \"\(parts[1])\" does not agree with hl \"\(hl)\"; use \"\(suggestion)\" (or change hl)"
            )
        }
        self.hl = hl
        self.gl = gl.uppercased()
        self.ceid = "\(parts[0].uppercased()):\(parts[1])"
    }

    /// `en-US` → `en`, `es-419` → `es`, `ja` → `ja` (lowercased).
    static func primaryLanguage(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" }).lowercased()
    }

    /// Two or three letters, then optional `-` subtags of letters and digits (`en-US`, `es-419`, `zh-Hant`).
    private static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...3).contains(first.count),
            first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (2...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
