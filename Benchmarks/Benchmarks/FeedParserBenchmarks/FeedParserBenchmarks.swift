import Benchmark

/// The suite, discovered by package-benchmark's `BenchmarkPlugin` (`swift package benchmark`).
///
/// Every benchmark works on 1,000 values per iteration with `scalingFactor: .kilo`, so the scaled metrics (marked
/// `*` in the output: time, CPU, malloc counts) read per value: per date, per item.
func benchmarks() {
    CoreBenchmarks.register()
    ParserBenchmarks.register()
}
