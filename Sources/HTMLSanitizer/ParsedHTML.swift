import CLibXML2

/// One fragment parsed by libxml2's HTML parser; owns the document and frees it.
///
/// The parser never touches the network (`HTML_PARSE_NONET`), reports nothing (`HTML_PARSE_NOERROR`,
/// `HTML_PARSE_NOWARNING`: no error handler, global or not, is involved), recovers from any markup, and reads the
/// bytes as UTF-8 whatever a `<meta charset>` says (`HTML_PARSE_IGNORE_ENC`). Blank text is kept (no
/// `HTML_PARSE_NOBLANKS`): the space in `<b>a</b> <i>b</i>` matters.
final class ParsedHTML {
    /// Put before the fragment so its text lands in `body` directly: without an open element libxml2 wraps text
    /// in an implied `<p>`, which would change every fragment that starts with text.
    private static let prefix = Array("<html><body>".utf8)

    private static let parseOptions = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NODEFDTD.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
    )

    /// libxml2 is initialised once, before any parse, on whichever thread comes first; a `static let` runs its
    /// initialiser exactly once, thread-safely. (`xmlInitParser` may be called again by other modules; it is
    /// idempotent.)
    private static let libxml2Initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private let document: htmlDocPtr?

    /// Parses `fragment`, UTF-8 bytes already cleaned and bounded by ``InputBounds``.
    init(fragment: [UInt8]) {
        _ = Self.libxml2Initialized
        let bytes = Self.prefix + fragment
        document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, "UTF-8", Self.parseOptions)
            }
        }
    }

    deinit {
        if let document { xmlFreeDoc(document) }
    }

    /// The root element, or `nil` when libxml2 built no document.
    var root: xmlNodePtr? {
        document.flatMap { xmlDocGetRootElement($0) }
    }
}
