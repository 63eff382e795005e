import Benchmark
import Foundation
import TributaryCore

/// Benchmarks of the core contracts the parser's output goes through: RFC 3339 dates and JSON Feed coding.
enum CoreBenchmarks {
    /// MB/s of input (decoding) or output (encoding) of one iteration, measured around the work itself.
    static let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)

    static func register() -> [Benchmark] {
        let perValue: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
        let configuration = Benchmark.Configuration(metrics: perValue, scalingFactor: .kilo, maxDuration: .seconds(2))
        let withRate = Benchmark.Configuration(
            metrics: perValue + [megabytesPerSecond],
            scalingFactor: .kilo,
            maxDuration: .seconds(2)
        )
        let items = SampleFeed.items(count: 1_000)
        let dates = items.compactMap(\.datePublished)
        let fractionalDates = dates.map { $0 + 0.25 }
        let strings = dates.map(RFC3339.format)
        let offsetStrings = dates.map { RFC3339.format($0).replacingOccurrences(of: "Z", with: "+09:00") }
        let feed = JSONFeed(title: "Top stories - Google News", homePageURL: "https://news.google.com/", items: items)
        let document = (try? JSONEncoder().encode(feed)) ?? Data()

        return [
            Benchmark("RFC3339.parse (UTC)", configuration: configuration) { _ in
                for string in strings { blackHole(RFC3339.parse(string)) }
            },
            Benchmark("RFC3339.parse (offset)", configuration: configuration) { _ in
                for string in offsetStrings { blackHole(RFC3339.parse(string)) }
            },
            Benchmark("RFC3339.format (whole seconds)", configuration: configuration) { _ in
                for date in dates { blackHole(RFC3339.format(date)) }
            },
            Benchmark("RFC3339.format (fractional)", configuration: configuration) { _ in
                for date in fractionalDates { blackHole(RFC3339.format(date)) }
            },
            Benchmark("FeedItem JSON encoding (JSONEncoder)", configuration: withRate) { benchmark in
                let encoder = JSONEncoder()
                let start = ContinuousClock.now
                let data = try encoder.encode(items)
                let elapsed = ContinuousClock.now - start
                benchmark.measurement(megabytesPerSecond, rate(bytes: data.count, elapsed: elapsed))
                blackHole(data)
            },
            Benchmark("JSON Feed decoding (JSONDecoder)", configuration: withRate) { benchmark in
                let start = ContinuousClock.now
                let decoded = try JSONDecoder().decode(JSONFeed.self, from: document)
                let elapsed = ContinuousClock.now - start
                benchmark.measurement(megabytesPerSecond, rate(bytes: document.count, elapsed: elapsed))
                blackHole(decoded)
            },
        ].compactMap { $0 }
    }

    /// Megabytes (10^6 bytes) per second, rounded.
    static func rate(bytes: Int, elapsed: Duration) -> Int {
        let (seconds, attoseconds) = elapsed.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        return total > 0 ? Int((Double(bytes) / 1e6 / total).rounded()) : 0
    }
}
