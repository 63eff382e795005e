import TributaryCore

/// Keeps the bytes handed to libxml2 valid UTF-8 when a document is read as UTF-8, as they stream in.
///
/// libxml2 2.9 reads a byte that is not UTF-8 in text as Latin-1, but inside CDATA it stops the whole parse
/// (Corpus/feedparser/encoding/bozo_linenoise.xml lost its item). So the stream is repaired before libxml2 sees it:
/// - when everything before the first bad byte was ASCII, the document is a mislabelled legacy one (a feed declared
///   UTF-8 but written in windows-1252, Corpus/tributary/broken-invalid-utf8.xml): the rest is read as windows-1252,
///   as feedparser does (the ASCII read so far means the same in both);
/// - otherwise (real UTF-8 with a stray byte) each bad sequence becomes U+FFFD, as browsers do (WHATWG Encoding,
///   maximal subparts).
///
/// Either way the caller reports a warning. An incomplete sequence at the end of a chunk is held back until the
/// next one, so the result does not depend on chunk boundaries. Valid input is passed on without copying; ASCII is
/// checked 32 bytes at a time, so the pass costs about 1% of parse time (measured on Google-News-like RSS).
struct UTF8Sanitizer {
    /// What happened to the stream so far, for the warning.
    enum Repair: Equatable {
        case none
        /// Bad bytes were replaced by U+FFFD.
        case replaced
        /// The stream is read as windows-1252 from this byte offset on.
        case windows1252(offset: Int)
    }

    private enum Sequence {
        case valid(Int)
        case invalid(Int)
        case incomplete
    }

    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The first repair made, if any.
    private(set) var repair = Repair.none
    private var readsWindows1252 = false
    private var sawNonASCII = false
    private var carry: [UInt8] = []
    private var offset = 0

    /// Passes `input` on to `feed` as valid UTF-8, in one or more pieces.
    mutating func process(
        _ input: UnsafeRawBufferPointer,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        guard let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self), !input.isEmpty else { return }
        let bytes = UnsafeBufferPointer(start: start, count: input.count)
        defer { offset += bytes.count }
        if readsWindows1252 {
            try Self.transcodeWindows1252(bytes[...], feed)
            return
        }
        var position = 0
        if !carry.isEmpty {
            // Complete the sequence held back at the end of the previous chunk. `carry` is a valid prefix, so a
            // bad sequence starts with it.
            var joint = carry
            joint.append(contentsOf: bytes.prefix(3))
            let held = carry.count
            carry = []
            let sequence = joint.withUnsafeBufferPointer { Self.sequence($0, at: 0) }
            switch sequence {
            case .incomplete:
                carry = joint
                return
            case .valid(let length):
                sawNonASCII = true
                try joint.withUnsafeBytes { try feed(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
                position = length - held
            case .invalid(let length):
                if !sawNonASCII {
                    try switchToWindows1252(Array(joint[..<length]), rest: bytes[(length - held)...], feed)
                    return
                }
                try replace(feed)
                position = length - held
            }
        }
        try scan(bytes, from: position, feed)
    }

    /// Ends the stream: a sequence cut off by the end is repaired like any bad one.
    mutating func finish(_ feed: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard !carry.isEmpty else { return }
        let held = carry
        carry = []
        if sawNonASCII {
            try replace(feed)
        } else {
            try switchToWindows1252(held, rest: UnsafeBufferPointer<UInt8>(start: nil, count: 0)[...], feed)
        }
    }

    /// Whether a sample is valid UTF-8, ignoring a sequence cut off at its end.
    static func isValid(_ sample: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < sample.count {
            if sample[index] < 0x80 {
                index += 1
                continue
            }
            switch sequence(sample, at: index) {
            case .valid(let length): index += length
            case .incomplete: return true
            case .invalid: return false
            }
        }
        return true
    }

    // MARK: - Private

    private mutating func scan(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from position: Int,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = position
        var index = position
        while index < count {
            // ASCII 32 bytes at a time, then 8 at a time.
            while index + 32 <= count {
                let word = UnsafeRawPointer(base + index)
                let any =
                    word.loadUnaligned(as: UInt64.self) | word.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | word.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                    | word.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                guard any & 0x8080_8080_8080_8080 == 0 else { break }
                index += 32
            }
            while index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            // Runs of three-byte characters (Japanese and Chinese text) without a call per character: a lead byte
            // E1-EC, EE or EF takes any two continuation bytes (E0 and ED, which limit the second byte, go below).
            let threeByteStart = index
            while index + 3 <= count {
                let lead = bytes[index]
                guard lead >= 0xE1, lead <= 0xEF, lead != 0xED, bytes[index + 1] & 0xC0 == 0x80,
                    bytes[index + 2] & 0xC0 == 0x80
                else { break }
                index += 3
            }
            if index > threeByteStart {
                sawNonASCII = true
                continue
            }
            switch Self.sequence(bytes, at: index) {
            case .valid(let length):
                sawNonASCII = true
                index += length
            case .incomplete:
                try feed(UnsafeRawBufferPointer(start: base + runStart, count: index - runStart))
                carry = Array(bytes[index...])
                return
            case .invalid(let length):
                try feed(UnsafeRawBufferPointer(start: base + runStart, count: index - runStart))
                if !sawNonASCII {
                    try switchToWindows1252([], rest: bytes[index...], feed)
                    return
                }
                try replace(feed)
                index += length
                runStart = index
            }
        }
        if runStart < count { try feed(UnsafeRawBufferPointer(start: base + runStart, count: count - runStart)) }
    }

    private mutating func replace(_ feed: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        if repair == .none { repair = .replaced }
        try Self.replacementCharacter.withUnsafeBytes { try feed($0) }
    }

    private mutating func switchToWindows1252(
        _ held: [UInt8],
        rest: Slice<UnsafeBufferPointer<UInt8>>,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        readsWindows1252 = true
        if repair == .none { repair = .windows1252(offset: offset + rest.startIndex - held.count) }
        try held.withUnsafeBufferPointer { try Self.transcodeWindows1252($0[...], feed) }
        try Self.transcodeWindows1252(rest, feed)
    }

    private static func transcodeWindows1252(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>,
        _ feed: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        guard !bytes.isEmpty else { return }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let scalar = byte < 0xA0 ? windows1252High[Int(byte) - 0x80] : UInt32(byte)
            FeedText.appendUTF8(scalar, to: &output)
        }
        try output.withUnsafeBytes { try feed($0) }
    }

    /// windows-1252's 0x80-0x9F (WHATWG: the five unassigned bytes map to the C1 controls of the same value).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// The UTF-8 sequence at `index` (whose first byte is not ASCII), per Unicode's table 3-7.
    private static func sequence(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Sequence {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return .invalid(1)
        }
        for step in 1..<length {
            guard index + step < bytes.count else { return .incomplete }
            let byte = bytes[index + step]
            if step == 1 {
                guard byte >= low, byte <= high else { return .invalid(1) }
            } else if byte & 0xC0 != 0x80 {
                return .invalid(step)
            }
        }
        return .valid(length)
    }
}
