import TributaryCore

/// The options of an `exec` source: its slice of the feeds.json entry.
///
/// ```json
/// { "id": "hn-script", "kind": "exec", "command": ["./scripts/hn.sh", "--top"], "args": ["30"],
///   "env": { "LANG": "C.UTF-8" }, "cwd": "scripts", "timeout": "30s" }
/// ```
public struct ExecOptions: Decodable, Sendable, Hashable {
    /// The program and its first arguments. No shell is involved: `command[0]` is looked up on `PATH` when it
    /// holds no `/`, and is otherwise a path, relative to the directory holding feeds.json unless absolute.
    public var command: [String]
    /// More arguments, after those in ``command``.
    public var args: [String]
    /// Environment variables set for the program, on top of Tributary's own environment.
    public var env: [String: String]
    /// The working directory, relative to the directory holding feeds.json; that directory when absent.
    public var cwd: String?
    /// How long the program may run before it and its children are ended and the source fails; the entry's
    /// common `timeout` key. ``ExecSource/defaultTimeout`` when absent.
    public var timeout: Duration?
    /// Whether the program is long-running and prints JSON lines, one JSON Feed item per line, rather than one
    /// feed document.
    public var stream: Bool

    /// Creates the options.
    public init(
        command: [String],
        args: [String] = [],
        env: [String: String] = [:],
        cwd: String? = nil,
        timeout: Duration? = nil,
        stream: Bool = false
    ) {
        self.command = command
        self.args = args
        self.env = env
        self.cwd = cwd
        self.timeout = timeout
        self.stream = stream
    }

    private enum CodingKeys: String, CodingKey {
        case command, args, env, cwd, timeout, stream
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        command = try container.decode([String].self, forKey: .command)
        args = try container.decodeIfPresent([String].self, forKey: .args) ?? []
        env = try container.decodeIfPresent([String: String].self, forKey: .env) ?? [:]
        cwd = try container.decodeIfPresent(String.self, forKey: .cwd)
        stream = try container.decodeIfPresent(Bool.self, forKey: .stream) ?? false
        if let text = try container.decodeIfPresent(String.self, forKey: .timeout) {
            guard let duration = DurationFormat.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .timeout,
                    in: container,
                    debugDescription: "\"\(text)\" is not a duration such as \"30s\" or \"2m\""
                )
            }
            timeout = duration
        } else {
            timeout = nil
        }
    }
}
