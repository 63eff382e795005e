// Parser throughput and allocations per item, on an in-memory Google-News-like document.

import Benchmark
import FeedParser
import Foundation
import TributaryCore

/// Benchmarks of `StreamingFeedParser`: the hot path of `tributary parse` and of the RSS and Google News sources.
enum ParserBenchmarks {
    /// The read size of `tributary parse` and `scripts/bench/sax-count.c`.
    static let chunkSize = 64 * 1024

    static func register() -> [Benchmark] {
        // Exactly 1,000 items per iteration with `scalingFactor: .kilo`: the scaled (`*`) time and malloc counts
        // are per item; MB/s is measured around the parse itself.
        let items = SampleFeed.items(count: 1_000)
        let document = SampleFeed.rss(for: items)
        let chunks = stride(from: 0, to: document.count, by: chunkSize).map {
            Array(document[$0..<min($0 + chunkSize, document.count)])
        }
        let configuration = Benchmark.Configuration(
            metrics: [
                .wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, CoreBenchmarks.megabytesPerSecond,
            ],
            scalingFactor: .kilo,
            maxDuration: .seconds(3)
        )
        return [
            Benchmark("StreamingFeedParser Google News RSS, 64 KiB chunks", configuration: configuration) {
                benchmark in
                let start = ContinuousClock.now
                var parser = try StreamingFeedParser(options: FeedParserOptions())
                var count = 0
                try parseAll(chunks, with: &parser) { count += $0.count }
                let elapsed = ContinuousClock.now - start
                benchmark.measurement(
                    CoreBenchmarks.megabytesPerSecond,
                    CoreBenchmarks.rate(bytes: document.count, elapsed: elapsed)
                )
                precondition(count == items.count, "the parser returned \(count) of \(items.count) items")
                blackHole(count)
            },
            Benchmark("StreamingFeedParser Google News RSS, parse + JSON encode", configuration: configuration) {
                benchmark in
                // The whole of `tributary parse` minus the file: parse, then encode the items as JSON Feed items.
                let start = ContinuousClock.now
                var parser = try StreamingFeedParser(options: FeedParserOptions())
                let encoder = JSONEncoder()
                var bytes = 0
                try parseAll(chunks, with: &parser) { bytes += try encoder.encode($0).count }
                let elapsed = ContinuousClock.now - start
                benchmark.measurement(
                    CoreBenchmarks.megabytesPerSecond,
                    CoreBenchmarks.rate(bytes: document.count, elapsed: elapsed)
                )
                blackHole(bytes)
            },
        ].compactMap { $0 }
    }

    /// Feeds every chunk to `parser`, then finishes it, handing each batch of items to `body`. The parser is
    /// `inout` so that this compiles whether `StreamingFeedParser` is a class or a struct with mutating methods.
    static func parseAll(
        _ chunks: [[UInt8]],
        with parser: inout StreamingFeedParser,
        body: ([FeedItem]) throws -> Void
    ) throws {
        for chunk in chunks { try body(parser.parse(chunk)) }
        try body(parser.finish())
    }
}
