import Foundation
import HTTPTypes
import Logging
public import TributaryCore

/// A live feed pushed over WebSocket (the push wire protocol, DESIGN.md section 5), or the simulator's feed run
/// in-process: the `push` kind.
///
/// The source keeps the last accepted item `seq`, ignores items at or below it, and resumes with `?after=SEQ`. It
/// reconnects with exponential backoff and jitter (``PushOptions/Reconnect``), from the shortest delay again once a
/// connection has delivered frames, and treats `heartbeatTimeout` without any frame as a dead connection. A
/// malformed frame (not JSON, unknown `type`, no `seq`, an item without `id`, larger than `maxMessageSize`) becomes a
/// `warning` and the stream goes on.
///
/// In one-shot mode (`digest`, `summary`) the source delivers the backlog up to `ready` plus what arrives within
/// `listen` of the start, then finishes; without a `ready` it still finishes then, with a warning, and if no
/// connection delivered anything it fails with the last connection error. In live mode (`watch`) it runs until
/// cancelled, or until `reconnect.maxAttempts` consecutive attempts delivered nothing.
///
/// Across one-shot runs a `url` source keeps its cursor: it ends the run with a checkpoint `{"seq": "N"}` (sent after
/// every item it covers) and starts the next run from ``SourceContext/savedState`` with `after=N`, so each digest
/// gets the items that are new since the last one. The host hands a checkpoint back only with a persistent store
/// (whose items the digest then still holds); without one `savedState` is empty and every run reads the backlog.
/// A simulated source keeps no cursor (its timeline starts again every run), and `watch` keeps its cursor in memory.
public struct PushSource: Source {
    public typealias Options = PushOptions

    public static let kind = "push"

    public static let documentation = SourceDocumentation(
        summary: "A live feed pushed over WebSocket (ws:// or wss://), or the built-in simulator run in-process.",
        options: [
            .init(
                "url",
                .string,
                help: "The server's WebSocket URL, ws:// or wss://. Give either url or simulate.",
                title: "WebSocket URL",
                examples: ["ws://127.0.0.1:8765/feed"]
            ),
            .init(
                "simulate",
                .object,
                help: "Run the simulator in-process instead of connecting anywhere.",
                title: "Simulated feed",
                properties: [
                    .init("seed", .integer, default: "0", help: "The same seed gives the same items."),
                    .init("rate", .number, default: "1", help: "New items per second."),
                    .init("backlog", .integer, default: "20", help: "Items already there when the source starts."),
                    .init("dropEvery", .integer, help: "Drop the connection every N frames (a fault to test against)."),
                    .init("garbageEvery", .integer, help: "Send a malformed frame every N frames (a fault)."),
                ]
            ),
            .init(
                "headers",
                .object,
                help: "Extra HTTP headers for the WebSocket upgrade request.",
                title: "Request headers"
            ),
            .init(
                "heartbeatTimeout",
                .duration,
                default: "30s",
                help: "No frame for this long means a dead connection: reconnect.",
                title: "Heartbeat timeout"
            ),
            .init(
                "listen",
                .duration,
                default: "2s",
                help: "In digest and summary, how long to listen for the backlog and new items before finishing.",
                title: "Listen window"
            ),
            .init(
                "maxMessageSize",
                .integer,
                default: "1048576",
                help: "The largest message accepted, in bytes; larger ones are skipped with a warning.",
                title: "Maximum message size"
            ),
            .init(
                "reconnect",
                .object,
                help: "Backoff between reconnects.",
                title: "Reconnect backoff",
                properties: [
                    .init("initialDelay", .duration, default: "500ms", help: "The first delay, after a drop."),
                    .init("maxDelay", .duration, default: "30s", help: "The delay doubles up to this."),
                    .init(
                        "maxAttempts",
                        .integer,
                        help: "Give up after this many failed attempts; no limit by default."
                    ),
                ]
            ),
        ],
        example: #"{ "id": "wire", "kind": "push", "simulate": { "seed": 7, "rate": 2, "backlog": 20 } }"#,
        requiredAlternatives: [["url"], ["simulate"]]
    )

    public let id: SourceID
    /// The options from feeds.json.
    public let options: PushOptions
    private let context: SourceContext
    private let headers: HTTPFields

    /// Creates the source; checks the options and opens nothing (SRC-1).
    /// - Throws: ``SourceOptionError`` naming the offending key.
    public init(id: SourceID, options: PushOptions, context: SourceContext) throws {
        switch (options.url, options.simulate) {
        case (nil, nil):
            throw SourceOptionError(
                key: "url",
                message: "is missing; give the server's ws:// or wss:// URL, or \"simulate\": { \"seed\": 7 }"
            )
        case (.some, .some):
            throw SourceOptionError(key: "simulate", message: "cannot be combined with \"url\"; remove one of them")
        case (.some(let url), nil):
            guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "ws" || scheme == "wss", let host = parsed.host, !host.isEmpty
            else {
                throw SourceOptionError(key: "url", message: "must be a ws:// or wss:// URL with a host")
            }
        case (nil, .some(let simulate)):
            let configuration = Self.simulatorConfiguration(simulate, epoch: Date(timeIntervalSince1970: 0))
            if let problem = configuration.problem {
                throw SourceOptionError(key: "simulate", message: problem)
            }
        }
        guard options.heartbeatTimeout > .zero else {
            throw SourceOptionError(key: "heartbeatTimeout", message: "must be longer than 0s, such as 30s")
        }
        guard options.maxMessageSize > 0 else {
            throw SourceOptionError(key: "maxMessageSize", message: "must be a positive number of bytes")
        }
        guard options.reconnect.initialDelay > .zero else {
            throw SourceOptionError(key: "reconnect", message: "initialDelay must be longer than 0s, such as 500ms")
        }
        if let attempts = options.reconnect.maxAttempts, attempts < 0 {
            throw SourceOptionError(key: "reconnect", message: "maxAttempts must be 0 or more")
        }
        var headers = HTTPFields()
        for (name, value) in options.headers.sorted(by: { $0.key < $1.key }) {
            guard let fieldName = HTTPField.Name(name) else {
                throw SourceOptionError(key: "headers", message: "\"\(name)\" is not a valid HTTP header name")
            }
            headers.append(HTTPField(name: fieldName, value: value))
        }
        self.id = id
        self.options = options
        self.context = context
        self.headers = headers
    }

    // MARK: - Source

    /// Connects (or starts the simulator), emits `started`, items as they arrive and warnings, and in one-shot
    /// mode a terminal event at the end of the listen window.
    /// - Throws: `CancellationError` when the task is cancelled (which stands for `failed`, SRC-8).
    public func run(into sink: EventSink) async throws {
        var logger = context.logger
        logger[metadataKey: "source"] = "\(id)"
        let transport: any PushTransport
        let url: String
        if let simulate = options.simulate {
            let configuration = Self.simulatorConfiguration(
                simulate,
                epoch: PushSimulator.epoch(containing: context.now())
            )
            transport = SimulatedPushTransport(timeline: PushSimulatorTimeline(configuration: configuration))
            url = "simulate://\(id)"
        } else {
            transport = WebSocketPushTransport(
                headers: headers,
                maxMessageSize: options.maxMessageSize,
                logger: logger
            )
            url = options.url ?? ""
        }
        // A push cursor across runs (one-shot, a real server only: the in-process simulator starts a new timeline
        // every run, so its numbers mean nothing to the next one). The store hands back the last checkpoint only
        // when it is persistent; otherwise savedState is empty and the run starts from the server's backlog.
        let carriesCursor = context.mode == .oneShot && options.simulate == nil
        var client = PushClient(
            sourceID: id,
            url: url,
            transport: transport,
            heartbeatTimeout: options.heartbeatTimeout,
            listen: options.listen,
            maxMessageSize: options.maxMessageSize,
            reconnect: options.reconnect,
            mode: context.mode,
            logger: logger
        )
        client.savedCursor = carriesCursor ? context.savedState[PushClient.checkpointKey] : nil
        client.sendsCheckpoints = carriesCursor
        try await client.run(into: sink)
    }

    // MARK: - Private

    private static func simulatorConfiguration(
        _ simulate: PushOptions.Simulate,
        epoch: Date
    ) -> PushSimulatorConfiguration {
        PushSimulatorConfiguration(
            seed: simulate.seed,
            rate: simulate.rate,
            backlog: simulate.backlog,
            dropEvery: simulate.dropEvery,
            garbageEvery: simulate.garbageEvery,
            epoch: epoch
        )
    }
}
