import CByteScan
import Testing

@testable import HTMLSanitizer

/// `ByteScan.find` (the SSE2 scanner in CByteScan) against a byte-by-byte reference, from every start in buffers
/// of every length up to 70 and a few longer ones: the sixteen-byte steps, the overlapping tail and the short path.
@Suite struct ByteScanTests {
    private static func reference(
        _ bytes: [UInt8],
        from index: Int,
        below: UInt8,
        _ equal: [UInt8]
    ) -> Int {
        bytes.indices.first { $0 >= index && (bytes[$0] < below || equal.contains(bytes[$0])) } ?? bytes.count
    }

    @Test func findsWhatAByteByByteSearchFinds() {
        let sets: [(below: UInt8, equal: [UInt8])] = [
            (0, [0x3C, 0x26]), (0, [0x22, 0x3C, 0x26]), (0x20, [0x7F, 0xC2]),
            (0x20, [0x26, 0x3C, 0x3E, 0x7F, 0xC2]), (0x20, [0x26, 0x3C, 0x3E, 0x7F, 0xC2, 0x22]), (0x20, []),
            (0x80, []), (0, [0xFF]), (0, [0x00]), (1, [0x80, 0xFF]), (0, []),
        ]
        var generator = SystemRandomNumberGenerator()
        // Mostly bytes outside every set, so that runs are long enough for the sixteen-byte path.
        let common: [UInt8] = Array(0x61...0x7A) + [0x2F, 0x3A, 0x41]
        let rare: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x22, 0x26, 0x3C, 0x3E, 0x7F, 0x80, 0xC2, 0xE3, 0xFF]
        for length in Array(0...70) + [127, 128, 129, 1_000] {
            for _ in 0..<4 {
                let bytes = (0..<length).map { _ in
                    Int.random(in: 0..<12, using: &generator) == 0
                        ? rare.randomElement(using: &generator)! : common.randomElement(using: &generator)!
                }
                for set in sets {
                    let slots: [UInt8] = set.equal + Array(repeating: 0, count: 6 - set.equal.count)
                    let tuple = (slots[0], slots[1], slots[2], slots[3], slots[4], slots[5])
                    bytes.withUnsafeBufferPointer { buffer in
                        for start in stride(from: 0, through: length, by: length > 200 ? 7 : 1) {
                            let found = ByteScan.find(
                                buffer,
                                from: start,
                                below: set.below,
                                tuple,
                                count: UInt8(set.equal.count)
                            )
                            let expected = Self.reference(bytes, from: start, below: set.below, set.equal)
                            #expect(found == expected, "length \(length), start \(start), set \(set)")
                        }
                    }
                }
            }
        }
    }

    /// The plain URL bytes, as RFC 3986 names them: unreserved, sub-delimiters, `:`, `@`, `/` and `?`.
    private static let plainURLBytes = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8)
    )

    /// Puts each of the 256 byte values at every position of a 40-byte run (two sixteen-byte steps, or one
    /// thirty-two-byte step, and the byte-by-byte tail) and checks `scan` from several starts against `stopsAt`
    /// applied byte by byte.
    private static func checkEveryByteValue(
        in text: String,
        stopsAt: (UInt8) -> Bool,
        scan: (UnsafeBufferPointer<UInt8>, Int) -> Int
    ) {
        let run = Array(text.utf8)
        #expect(run.count == 40)
        for value in UInt8.min...UInt8.max {
            for position in run.indices {
                var bytes = run
                bytes[position] = value
                bytes.withUnsafeBufferPointer { buffer in
                    for start in [0, 1, 8, 9, 15, 16, 17, 24, 39, 40] {
                        let expected = bytes.indices.first { $0 >= start && stopsAt(bytes[$0]) } ?? bytes.count
                        #expect(scan(buffer, start) == expected, "byte \(value) at \(position), from \(start)")
                    }
                }
            }
        }
    }

    @Test func findsTheFirstByteThatIsNotAPlainURLByteForEveryByteValue() {
        Self.checkEveryByteValue(
            in: "https://example.org/a-b_c~d/e?f=g&h=i;jk",
            stopsAt: { !Self.plainURLBytes.contains($0) }
        ) {
            ByteScan.findNonURLByte($0, from: $1)
        }
        let empty: [UInt8] = []
        empty.withUnsafeBufferPointer { #expect(ByteScan.findNonURLByte($0, from: 0) == 0) }
    }

    /// The parser's scan for the control characters XML forbids (every byte below 0x20 but tab, line feed and
    /// carriage return), against a byte-by-byte reference.
    @Test func findsTheFirstControlCharacterXMLForbidsForEveryByteValue() {
        Self.checkEveryByteValue(
            in: "<title>Line one\n\tline two\r\nend!!</title>",
            stopsAt: { $0 < 0x20 && ![0x09, 0x0A, 0x0D].contains($0) }
        ) { tributary_find_xml_control($0.baseAddress, $1, $0.count) }
        let empty: [UInt8] = []
        empty.withUnsafeBufferPointer { #expect(tributary_find_xml_control($0.baseAddress, 0, 0) == 0) }
    }
}
