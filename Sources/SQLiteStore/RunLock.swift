public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a file beside the store (`state.sqlite.lock`), held for a whole run so that two runs on
/// one store take turns instead of interleaving.
///
/// It is an advisory `flock(2)` lock: the kernel releases it when the process exits, however it exits (a `SIGKILL`
/// included), so a crashed run never leaves the store locked.
public final class RunLock: Sendable {
    /// The lock file.
    public let url: URL
    private let descriptor: Int32

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock, waiting up to `timeout` for another holder to let go.
    /// - Parameters:
    ///   - url: the lock file; created when missing (its directory must exist).
    ///   - storePath: the store's path, for messages.
    ///   - timeout: how long to wait for another run.
    ///   - pollInterval: how often to try again while waiting.
    /// - Throws: ``SQLiteStoreError`` `.busy` after the timeout, `.cannotOpen` when the file cannot be opened.
    public static func acquire(
        _ url: URL,
        storePath: String,
        timeout: Duration,
        pollInterval: Duration = .milliseconds(50)
    ) async throws -> RunLock {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let detail = String(cString: strerror(errno))
            throw SQLiteStoreError(path: storePath, reason: .cannotOpen(detail: "\(url.path): \(detail)"))
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                return RunLock(url: url, descriptor: descriptor)
            }
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                close(descriptor)
                let detail = String(cString: strerror(error))
                throw SQLiteStoreError(path: storePath, reason: .cannotOpen(detail: "locking \(url.path): \(detail)"))
            }
            guard clock.now < deadline else {
                close(descriptor)
                throw SQLiteStoreError(path: storePath, reason: .busy(waited: timeout))
            }
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                close(descriptor)
                throw error
            }
        }
    }
}
