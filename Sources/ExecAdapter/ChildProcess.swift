import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started in a process group of its own, whose stdout and stderr are read without blocking.
///
/// Foundation's `Process` starts the child as the leader of a new process group (its group id is its pid, on Linux
/// as on Darwin; checked after launch), so the whole group (the program and every child it started that did not
/// leave the group) can be signalled at once with `kill(-pgid, …)`. The group stays addressable after the leader
/// exits while any member lives, which is how orphaned grandchildren are ended too. Should the child ever share
/// Tributary's own group, only the child itself is signalled, and only while it runs.
///
/// The pipes are set non-blocking, so reading never blocks a thread of the cooperative pool: the caller polls and
/// sleeps between empty reads, which also lets it notice cancellation.
final class ChildProcess {
    /// What one read found.
    enum ReadResult {
        case bytes([UInt8])
        case endOfFile
        case wouldBlock
    }

    /// How the program ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    private let process: Process
    private let standardOutput: Pipe
    private let standardError: Pipe
    private var stdoutOpen = true
    private var stderrOpen = true
    /// The group to signal; `nil` when the child shares Tributary's group.
    private let processGroup: pid_t?

    /// The child's process id.
    let pid: pid_t

    /// Starts the program.
    /// - Throws: the error `Process.run()` throws when the program cannot be started.
    init(executable: URL, arguments: [String], environment: [String: String], directory: URL) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        standardOutput = Pipe()
        standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        // `run()` closed the parent's write ends, so end of file comes when the group lets go of them.
        for handle in [standardOutput.fileHandleForReading, standardError.fileHandleForReading] {
            let descriptor = handle.fileDescriptor
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        pid = process.processIdentifier
        // A child that already exited and was reaped has no group to ask about; Foundation gave it its own.
        processGroup = getpgid(pid) == getpgrp() ? nil : pid
    }

    deinit {
        try? standardOutput.fileHandleForReading.close()
        try? standardError.fileHandleForReading.close()
    }

    /// Whether the program (the group's leader) is still running.
    ///
    /// Foundation reaps the child only once its output pipes have closed, so a program whose background children
    /// still hold stdout counts as running for `Process`. This asks the kernel instead, with `waitid(WNOWAIT)`,
    /// which sees the exit without reaping the child (Foundation still collects its status).
    var isRunning: Bool {
        guard process.isRunning else { return false }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
            // ECHILD: Foundation has just reaped it.
            return errno != ECHILD
        }
        #if os(Linux)
        return info._sifields._sigchld.si_pid != pid
        #else
        return info.si_pid != pid
        #endif
    }

    /// How the program ended; `nil` while it runs.
    var termination: Termination? {
        guard !process.isRunning else { return nil }
        switch process.terminationReason {
        case .exit: return .exited(process.terminationStatus)
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        @unknown default: return .exited(process.terminationStatus)
        }
    }

    /// Whether both output pipes have reached end of file.
    var outputClosed: Bool { !stdoutOpen && !stderrOpen }

    /// Reads what stdout has now.
    func readStandardOutput() -> ReadResult {
        guard stdoutOpen else { return .endOfFile }
        let result = Self.readAvailable(standardOutput.fileHandleForReading.fileDescriptor)
        if case .endOfFile = result { stdoutOpen = false }
        return result
    }

    /// Reads what stderr has now.
    func readStandardError() -> ReadResult {
        guard stderrOpen else { return .endOfFile }
        let result = Self.readAvailable(standardError.fileHandleForReading.fileDescriptor)
        if case .endOfFile = result { stderrOpen = false }
        return result
    }

    /// Ends the program and its group: `SIGTERM`, up to `grace` for the program to exit, then `SIGKILL` for
    /// whatever is left of the group.
    ///
    /// This waits by sleeping the thread, in steps of 5 ms and for at most `grace` plus 500 ms, because it runs
    /// when the task has been cancelled, where every `Task.sleep` returns at once.
    func end(grace: Duration) {
        signal(SIGTERM)
        wait(upTo: grace)
        signal(SIGKILL)
        wait(upTo: .milliseconds(500))
    }

    /// Sends `SIGKILL` to whatever is left of the group, without waiting: for children that outlived a program
    /// that exited normally.
    func killRemainingGroup() {
        if let processGroup { _ = kill(-processGroup, SIGKILL) }
    }

    // MARK: - Private

    private func signal(_ number: Int32) {
        if let processGroup {
            _ = kill(-processGroup, number)
        } else if isRunning {
            _ = kill(pid, number)
        }
    }

    private func wait(upTo limit: Duration) {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while isRunning, clock.now < end {
            usleep(5000)
        }
    }

    private static func readAvailable(_ descriptor: Int32) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(Array(buffer[..<count])) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .endOfFile
            }
        }
    }
}
