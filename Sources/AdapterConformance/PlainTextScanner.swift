/// Looks for markup left in text that should be plain (SRC-6): tags and character references.
///
/// A `<` counts as a tag when a letter, `/` + letter, `!` or `?` follows it and a `>` closes it, so `a < b` and
/// `x<3` are text. A `&` counts as a reference when it is followed by `#` and digits, `#x` and hex digits, or a
/// name HTML defines, and then `;`, so `AT&T`, `Q&A;` and `&bogus;` are text: as in HTML5, a reference to a name
/// that does not exist is not a reference, and a reader that keeps it as written is right to.
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
                guard cursor - start >= 2, scalars[start].properties.isAlphabetic,
                    htmlEntityNames.contains(String(String.UnicodeScalarView(scalars[start..<cursor])))
                else { continue }
            }
            guard cursor < scalars.count, scalars[cursor] == ";" else { continue }
            return String(String.UnicodeScalarView(scalars[index...cursor]))
        }
        return nil
    }

    /// The named character references of HTML 4 (the ones feeds use; HTML5 adds rarer ones).
    private static let htmlEntityNames: Set<String> = [
        "AElig", "Aacute", "Acirc", "Agrave", "Alpha", "Aring", "Atilde", "Auml", "Beta", "Ccedil", "Chi", "Dagger",
        "Delta", "ETH", "Eacute", "Ecirc", "Egrave", "Epsilon", "Eta", "Euml", "Gamma", "Iacute", "Icirc", "Igrave",
        "Iota", "Iuml", "Kappa", "Lambda", "Mu", "Ntilde", "Nu", "OElig", "Oacute", "Ocirc", "Ograve", "Omega",
        "Omicron", "Oslash", "Otilde", "Ouml", "Phi", "Pi", "Prime", "Psi", "Rho", "Scaron", "Sigma", "THORN", "Tau",
        "Theta", "Uacute", "Ucirc", "Ugrave", "Upsilon", "Uuml", "Xi", "Yacute", "Yuml", "Zeta", "aacute", "acirc",
        "acute", "aelig", "agrave", "alefsym", "apos", "alpha", "amp", "and", "ang", "aring", "asymp", "atilde", "auml",
        "bdquo", "beta", "brvbar", "bull", "cap", "ccedil", "cedil", "cent", "chi", "circ", "clubs", "cong", "copy",
        "crarr", "cup", "curren", "dArr", "dagger", "darr", "deg", "delta", "diams", "divide", "eacute", "ecirc",
        "egrave", "empty", "emsp", "ensp", "epsilon", "equiv", "eta", "eth", "euml", "euro", "exist", "fnof",
        "forall", "frac12", "frac14", "frac34", "frasl", "gamma", "ge", "gt", "hArr", "harr", "hearts", "hellip",
        "iacute", "icirc", "iexcl", "igrave", "image", "infin", "int", "iota", "iquest", "isin", "iuml", "kappa",
        "lArr", "lambda", "lang", "laquo", "larr", "lceil", "ldquo", "le", "lfloor", "lowast", "loz", "lrm",
        "lsaquo", "lsquo", "lt", "macr", "mdash", "micro", "middot", "minus", "mu", "nabla", "nbsp", "ndash", "ne",
        "ni", "not", "notin", "nsub", "ntilde", "nu", "oacute", "ocirc", "oelig", "ograve", "oline", "omega",
        "omicron", "oplus", "or", "ordf", "ordm", "oslash", "otilde", "otimes", "ouml", "para", "part", "permil",
        "perp", "phi", "pi", "piv", "plusmn", "pound", "prime", "prod", "prop", "psi", "quot", "rArr", "radic",
        "rang", "raquo", "rarr", "rceil", "rdquo", "real", "reg", "rfloor", "rho", "rlm", "rsaquo", "rsquo", "sbquo",
        "scaron", "sdot", "sect", "shy", "sigma", "sigmaf", "sim", "spades", "sub", "sube", "sum", "sup", "sup1",
        "sup2", "sup3", "supe", "szlig", "tau", "there4", "theta", "thetasym", "thinsp", "thorn", "tilde", "times",
        "trade", "uArr", "uacute", "uarr", "ucirc", "ugrave", "uml", "upsih", "upsilon", "uuml", "weierp", "xi",
        "yacute", "yen", "yuml", "zeta", "zwj", "zwnj",
    ]
}
