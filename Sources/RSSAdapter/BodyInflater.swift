import CZlib
import Foundation

/// Decompresses an HTTP response body as it streams in, for `Content-Encoding: gzip` and `deflate`.
///
/// `deflate` means the zlib format (RFC 1950) by the letter of HTTP, but many servers send raw deflate data
/// (RFC 1951) under that name; browsers read both, and so does this: the first two bytes tell a zlib header from raw
/// data. Concatenated gzip members are read one after the other (RFC 1952). A body that inflates to more than
/// ``maxRatio`` times its compressed size (a decompression bomb) is refused.
final class BodyInflater {
    /// The `Content-Encoding`s the client asks for and reads.
    enum Encoding: Sendable {
        case gzip
        case deflate

        /// The encoding a `Content-Encoding` value names; `nil` for none (`identity`).
        /// - Throws: ``UnsupportedEncoding`` for one the client did not ask for (`br`, `zstd`).
        static func named(_ value: String) throws(UnsupportedEncoding) -> Encoding? {
            switch value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "", "identity": nil
            case "gzip", "x-gzip": .gzip
            case "deflate": .deflate
            default: throw UnsupportedEncoding(name: value)
            }
        }
    }

    struct UnsupportedEncoding: Error {
        var name: String
    }

    /// Why a body could not be decompressed.
    enum Failure: Error, Equatable {
        /// The data is not in the format its `Content-Encoding` names, or is damaged.
        case corrupt(String)
        /// It inflates beyond ``maxRatio`` times its compressed size.
        case tooLarge
    }

    /// The largest accepted ratio of decompressed to compressed size.
    let maxRatio: Int
    private let encoding: Encoding
    private let stream: UnsafeMutablePointer<z_stream>
    private var initialized = false
    private var finished = false
    private var header: [UInt8] = []
    private var totalIn = 0
    private var totalOut = 0
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    init(encoding: Encoding, maxRatio: Int) {
        self.encoding = encoding
        self.maxRatio = maxRatio
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Decompresses the next piece of the body, handing what it yields to `body` (possibly several times).
    func inflate(
        _ bytes: UnsafeRawBufferPointer,
        into body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard !bytes.isEmpty else { return }
        if !initialized {
            // Two bytes decide between a zlib header and raw deflate; hold them until they are there.
            header += bytes
            guard encoding == .gzip || header.count >= 2 else { return }
            return try start(into: body)
        }
        try feed(bytes, into: body)
    }

    /// Ends the body: a single byte held for the format check is read now, and a stream cut short is an error.
    func finish(into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if !initialized, !header.isEmpty { try start(into: body) }
        guard initialized, !finished else { return }
        throw Failure.corrupt("the compressed body ends before its end marker (a download cut short?)")
    }

    // MARK: - Private

    /// Starts zlib in the format the held bytes call for, then inflates them.
    private func start(into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try initialize()
        let held = header
        header = []
        try held.withUnsafeBytes { try feed($0, into: body) }
    }

    private func initialize() throws {
        let windowBits: Int32
        switch encoding {
        case .gzip:
            windowBits = 15 + 32
        case .deflate:
            // A zlib header: compression method 8 in the low nibble, and the two bytes a multiple of 31.
            let isZlib = header.count >= 2 && header[0] & 0x0F == 8 && (Int(header[0]) << 8 | Int(header[1])) % 31 == 0
            windowBits = isZlib ? 15 : -15
        }
        let status = inflateInit2_(stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure.corrupt("zlib could not start (\(status))") }
        initialized = true
    }

    private func feed(_ bytes: UnsafeRawBufferPointer, into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            if finished {
                // Bytes after the end: another gzip member (read it), or trailing garbage (ignored, as browsers do).
                guard encoding == .gzip, bytes[offset] == 0x1F else { return }
                inflateReset(stream)
                finished = false
            }
            let available = bytes.count - offset
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: base.advanced(by: offset).assumingMemoryBound(to: Bytef.self)
            )
            stream.pointee.avail_in = uInt(available)
            while true {
                let (status, produced) = output.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                    stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(buffer.count)
                    let status = CZlib.inflate(stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.pointee.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw Failure.corrupt(message)
                }
                if produced > 0 {
                    totalOut += produced
                    let readSoFar = totalIn + available - Int(stream.pointee.avail_in)
                    if totalOut > 64 * 1024, totalOut / max(1, readSoFar) > maxRatio { throw Failure.tooLarge }
                    try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) }
                }
                if status == Z_STREAM_END {
                    finished = true
                    break
                }
                // Done with this piece when its input is used up and the output had room to spare.
                if produced == 0 || (stream.pointee.avail_in == 0 && produced < output.count) { break }
            }
            let consumed = available - Int(stream.pointee.avail_in)
            totalIn += consumed
            offset += consumed
            if !finished { break }
        }
    }
}
