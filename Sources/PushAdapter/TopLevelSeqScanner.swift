/// Finds the `seq` member of a JSON object read in pieces, without keeping the object: how the client learns the
/// number of a message too large to keep, so that its cursor can move past it instead of asking for it again.
///
/// Only a member of the outermost object counts (`{"type":"item","seq":42,"item":{"seq":7}}` gives 42), and only a
/// non-negative integer; strings and their escapes are skipped whole, so a `"seq"` inside a title does not count.
/// Memory is constant whatever the size of the message; a number cut short by the end of the message is not taken.
struct TopLevelSeqScanner: Sendable {
    /// The outermost object's `seq`, once read.
    private(set) var seq: Int64?

    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Whether the string being read is a key of the outermost object.
    private var stringIsKey = false
    /// Whether the outermost object expects a key next (after `{` or `,`).
    private var expectingKey = false
    /// The first bytes of the key just read (enough to tell `seq` from the rest).
    private var key: [UInt8] = []
    /// Whether the value that follows is the outermost `seq`.
    private var valueIsSeq = false
    private var digits: [UInt8]?

    private static let seqKey: [UInt8] = Array("seq".utf8)

    /// Reads the next bytes of the message.
    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            if seq != nil { return }
            read(byte)
        }
    }

    private mutating func read(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                // An escaped key is never the plain `seq` (`"s\u0065q"` is, but no server writes that).
                if stringIsKey { key.append(byte) }
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            } else if stringIsKey, key.count <= Self.seqKey.count {
                key.append(byte)
            }
            return
        }
        if var number = digits {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                guard number.count < 19 else {
                    digits = nil
                    return
                }
                number.append(byte)
                digits = number
                return
            }
            digits = nil
            // A number ends at a delimiter; anything else (`42x`, `4.2`, `4e2`) is not a seq.
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || Self.isSpace(byte) {
                seq = Int64(String(decoding: number, as: UTF8.self))
                return
            }
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            stringIsKey = depth == 1 && expectingKey
            if stringIsKey { key.removeAll(keepingCapacity: true) }
            valueIsSeq = false
        case UInt8(ascii: ":"):
            if depth == 1, expectingKey {
                valueIsSeq = key == Self.seqKey
                expectingKey = false
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            valueIsSeq = false
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            valueIsSeq = false
        case UInt8(ascii: ","):
            if depth == 1 { expectingKey = true }
            valueIsSeq = false
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            if depth == 1, valueIsSeq { digits = [byte] }
            valueIsSeq = false
        default:
            if !Self.isSpace(byte) { valueIsSeq = false }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
