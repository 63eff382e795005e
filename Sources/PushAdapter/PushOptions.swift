import TributaryCore

/// The options of a `push` source: its slice of the feeds.json entry. Exactly one of ``url`` and ``simulate``.
///
/// ```json
/// { "id": "newsroom", "kind": "push", "url": "ws://127.0.0.1:8765/feed", "heartbeatTimeout": "30s" }
/// { "id": "wire", "kind": "push", "simulate": { "seed": 7, "rate": 2, "backlog": 20 } }
/// ```
public struct PushOptions: Decodable, Sendable, Hashable {
    /// The server's WebSocket URL (`ws://` or `wss://`).
    public var url: String?
    /// Run the simulator's generator in-process instead of connecting anywhere.
    public var simulate: Simulate?
    /// Extra HTTP headers sent with the WebSocket upgrade request (for example an `Authorization` token).
    public var headers: [String: String]
    /// No frame for this long means the connection is dead; default 30 s.
    public var heartbeatTimeout: Duration
    /// In one-shot commands, how long the source listens before it finishes; default 2 s.
    public var listen: Duration
    /// The largest message accepted, in bytes; a larger one is skipped with a warning. Default 1 MiB.
    public var maxMessageSize: Int
    /// How the source reconnects.
    public var reconnect: Reconnect

    /// The in-process simulator's settings (the same as `tributary simulate`'s options).
    public struct Simulate: Decodable, Sendable, Hashable {
        /// Equal seeds give equal items; default 0.
        public var seed: UInt64
        /// New items per second after the backlog; default 1. Zero sends the backlog only.
        public var rate: Double
        /// How many items exist before the first connection; default 20.
        public var backlog: Int
        /// Drop the connection after every this many frames (fault injection).
        public var dropEvery: Int?
        /// Make every this-many-th frame a malformed one (fault injection).
        public var garbageEvery: Int?

        /// Creates simulator settings.
        public init(
            seed: UInt64 = 0,
            rate: Double = 1,
            backlog: Int = 20,
            dropEvery: Int? = nil,
            garbageEvery: Int? = nil
        ) {
            self.seed = seed
            self.rate = rate
            self.backlog = backlog
            self.dropEvery = dropEvery
            self.garbageEvery = garbageEvery
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            seed = try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
            rate = try container.decodeIfPresent(Double.self, forKey: .rate) ?? 1
            backlog = try container.decodeIfPresent(Int.self, forKey: .backlog) ?? 20
            dropEvery = try container.decodeIfPresent(Int.self, forKey: .dropEvery)
            garbageEvery = try container.decodeIfPresent(Int.self, forKey: .garbageEvery)
        }

        private enum CodingKeys: String, CodingKey { case seed, rate, backlog, dropEvery, garbageEvery }
    }

    /// Reconnection with exponential backoff and jitter.
    public struct Reconnect: Decodable, Sendable, Hashable {
        /// The first delay, and the delay after a connection that delivered frames; default 0.5 s.
        public var initialDelay: Duration
        /// The longest delay; default 30 s.
        public var maxDelay: Duration
        /// Give up after this many consecutive attempts that delivered nothing; `nil` (the default) never gives up.
        public var maxAttempts: Int?

        /// Creates reconnection settings.
        public init(
            initialDelay: Duration = .milliseconds(500),
            maxDelay: Duration = .seconds(30),
            maxAttempts: Int? = nil
        ) {
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
            self.maxAttempts = maxAttempts
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            initialDelay = try container.decodeDuration(.initialDelay) ?? .milliseconds(500)
            maxDelay = try container.decodeDuration(.maxDelay) ?? .seconds(30)
            maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts)
        }

        private enum CodingKeys: String, CodingKey { case initialDelay, maxDelay, maxAttempts }
    }

    /// Creates the options.
    public init(
        url: String? = nil,
        simulate: Simulate? = nil,
        headers: [String: String] = [:],
        heartbeatTimeout: Duration = .seconds(30),
        listen: Duration = .seconds(2),
        maxMessageSize: Int = 1 << 20,
        reconnect: Reconnect = Reconnect()
    ) {
        self.url = url
        self.simulate = simulate
        self.headers = headers
        self.heartbeatTimeout = heartbeatTimeout
        self.listen = listen
        self.maxMessageSize = maxMessageSize
        self.reconnect = reconnect
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        simulate = try container.decodeIfPresent(Simulate.self, forKey: .simulate)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        heartbeatTimeout = try container.decodeDuration(.heartbeatTimeout) ?? .seconds(30)
        listen = try container.decodeDuration(.listen) ?? .seconds(2)
        maxMessageSize = try container.decodeIfPresent(Int.self, forKey: .maxMessageSize) ?? 1 << 20
        reconnect = try container.decodeIfPresent(Reconnect.self, forKey: .reconnect) ?? Reconnect()
    }

    private enum CodingKeys: String, CodingKey {
        case url, simulate, headers, heartbeatTimeout, listen, maxMessageSize, reconnect
    }
}

extension KeyedDecodingContainer {
    /// Decodes a feeds.json duration string (`500ms`, `30s`, `15m`), or `nil` when the key is absent.
    fileprivate func decodeDuration(_ key: Key) throws -> Duration? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let duration = DurationFormat.parse(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath + [key], debugDescription: "a duration such as 500ms, 30s or 2m")
            )
        }
        return duration
    }
}
