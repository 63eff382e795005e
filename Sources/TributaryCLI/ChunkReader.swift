import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file, a `file://` URL or standard input in chunks, so large inputs never sit in memory whole.
final class ChunkReader {
    /// Why the input could not be opened.
    struct OpenError: Error, CustomStringConvertible {
        var description: String
    }

    /// Why reading failed part-way.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    private let handle: FileHandle
    private let ownsHandle: Bool
    private let name: String

    /// Opens `input`: a path, a `file://` URL, or `-` for standard input.
    /// - Throws: ``OpenError`` naming the input and the reason (missing, a directory, an unsupported URL).
    init(input: String) throws {
        name = input
        if input == "-" {
            handle = FileHandle.standardInput
            ownsHandle = false
            return
        }
        var path = input
        if let url = URL(string: input), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            switch scheme {
            case "file":
                path = url.path
            case "http", "https":
                throw OpenError(
                    description:
                        "\(input): fetching over HTTP is not supported by parse yet; save the feed to a file and parse that"
                )
            default:
                throw OpenError(description: "\(input): unsupported URL scheme '\(scheme)'; give a file path")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw OpenError(description: "\(input): no such file")
        }
        guard !isDirectory.boolValue else {
            throw OpenError(description: "\(input): is a directory; give a feed file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OpenError(description: "\(input): cannot be read (permission denied?)")
        }
        self.handle = handle
        ownsHandle = true
    }

    /// Reads the next chunk into `buffer`, filling it unless the input ends, and returns the number of bytes read:
    /// 0 at the end of the input. Lets a caller reuse one buffer for the whole input.
    ///
    /// Reads with `read(2)` straight into the buffer: `FileHandle.read(upToCount:)` reads 4 KiB per system call and
    /// copies through a new `Data` each time.
    func next(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let descriptor = handle.fileDescriptor
        var filled = 0
        while filled < buffer.count {
            let count = read(descriptor, base + filled, buffer.count - filled)
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                guard filled == 0 else { break }  // the error comes back on the next call
                throw ReadError(description: "\(name): read failed (\(String(cString: strerror(errno))))")
            }
        }
        return filled
    }

    func close() {
        if ownsHandle { try? handle.close() }
    }
}
