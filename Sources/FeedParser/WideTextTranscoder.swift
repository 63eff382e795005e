/// Turns UTF-16 or UTF-32 into UTF-8 as the bytes stream in, so that a wide document goes through the same
/// byte-level guards as every other one (NUL bytes dropped, start tags bounded by ``StartTagGuard``) before libxml2
/// sees it. A unit cut by the end of a chunk waits for the next; an unpaired surrogate or a value beyond U+10FFFF
/// becomes U+FFFD.
struct WideTextTranscoder: Sendable {
    /// The wide encodings.
    enum Form: Sendable, Equatable {
        case utf16LE, utf16BE, utf32LE, utf32BE

        /// The form an encoding name (and, for a name without byte order, the document's first bytes) calls for.
        init?(encoding: String?, prefix: [UInt8]) {
            let name = String((encoding ?? "").uppercased().map { $0 == "_" ? "-" : $0 })
            let littleFirst = prefix.count >= 2 && prefix[0] != 0 && prefix[1] == 0
            if prefix.starts(with: [0xFF, 0xFE, 0, 0]) || name == "UTF-32LE" {
                self = .utf32LE
            } else if prefix.starts(with: [0, 0, 0xFE, 0xFF]) || name == "UTF-32BE" {
                self = .utf32BE
            } else if name.hasPrefix("UTF-32") {
                self = littleFirst ? .utf32LE : .utf32BE
            } else if prefix.starts(with: [0xFF, 0xFE]) || name == "UTF-16LE" {
                self = .utf16LE
            } else if prefix.starts(with: [0xFE, 0xFF]) || name == "UTF-16BE" {
                self = .utf16BE
            } else if name.hasPrefix("UTF-16") || name == "UCS-2" {
                self = littleFirst ? .utf16LE : .utf16BE
            } else {
                return nil
            }
        }

        var unitSize: Int {
            switch self {
            case .utf16LE, .utf16BE: 2
            case .utf32LE, .utf32BE: 4
            }
        }

        /// The byte order mark of this form.
        var byteOrderMark: [UInt8] {
            switch self {
            case .utf16LE: [0xFF, 0xFE]
            case .utf16BE: [0xFE, 0xFF]
            case .utf32LE: [0xFF, 0xFE, 0, 0]
            case .utf32BE: [0, 0, 0xFE, 0xFF]
            }
        }
    }

    let form: Form
    /// Bytes of a unit cut by the end of the last chunk.
    private var carry: [UInt8] = []
    /// A high surrogate waiting for its low half.
    private var highSurrogate: UInt32?

    init(form: Form) {
        self.form = form
    }

    /// Transcodes the next bytes; what they complete goes to `body` as UTF-8.
    mutating func process<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws -> Void)
        rethrows
    {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + carry.count)
        var unit: [UInt8] = carry
        carry = []
        unit.reserveCapacity(4)
        for byte in bytes {
            unit.append(byte)
            guard unit.count == form.unitSize else { continue }
            take(value(of: unit), into: &output)
            unit.removeAll(keepingCapacity: true)
        }
        carry = unit
        try output.withUnsafeBytes(body)
    }

    /// Ends the text: a cut unit or a lone high surrogate becomes U+FFFD.
    mutating func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var output: [UInt8] = []
        if highSurrogate != nil || !carry.isEmpty { append(0xFFFD, to: &output) }
        highSurrogate = nil
        carry = []
        try output.withUnsafeBytes(body)
    }

    private func value(of unit: [UInt8]) -> UInt32 {
        switch form {
        case .utf16LE: UInt32(unit[0]) | UInt32(unit[1]) << 8
        case .utf16BE: UInt32(unit[0]) << 8 | UInt32(unit[1])
        case .utf32LE: UInt32(unit[0]) | UInt32(unit[1]) << 8 | UInt32(unit[2]) << 16 | UInt32(unit[3]) << 24
        case .utf32BE: UInt32(unit[0]) << 24 | UInt32(unit[1]) << 16 | UInt32(unit[2]) << 8 | UInt32(unit[3])
        }
    }

    private mutating func take(_ value: UInt32, into output: inout [UInt8]) {
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(value) {
                append(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00), to: &output)
                return
            }
            append(0xFFFD, to: &output)
        }
        switch value {
        case 0xD800...0xDBFF where form.unitSize == 2:
            highSurrogate = value
        case 0xD800...0xDFFF, 0x110000...:
            append(0xFFFD, to: &output)
        default:
            append(value, to: &output)
        }
    }

    private func append(_ value: UInt32, to output: inout [UInt8]) {
        // Surrogates and values beyond U+10FFFF never get here: they were replaced already.
        UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { output.append($0) }
    }
}
