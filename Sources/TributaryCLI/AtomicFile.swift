import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old contents or the new, never a half-written file: the bytes go
/// to a temporary file in the same directory, which is flushed to disk and then renamed over the target.
enum AtomicFile {
    /// Why a file could not be written.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var detail: String

        var description: String { "\(path): cannot write (\(detail))" }
    }

    /// Writes `data` to `url` atomically. A file already at `url` keeps its permissions; a new one gets the
    /// usual `0666 & ~umask`.
    /// - Throws: ``WriteError`` naming the path and the system's reason; the target is then untouched.
    static func write(_ data: Data, to url: URL) throws {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(path: path, detail: systemError()) }
        let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer {
            if !renamed { unlink(temporaryPath) }
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = systemError()
                    return
                }
                offset += written
            }
        }
        fchmod(descriptor, permissions(forExistingFileAt: path))
        if failure == nil, fsync(descriptor) != 0 { failure = systemError() }
        close(descriptor)
        if let failure { throw WriteError(path: path, detail: failure) }
        guard rename(temporaryPath, path) == 0 else { throw WriteError(path: path, detail: systemError()) }
        renamed = true
    }

    private static func permissions(forExistingFileAt path: String) -> mode_t {
        // FileManager rather than stat(2): with swift-nio in the build graph, `struct stat` is owned by a module
        // this file would otherwise have to import (MemberImportVisibility).
        if let existing = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber {
            return mode_t(existing.uint16Value & 0o7777)
        }
        let mask = umask(0o022)
        umask(mask)
        return 0o666 & ~mask
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
}
