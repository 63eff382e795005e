import Foundation
import Testing
import TributaryCore

@testable import PushAdapter

@Suite struct PushSourceTests {
    private func load(_ sources: String) throws -> (FeedsConfiguration, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("feeds.json")
        try Data(#"{ "sources": [ \#(sources) ] }"#.utf8).write(to: file)
        let configuration = try ConfigurationLoader.load(
            contentsOf: file,
            displayPath: "feeds.json",
            registry: SourceRegistry([PushSource.self])
        )
        return (configuration, directory)
    }

    @Test func decodesEveryOptionFromFeedsJSON() throws {
        let (configuration, directory) = try load(
            #"""
            { "id": "news", "kind": "push", "url": "wss://push.example.com/feed?x=1", "headers": { "Authorization": "Bearer t" },
              "heartbeatTimeout": "45s", "listen": "500ms", "maxMessageSize": 2048,
              "reconnect": { "initialDelay": "250ms", "maxDelay": "1m", "maxAttempts": 5 } }
            """#
        )
        let entry = try #require(configuration.sources.first)
        let source = try SourceRegistry([PushSource.self]).makeSource(
            for: entry,
            context: SourceContext(baseDirectory: directory)
        )
        let push = try #require(source as? PushSource)
        #expect(push.options.url == "wss://push.example.com/feed?x=1")
        #expect(push.options.headers == ["Authorization": "Bearer t"])
        #expect(push.options.heartbeatTimeout == .seconds(45))
        #expect(push.options.listen == .milliseconds(500))
        #expect(push.options.maxMessageSize == 2048)
        #expect(
            push.options.reconnect == .init(initialDelay: .milliseconds(250), maxDelay: .seconds(60), maxAttempts: 5)
        )
    }

    @Test func defaultsMatchTheDocumentation() throws {
        let options = PushOptions(url: "ws://127.0.0.1:1/feed")
        #expect(options.heartbeatTimeout == .seconds(30))
        #expect(options.listen == .seconds(2))
        #expect(options.reconnect.initialDelay == .milliseconds(500))
        #expect(options.reconnect.maxDelay == .seconds(30))
        #expect(options.reconnect.maxAttempts == nil)
        let simulate = try JSONDecoder().decode(PushOptions.Simulate.self, from: Data(#"{ "seed": 7 }"#.utf8))
        #expect(simulate == .init(seed: 7, rate: 1, backlog: 20))
    }

    @Test(arguments: [
        (PushOptions(), "url"),
        (PushOptions(url: "ws://a/feed", simulate: .init()), "simulate"),
        (PushOptions(url: "http://example.com/feed"), "url"),
        (PushOptions(url: "ws:///feed"), "url"),
        (PushOptions(url: "ws://a/feed", headers: ["Bad Header": "x"]), "headers"),
        (PushOptions(url: "ws://a/feed", heartbeatTimeout: .zero), "heartbeatTimeout"),
        (PushOptions(url: "ws://a/feed", maxMessageSize: 0), "maxMessageSize"),
        (PushOptions(simulate: .init(dropEvery: 1)), "simulate"),
        (PushOptions(simulate: .init(rate: -1)), "simulate"),
    ])
    func refusesUnusableOptionsNamingTheKey(options: PushOptions, key: String) {
        #expect {
            try PushSource(id: "p", options: options, context: testContext(mode: .oneShot))
        } throws: { error in
            (error as? SourceOptionError)?.key == key
        }
    }

    @Test func aBadDurationNamesTheKey() throws {
        #expect(throws: ConfigurationErrors.self) {
            try load(#"{ "id": "news", "kind": "push", "url": "ws://a/feed", "listen": "2 seconds" }"#)
        }
    }

    @Test func aSimulatedSourceDeduplicatesThroughDropsAndGarbageInAPipeline() async throws {
        let source = try PushSource(
            id: "wire",
            options: PushOptions(
                simulate: .init(seed: 4, rate: 0, backlog: 30, dropEvery: 7, garbageEvery: 5),
                listen: .seconds(3),
                reconnect: .init(initialDelay: .milliseconds(10), maxDelay: .milliseconds(50))
            ),
            context: testContext(mode: .oneShot)
        )
        let pipeline = Pipeline(
            sources: [PipelineSource(source: source, kind: "push")],
            settings: PipelineSettings(),
            store: InMemoryItemStore()
        )
        let result = try await pipeline.run()
        #expect(result.items.compactMap(seq(of:)).sorted() == Array(1...30))
        let status = try #require(result.statuses.first)
        #expect(status.state == .succeeded)
        #expect(status.itemCount == 30)
        #expect(status.warnings.allSatisfy { $0.message.hasPrefix("skipped") })
        #expect(!status.warnings.isEmpty)
    }

    @Test func cancellingALiveSourceOnTheRealSimulatorReturnsPromptly() async throws {
        let configuration = PushSimulatorConfiguration(seed: 1, rate: 50, backlog: 5, epoch: testEpoch)
        try await withSimulator(configuration) { port in
            let source = try PushSource(
                id: "wire",
                options: PushOptions(url: "ws://127.0.0.1:\(port)/feed", heartbeatTimeout: .seconds(1)),
                context: testContext(mode: .live)
            )
            let recorder = EventRecorder()
            let started = ContinuousClock.now
            let satisfied = await runLive(source, recorder: recorder) { await $0.items.count >= 10 }
            #expect(satisfied)
            // runLive cancels the source once satisfied and waits for it to return (SRC-10: within a second;
            // the bound here only detects hangs).
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }
}
