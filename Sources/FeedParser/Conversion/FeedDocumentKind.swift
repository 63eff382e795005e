/// What a document is, told from its first bytes: the one format sniffer, which `tributary parse` and the `exec`
/// adapter (a program's output) both use.
public enum FeedDocumentKind: Sendable, Equatable {
    /// XML (RSS, RDF, Atom): `<` after white space and a UTF-8 byte order mark, or a UTF-16 or UTF-32 document
    /// (a byte order mark, or a zero byte among the first two).
    case xml
    /// JSON (JSON Feed): `{` after white space and a UTF-8 byte order mark.
    case json
    /// Neither; the associated value is the start of the document, for messages.
    case other(start: String)

    /// The kind of the document that starts with `bytes`; `nil` while nothing but white space (and a byte order
    /// mark) has been seen, so more bytes are needed to tell.
    public init?(start bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(4096))
        if head.count >= 2, head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF {
            self = .xml
            return
        }
        if head.count >= 2, head[0] == 0 || head[1] == 0 {
            self = .xml
            return
        }
        var index = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        guard index < head.count else {
            guard head.count < 4096 else {
                self = .other(start: "")
                return
            }
            return nil
        }
        switch head[index] {
        case UInt8(ascii: "<"): self = .xml
        case UInt8(ascii: "{"): self = .json
        // Text a server printed before the XML declaration (a PHP warning) is skipped by the parser.
        case _ where StreamingFeedParser.declarationAfterText(head) != nil: self = .xml
        default: self = .other(start: String(decoding: head[index...].prefix(40), as: UTF8.self))
        }
    }
}
