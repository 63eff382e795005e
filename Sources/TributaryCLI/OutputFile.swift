import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an output file (`digest -o`) so that nothing it points at is damaged:
///
/// - `-`, `/dev/stdout` and `/dev/stderr` (and their `/dev/fd/` and `/proc/self/fd/` names) are the process's own
///   standard streams, written directly.
/// - A symbolic link is followed to the file it names, which is then written; the link stays a link.
/// - A regular file (or none) is written atomically: the bytes go to a temporary file in the same directory, which
///   is flushed to disk and renamed over the target, so readers see the old contents or the new, never half. An
///   existing file keeps its permissions; a new one gets `0666 & ~umask`.
/// - A character device (`/dev/null`, a terminal) or a named pipe is written in place, never replaced; a pipe
///   with no reader is refused rather than waited on. Directories, sockets and block devices are refused.
/// - Temporary files that a killed run left beside the target (`.NAME.tmp-PID-XXXXXX` of a process that no longer
///   exists) are removed before writing.
enum OutputFile {
    /// Why a file could not be written, in words for the person running the command.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var detail: String
        /// The file is a pipe whose reader went away (EPIPE).
        var readerClosed = false

        var description: String { "cannot write \(path): \(detail)" }
    }

    /// How many links are followed before giving up (Linux's own limit).
    private static let maximumLinks = 40

    /// Opens `path`, hands the writer to `body` and commits what it wrote; a failed write is printed with the path
    /// and ends the command with exit code 1, and a pipe whose reader went away ends it quietly
    /// (``CLIExit/readerClosed``). Nothing is committed when `body` throws.
    static func writing(to path: String, _ body: (Writer) async throws -> Void) async throws {
        do {
            let writer = try Writer(path: path)
            do {
                try await body(writer)
                try writer.commit()
            } catch {
                writer.discard()
                throw error
            }
        } catch let error as WriteError {
            if error.readerClosed { throw CLIExit.readerClosed }
            StandardError.write("tributary: \(error)")
            throw CLIExit.sourceFailed
        }
    }

    /// An output file being written a part at a time, as described above: parts go in as they are drawn, and
    /// ``commit()`` puts the whole in place (a regular file is replaced only then). A writer that is neither
    /// committed nor discarded leaves the target untouched and its temporary file for the next run to remove.
    final class Writer {
        private let shown: String
        private let descriptor: Int32
        private let ownsDescriptor: Bool
        /// For a regular file: the temporary file, the target it is renamed over and the permissions it gets.
        private let atomic: (temporaryPath: String, target: String, permissions: mode_t)?
        private var finished = false

        /// Opens `path` for writing.
        /// - Throws: ``WriteError`` naming the path and the reason; nothing is changed then.
        init(path: String) throws {
            shown = path
            if let stream = OutputFile.standardStream(path) {
                (descriptor, ownsDescriptor, atomic) = (stream, false, nil)
                return
            }
            let target = try OutputFile.resolvingLinks(path)
            switch OutputFile.kind(of: target) {
            case .missing:
                let (descriptor, temporaryPath) = try OutputFile.temporaryFile(for: target, shownAs: path)
                let mask = umask(0o022)
                umask(mask)
                (self.descriptor, ownsDescriptor) = (descriptor, true)
                atomic = (temporaryPath, target, 0o666 & ~mask)
            case .regular(let permissions):
                let (descriptor, temporaryPath) = try OutputFile.temporaryFile(for: target, shownAs: path)
                (self.descriptor, ownsDescriptor) = (descriptor, true)
                atomic = (temporaryPath, target, permissions)
            case .device, .pipe:
                (descriptor, ownsDescriptor, atomic) = (try OutputFile.openInPlace(target, shownAs: path), true, nil)
            case .directory:
                throw WriteError(path: path, detail: "it is a directory; name a file")
            case .other:
                throw WriteError(
                    path: path,
                    detail: "it is not a regular file (a socket or a block device); name a file"
                )
            }
        }

        /// Writes the next part.
        func write(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try OutputFile.writeAll($0, to: descriptor, path: shown) }
        }

        /// Puts what was written in place: flushed to disk and renamed over the target for a regular file.
        func commit() throws {
            guard !finished else { return }
            finished = true
            guard let atomic else {
                if ownsDescriptor { close(descriptor) }
                return
            }
            fchmod(descriptor, atomic.permissions)
            let failure = fsync(descriptor) != 0 ? OutputFile.systemError() : nil
            close(descriptor)
            if let failure {
                unlink(atomic.temporaryPath)
                throw WriteError(path: shown, detail: failure)
            }
            guard rename(atomic.temporaryPath, atomic.target) == 0 else {
                let detail = OutputFile.systemError()
                unlink(atomic.temporaryPath)
                throw WriteError(path: shown, detail: detail)
            }
        }

        /// Gives up: the target stays as it was and the temporary file is removed.
        func discard() {
            guard !finished else { return }
            finished = true
            if ownsDescriptor { close(descriptor) }
            if let atomic { unlink(atomic.temporaryPath) }
        }
    }

    /// The file descriptor of a standard stream `path` names, or `nil`.
    static func standardStream(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1": return 1
        case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2": return 2
        default: return nil
        }
    }

    // MARK: - Private

    private enum Kind {
        case missing
        case regular(permissions: mode_t)
        case device
        case pipe
        case directory
        case other
    }

    private static func kind(of path: String) -> Kind {
        // FileManager rather than stat(2): with swift-nio in the build graph, `struct stat` is owned by a module
        // this file would otherwise have to import (MemberImportVisibility). attributesOfItem does not follow links.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .missing }
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?:
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644
            return .regular(permissions: mode_t(permissions & 0o7777))
        case .typeCharacterSpecial?: return .device
        case .typeDirectory?: return .directory
        case .typeSocket?, .typeBlockSpecial?: return .other
        default:
            // Foundation has no name for a FIFO; anything else left is one.
            return .pipe
        }
    }

    /// `path` with every symbolic link along its last component followed.
    private static func resolvingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<maximumLinks {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: current),
                attributes[.type] as? FileAttributeType == .typeSymbolicLink
            else { return current }
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: current)
            current =
                destination.hasPrefix("/")
                ? destination
                : (current as NSString).deletingLastPathComponent + "/" + destination
        }
        throw WriteError(path: path, detail: "it is a symbolic link that goes round in a loop")
    }

    /// A new temporary file beside `path` (leftovers of killed runs removed first), open for writing.
    private static func temporaryFile(for path: String, shownAs shown: String) throws -> (Int32, String) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        removeLeftovers(of: name, in: directory.isEmpty ? "." : directory)
        let prefix = (directory.isEmpty ? "" : directory + "/") + temporaryPrefix(of: name)
        var template = Array((prefix + "\(getpid())-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(path: shown, detail: systemError()) }
        return (descriptor, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// A device or a named pipe, opened to be written in place.
    private static func openInPlace(_ path: String, shownAs shown: String) throws -> Int32 {
        // Non-blocking open: a named pipe with no reader fails at once (ENXIO) instead of hanging the run.
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let detail =
                errno == ENXIO
                ? "it is a named pipe and nothing is reading from it" : systemError()
            throw WriteError(path: shown, detail: detail)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    throw WriteError(path: path, detail: "the reader closed the pipe", readerClosed: true)
                }
                throw WriteError(path: path, detail: systemError())
            }
            offset += written
        }
    }

    /// The name a temporary file for `name` starts with (then the writer's process id, a dash and six letters).
    static func temporaryPrefix(of name: String) -> String { "." + name + ".tmp-" }

    /// Removes the temporary files of `name` in `directory` whose writer is gone: a process id that no longer
    /// runs, or the form without one that older versions wrote.
    static func removeLeftovers(of name: String, in directory: String) {
        let prefix = temporaryPrefix(of: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            let parts = rest.split(separator: "-", maxSplits: 1)
            if parts.count == 2, let pid = Int32(parts[0]), pid > 0 {
                guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            } else if rest.count != 6 {
                continue
            }
            unlink(directory + "/" + entry)
        }
    }

    private static func systemError() -> String {
        switch errno {
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "the disk is full"
        case EROFS: return "the file system is read-only"
        case ENOENT: return "the directory does not exist"
        case EDQUOT: return "the disk quota is used up"
        default: return String(cString: strerror(errno)).lowercased()
        }
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
