import Foundation
import Hummingbird
import Logging
import NIOCore

/// A real HTTP server on 127.0.0.1, on a port the system picks, for the duration of `body`.
///
/// The server runs in a child task of a task group and is cancelled (shut down) when `body` returns.
func withTestServer<T: Sendable>(
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

enum TestServerError: Error {
    case noPort
}

/// Fixture files from `Fixtures/`, loaded through `Bundle.module`.
enum Fixture {
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return try Data(contentsOf: url)
    }

    /// Every feed fixture (`.xml` and `.html`), sorted.
    static var feedNames: [String] {
        let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil)
        let names = directory.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        return names.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".html") }.sorted()
    }
}

/// A fresh directory under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("rss-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A one-shot signal: `open()` lets every `wait` through.
actor Gate {
    private var isOpen = false

    func open() { isOpen = true }

    /// Waits until the gate opens or `limit` passes; returns whether it opened.
    func wait(atMost limit: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while !isOpen, clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(10))
        }
        return isOpen
    }
}
