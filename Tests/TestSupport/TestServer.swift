public import Foundation
public import Hummingbird
import Logging
import NIOCore

/// A real HTTP server on 127.0.0.1, on a port the system picks, for the duration of `body`.
///
/// The server runs in a child task of a task group and is cancelled (shut down) when `body` returns.
public func withTestServer<T: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: (_ port: Int) async throws -> T
) async throws -> T {
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        defer { group.cancelAll() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw TestServerError.noPort }
        return try await body(port)
    }
}

/// Why ``withTestServer(_:_:)`` could not start its server.
public enum TestServerError: Error {
    /// The server reported no port.
    case noPort
}

/// A fresh directory under the system's temporary directory, named after `prefix`, removed when `body` returns.
public func withTemporaryDirectory<T>(
    prefix: String = "tributary-tests",
    _ body: (URL) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A one-shot signal: `open()` lets every `wait` through.
public actor Gate {
    private var isOpen = false

    /// Creates a closed gate.
    public init() {}

    /// Opens the gate.
    public func open() { isOpen = true }

    /// Waits until the gate opens or `limit` passes; returns whether it opened.
    public func wait(atMost limit: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while !isOpen, clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(10))
        }
        return isOpen
    }
}

/// The fixture files of a test target, in the `Fixtures` folder of its resource bundle.
public struct FixtureDirectory: Sendable {
    private let bundle: Bundle

    /// The fixtures of the test target whose bundle is `bundle` (pass `.module`).
    public init(bundle: Bundle) {
        self.bundle = bundle
    }

    /// The contents of `Fixtures/<name>`.
    public func data(_ name: String) throws -> Data {
        guard let url = bundle.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return try Data(contentsOf: url)
    }

    /// Every feed fixture (`.xml` and `.html`), sorted.
    public var feedNames: [String] {
        let directory = bundle.url(forResource: "Fixtures", withExtension: nil)
        let names = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        return names.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".html") }.sorted()
    }
}
