import Foundation
import NIOCore
import NetworkFailure
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a person reads when the network fails: the host and what to check, never a Swift type name or an errno
/// string, and never the usage text after a command that parsed. Real sockets on 127.0.0.1, no network beyond.
@Suite struct NetworkErrorMessageTests {
    /// A TCP socket bound to 127.0.0.1 on a free port; listening when asked. Closed (and so refusing) after `close`.
    final class LoopbackSocket {
        let descriptor: Int32
        let port: Int

        init(listening: Bool) throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
                }
            }
            try #require(bound, "could not bind a loopback socket")
            port = Int(UInt16(bigEndian: address.sin_port))
            if listening { try #require(listen(descriptor, 1) == 0) }
        }

        func close() { _ = Glibc.close(descriptor) }
        deinit { close() }
    }

    /// `digest` of the one source `entry` (with `PORT` for a loopback port nothing listens on), and that port.
    static func digestAgainstAClosedPort(_ entry: String) throws -> (TributaryProcess.Result, Int) {
        let closed = try LoopbackSocket(listening: false)
        let port = closed.port
        closed.close()
        let workspace = try Workspace()
        let source = entry.replacingOccurrences(of: "PORT", with: String(port))
        try workspace.write("feeds.json", #"{ "sources": [ \#(source) ] }"#)
        let result = try TributaryProcess.run(
            ["digest", "--no-state", "--format", "text", "-o", "-"],
            in: workspace.url
        )
        return (result, port)
    }

    /// Words that mean a library's internals leaked into a message.
    static let internals = ["errno", "Error.", "error -", "NIO", "SocketAddressError", "IOError", "(error set)"]

    @Test func aClosedPortIsARefusedConnectionNamedByHostAndPort() throws {
        let (result, port) = try Self.digestAgainstAClosedPort(
            #"{ "id": "local", "kind": "rss", "url": "http://127.0.0.1:PORT/feed.xml" }"#
        )
        #expect(result.status == 1)
        #expect(
            result.standardError.contains(
                "local: FAILED: http://127.0.0.1:\(port)/feed.xml: 127.0.0.1:\(port) refused the connection (is a server running there?)"
            ),
            "\(result.standardError)"
        )
        for word in Self.internals { #expect(!result.standardError.contains(word), "\(result.standardError)") }
        #expect(!result.standardError.contains("Usage"))
    }

    @Test func aPushSourceOnAClosedPortSaysTheSame() throws {
        let (result, port) = try Self.digestAgainstAClosedPort(
            #"{ "id": "wire", "kind": "push", "url": "ws://127.0.0.1:PORT/feed", "listen": "1s" }"#
        )
        #expect(result.status == 1)
        #expect(result.standardError.contains("127.0.0.1:\(port) refused the connection"), "\(result.standardError)")
        for word in Self.internals { #expect(!result.standardError.contains(word), "\(result.standardError)") }
    }

    @Test func simulateOnABusyPortSaysSoAndHowToFixIt() throws {
        let busy = try LoopbackSocket(listening: true)
        let result = try TributaryProcess.run(
            ["simulate", "--port", "\(busy.port)"],
            in: FileManager.default.temporaryDirectory
        )
        #expect(result.status == 2)
        #expect(
            result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
                == "tributary: simulate: port \(busy.port) is in use (another server is listening there); try another --port, or --port 0"
        )
    }

    /// Errno-level failures in words. (A name that does not resolve is not tested here: NIO's resolver error
    /// cannot be made outside NIO, and resolving a name for real would leave the machine.)
    @Test func errnoFailuresAreWords() {
        #expect(
            NetworkFailure.describe(IOError(errnoCode: ECONNREFUSED, reason: "connect"), host: "127.0.0.1", port: 1)
                == "127.0.0.1:1 refused the connection (is a server running there?)"
        )
        #expect(
            NetworkFailure.describe(IOError(errnoCode: ENETUNREACH, reason: "connect"), host: "a.example", port: 80)
                == "a.example:80 is unreachable: no network (offline?)"
        )
        #expect(
            NetworkFailure.describeListening(
                IOError(errnoCode: EADDRINUSE, reason: "bind"),
                host: "127.0.0.1",
                port: 8765
            )
                == "port 8765 is in use (another server is listening there); try another --port, or --port 0"
        )
        #expect(NetworkFailure.describe(CancellationError(), host: "a", port: 1) == nil)
    }

    @Test func noArgumentsPrintsHelpOnStandardErrorAndExits2() throws {
        let result = try TributaryProcess.run([], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("USAGE: tributary <subcommand>"))
    }

    /// Asking for help is not an error: the help goes to standard output and the exit code is 0, for the root
    /// command, a subcommand (`parse --help`, `-h`) and the `help` command alike.
    @Test(arguments: [["--help"], ["-h"], ["parse", "--help"], ["worker", "-h"], ["help", "digest"]])
    func helpPrintsOnStandardOutputAndExits0(arguments: [String]) throws {
        let result = try TributaryProcess.run(arguments, in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("OVERVIEW: "), "\(result.standardOutput.prefix(200))")
        #expect(result.standardOutput.contains("USAGE: tributary"))
    }

    @Test func versionPrintsOnStandardOutputAndExits0() throws {
        let result = try TributaryProcess.run(["--version"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.split(separator: ".").count == 3, "\(result.standardOutput)")
    }

    @Test func aRuntimeErrorIsNotFollowedByUsage() throws {
        let workspace = try Workspace()
        try workspace.write("feeds.json", #"{ "sources": [] }"#)
        let result = try TributaryProcess.run(["digest", "-o", "missing/dir/digest.html"], in: workspace.url)
        #expect(result.status == 2)
        #expect(
            result.standardError.hasPrefix("tributary: cannot write missing/dir/digest.html"),
            "\(result.standardError)"
        )
        #expect(!result.standardError.contains("Usage"))
        #expect(!result.standardError.contains("Error:"))
    }
}
