/// Looks for markup left in text that should be plain (SRC-6): tags and character references.
///
/// A `<` counts as a tag when a letter, `/` + letter, `!` or `?` follows it and a `>` closes it, so `a < b` and
/// `x<3` are text. A `&` counts as a reference when it is followed by `#` and digits, `#x` and hex digits, or a
/// name of two or more letters and digits, and then `;`, so `AT&T` and `Q&A;` are text.
enum PlainTextScanner {
    /// What is left of markup in `text`, one description each; empty when it is plain.
    static func findings(in text: String) -> [String] {
        var findings: [String] = []
        if let tag = firstTag(in: text) { findings.append("a tag \(tag)") }
        if let reference = firstReference(in: text) { findings.append("a character reference \(reference)") }
        return findings
    }

    // MARK: - Private

    private static func firstTag(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == "<" && index + 1 < scalars.count {
            let next = scalars[index + 1]
            let opensTag: Bool
            if next.properties.isAlphabetic && next.isASCII || next == "!" || next == "?" {
                opensTag = true
            } else if next == "/", index + 2 < scalars.count {
                opensTag = scalars[index + 2].isASCII && scalars[index + 2].properties.isAlphabetic
            } else {
                opensTag = false
            }
            guard opensTag, let close = scalars[(index + 1)...].firstIndex(of: ">") else { continue }
            return String(String.UnicodeScalarView(scalars[index...close].prefix(40)))
        }
        return nil
    }

    private static func firstReference(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == "&" {
            var cursor = index + 1
            if cursor < scalars.count, scalars[cursor] == "#" {
                cursor += 1
                var isHex = false
                if cursor < scalars.count, scalars[cursor] == "x" || scalars[cursor] == "X" {
                    isHex = true
                    cursor += 1
                }
                let start = cursor
                while cursor < scalars.count, let digit = Character(scalars[cursor]).hexDigitValue,
                    isHex || digit < 10
                {
                    cursor += 1
                }
                guard cursor > start else { continue }
            } else {
                let start = cursor
                while cursor < scalars.count, scalars[cursor].isASCII,
                    scalars[cursor].properties.isAlphabetic || ("0"..."9").contains(scalars[cursor]),
                    cursor - start < 32
                {
                    cursor += 1
                }
                guard cursor - start >= 2, scalars[start].properties.isAlphabetic else { continue }
            }
            guard cursor < scalars.count, scalars[cursor] == ";" else { continue }
            return String(String.UnicodeScalarView(scalars[index...cursor]))
        }
        return nil
    }
}
