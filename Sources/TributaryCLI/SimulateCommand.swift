import ArgumentParser
import Foundation
import Logging
import NetworkFailure
import PushAdapter
import TributaryCore

/// `tributary simulate`: serves the simulated push feed (DESIGN.md section 5) at `ws://127.0.0.1:PORT/feed`.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Serve the simulated push feed at ws://127.0.0.1:PORT/feed.",
        discussion: """
            Serves deterministic items for a seed over the push wire protocol: the last --backlog items (or every \
            item after ?after=SEQ), a 'ready' frame, then --rate new items per second and heartbeats. seq numbers \
            are global for the server's lifetime. --port 0 picks a free port. Prints \
            "listening on ws://127.0.0.1:PORT/feed" on standard output once it accepts connections. Ctrl-C stops it.

            Exit codes: 0 stopped by Ctrl-C; 2 bad usage or the port could not be bound.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8765

    @Option(help: "Equal seeds give equal items.")
    var seed: UInt64 = 7

    @Option(help: "New items per second after the backlog (0: none).")
    var rate: Double = 1

    @Option(help: "How many items exist at start.")
    var backlog: Int = 20

    @Option(name: .customLong("drop-every"), help: "Drop each connection after N frames.")
    var dropEvery: Int?

    @Option(name: .customLong("garbage-every"), help: "Make every Nth frame of a connection malformed.")
    var garbageEvery: Int?

    @Option(name: .customLong("heartbeat"), help: "Send a heartbeat after this long without a frame (e.g. 5s).")
    var heartbeat: String = "5s"

    @Option(
        help:
            "When the wire starts, RFC 3339: the backlog was published about 7 minutes apart before it, later items at the second they go out (default: now)."
    )
    var epoch: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard DurationFormat.parse(heartbeat) != nil else {
            throw ValidationError("--heartbeat must be a duration such as 500ms or 5s")
        }
        if let epoch, RFC3339.parse(epoch) == nil {
            throw ValidationError("--epoch must be an RFC 3339 time such as 2026-01-01T00:00:00Z")
        }
        if let problem = makeConfiguration().problem { throw ValidationError(problem) }
    }

    func run() async throws {
        let server = PushSimulatorServer(configuration: makeConfiguration(), port: port)
        do {
            _ = try await SignalTrap.runUntilInterrupted {
                try await server.run { port in
                    FileHandle.standardOutput.write(Data("listening on ws://127.0.0.1:\(port)/feed\n".utf8))
                }
            }
        } catch {
            let detail =
                NetworkFailure.describeListening(error, host: "127.0.0.1", port: port)
                ?? "could not listen on 127.0.0.1:\(port) (\(error))"
            StandardError.write("tributary: simulate: \(detail)")
            throw CLIExit.usage
        }
    }

    private func makeConfiguration() -> PushSimulatorConfiguration {
        PushSimulatorConfiguration(
            seed: seed,
            rate: rate,
            backlog: backlog,
            dropEvery: dropEvery,
            garbageEvery: garbageEvery,
            heartbeatInterval: DurationFormat.parse(heartbeat) ?? .seconds(5),
            epoch: epoch.flatMap { RFC3339.parse($0) } ?? Date()
        )
    }
}
