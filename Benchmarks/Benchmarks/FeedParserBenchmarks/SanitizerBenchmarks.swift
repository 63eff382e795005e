// HTML sanitizer throughput and allocations per item, directly read and through libxml2.

import Benchmark
import Foundation
import HTMLSanitizer

/// Benchmarks of `HTMLSanitizer` on the `content_html` of the sample Google News items (every one sanitized by
/// the parser, so the sanitizer is on the hot path of `tributary parse`), with and without the directly read
/// subset.
enum SanitizerBenchmarks {
    static func register() -> [Benchmark] {
        // 1,000 fragments per iteration with `scalingFactor: .kilo`: the scaled time and malloc counts are per item.
        let fragments = SampleFeed.items(count: 1_000).compactMap(\.contentHTML)
        let bytes = fragments.reduce(0) { $0 + $1.utf8.count }
        let base = URL(string: "https://news.google.com/rss")
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .throughput, .mallocCountTotal, CoreBenchmarks.megabytesPerSecond],
            scalingFactor: .kilo,
            maxDuration: .seconds(3)
        )
        func benchmark(_ name: String, _ sanitizer: HTMLSanitizer) -> Benchmark? {
            Benchmark(name, configuration: configuration) { benchmark in
                let start = ContinuousClock.now
                var written = 0
                for fragment in fragments { written += sanitizer.sanitize(fragment, baseURL: base).utf8.count }
                benchmark.measurement(
                    CoreBenchmarks.megabytesPerSecond,
                    CoreBenchmarks.rate(bytes: bytes, elapsed: ContinuousClock.now - start)
                )
                blackHole(written)
            }
        }
        return [
            benchmark("HTMLSanitizer Google News descriptions, read directly", HTMLSanitizer()),
            benchmark(
                "HTMLSanitizer Google News descriptions, libxml2 only",
                HTMLSanitizer(options: .init(readsSimpleFragmentsDirectly: false))
            ),
        ].compactMap { $0 }
    }
}
