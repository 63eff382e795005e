import FeedParser
import Foundation
import Testing
import TributaryCore

@Suite struct PacedStreamTests {
    /// A paced byte stream (small chunks arriving over time) yields the first items long before the last byte.
    @Test func firstItemsArriveBeforeTheLastBytes() async throws {
        let bytes = GeneratedFeed.googleNewsLike(items: 200)
        let chunkSize = 512
        let stream = AsyncStream<[UInt8]> { continuation in
            let task = Task {
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunkSize)
                    continuation.yield(Array(bytes[offset..<end]))
                    offset = end
                    if offset % (chunkSize * 16) == 0 { try? await Task.sleep(for: .milliseconds(1)) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        let parser = try StreamingFeedParser(options: FixtureSupport.options())
        var fed = 0
        var bytesFedWhenFirstItemArrived: Int?
        var items: [FeedItem] = []
        for await chunk in stream {
            fed += chunk.count
            let batch = try parser.parse(chunk)
            if !batch.isEmpty, bytesFedWhenFirstItemArrived == nil { bytesFedWhenFirstItemArrived = fed }
            items += batch
        }
        items += try parser.finish()
        #expect(items.count == 200)
        let firstAt = try #require(bytesFedWhenFirstItemArrived)
        #expect(firstAt < bytes.count / 20, "first item only after \(firstAt) of \(bytes.count) bytes")
        #expect(parser.metadata?.title == "Top stories - Google News")
    }

    @Test func itemsAreReturnedChunkByChunkNotAtTheEnd() throws {
        let bytes = GeneratedFeed.googleNewsLike(items: 100)
        let parser = try StreamingFeedParser(options: FixtureSupport.options())
        var batches: [Int] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 4096)
            batches.append(try parser.parse(Array(bytes[offset..<end])).count)
            offset = end
        }
        let last = try parser.finish().count
        #expect(batches.filter { $0 > 0 }.count > 10)
        #expect(batches.reduce(0, +) + last == 100)
        #expect(last == 0)
    }
}

@Suite struct ConcurrentParsingTests {
    /// Parsers on many tasks at once give the same output as one at a time (no shared state between them).
    @Test func parsersOnConcurrentTasksAreIndependent() async throws {
        let names = ChunkBoundaryTests.fixtures
        var expected: [String: [FeedItem]] = [:]
        for name in names { expected[name] = try FixtureSupport.parseFixture(name).items }
        let results = try await withThrowingTaskGroup(of: (String, [FeedItem]).self) { group in
            for round in 0..<4 {
                for name in names {
                    group.addTask {
                        let bytes = try FixtureSupport.bytes(name)
                        let split = (round + 1) * 97 % max(bytes.count, 1)
                        return (name, try FixtureSupport.parse(bytes, splitAt: [split]).items)
                    }
                }
            }
            var collected: [(String, [FeedItem])] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == names.count * 4)
        for (name, items) in results { #expect(items == expected[name], "\(name)") }
    }
}
