import Foundation
import Testing

@testable import RSSAdapter

/// The streaming decompressor of HTTP bodies, split at every size: the same bytes out whatever the pieces.
@Suite struct BodyInflaterTests {
    private func inflate(_ fixture: String, as encoding: BodyInflater.Encoding, pieceSize: Int) throws -> Data {
        let compressed = try Fixture.data(fixture)
        let inflater = BodyInflater(encoding: encoding, maxRatio: 100)
        var output = Data()
        var start = 0
        while start < compressed.count {
            let piece = compressed[
                compressed.startIndex + start..<compressed.startIndex + min(compressed.count, start + pieceSize)
            ]
            try Data(piece).withUnsafeBytes { bytes in try inflater.inflate(bytes) { output.append(contentsOf: $0) } }
            start += pieceSize
        }
        try inflater.finish { output.append(contentsOf: $0) }
        return output
    }

    @Test(arguments: [
        ("podcast-itunes-enclosures.xml.gz", BodyInflater.Encoding.gzip),
        ("podcast-itunes-enclosures.xml.two-gzip-members.gz", .gzip),
        ("podcast-itunes-enclosures.xml.zlib", .deflate),
        ("podcast-itunes-enclosures.xml.raw-deflate", .deflate),
        ("podcast-itunes-enclosures.xml.zlib", .gzip),
    ])
    func everyFormatInflatesToTheFeedInPiecesOfAnySize(fixture: String, encoding: BodyInflater.Encoding) throws {
        let expected = try Fixture.data("podcast-itunes-enclosures.xml")
        for pieceSize in [1, 2, 3, 100, 100_000] {
            #expect(try inflate(fixture, as: encoding, pieceSize: pieceSize) == expected, "pieces of \(pieceSize)")
        }
    }

    @Test func aBombIsRefusedBeforeItIsAllInflated() throws {
        var produced = 0
        let inflater = BodyInflater(encoding: .gzip, maxRatio: 100)
        let bomb = try Fixture.data("gzip-bomb-5mb-of-spaces.xml.gz")
        #expect(throws: BodyInflater.Failure.tooLarge) {
            try bomb.withUnsafeBytes { bytes in try inflater.inflate(bytes) { produced += $0.count } }
        }
        #expect(produced < 1 << 20, "stopped after \(produced) bytes")
    }

    @Test func garbageAndACutStreamAreErrors() throws {
        let inflater = BodyInflater(encoding: .gzip, maxRatio: 100)
        #expect(throws: BodyInflater.Failure.self) {
            try Data("not gzip at all".utf8).withUnsafeBytes { try inflater.inflate($0) { _ in } }
        }
        let cut = try Fixture.data("podcast-itunes-enclosures.xml.gz").prefix(300)
        let second = BodyInflater(encoding: .gzip, maxRatio: 100)
        try Data(cut).withUnsafeBytes { try second.inflate($0) { _ in } }
        #expect(throws: BodyInflater.Failure.self) { try second.finish { _ in } }
    }

    @Test func contentEncodingNames() throws {
        #expect(try BodyInflater.Encoding.named("gzip") == .gzip)
        #expect(try BodyInflater.Encoding.named(" X-GZIP") == .gzip)
        #expect(try BodyInflater.Encoding.named("deflate") == .deflate)
        #expect(try BodyInflater.Encoding.named("identity") == nil)
        #expect(throws: BodyInflater.UnsupportedEncoding.self) { try BodyInflater.Encoding.named("br") }
    }
}
