import Foundation

/// What a source may read from the local file system without being blocked for ever.
///
/// A named pipe (FIFO) or a device never ends, or ends only when another process says so: reading one blocks past
/// every timeout, in a system call that cancellation cannot reach. Sources that read files (`rss` with a path,
/// `json-file`) therefore read regular files only, symbolic links followed.
public enum LocalFile {
    /// Why `path` is not a regular file a source may read, in words for the person who wrote feeds.json; `nil` when
    /// it is one (or does not exist: the caller says so in its own words).
    public static func notARegularFile(_ path: String) -> String? {
        let resolved = (path as NSString).resolvingSymlinksInPath
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            let type = attributes[.type] as? FileAttributeType
        else { return nil }
        switch type {
        case .typeRegular: return nil
        case .typeDirectory: return "it is a directory; name a feed file inside it"
        case .typeCharacterSpecial, .typeBlockSpecial:
            return "it is a device, not a file; a source reads regular files only (use an exec source to read a stream)"
        case .typeSocket: return "it is a socket, not a file; a source reads regular files only"
        default:
            return "it is a named pipe (FIFO), not a file; reading it could block for ever, so a source reads "
                + "regular files only (use an exec source, such as `cat`, to read a pipe)"
        }
    }
}
