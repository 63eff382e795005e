import Foundation

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

    /// The size of each chunk read.
    static let chunkSize = 1 << 16

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

    /// The next chunk; empty at the end of the input.
    func next() throws -> [UInt8] {
        do {
            guard let data = try handle.read(upToCount: Self.chunkSize) else { return [] }
            return [UInt8](data)
        } catch {
            throw ReadError(description: "\(name): read failed (\(error.localizedDescription))")
        }
    }

    func close() {
        if ownsHandle { try? handle.close() }
    }
}
