import Benchmark

/// The suite, discovered by package-benchmark's `BenchmarkPlugin` (`swift package benchmark`): registers every
/// benchmark and returns them (the generated runner calls this as `_ = benchmarks()`).
///
/// Every benchmark works on 1,000 values per iteration with `scalingFactor: .kilo`, so the scaled metrics (marked
/// `*` in the output: time, malloc counts) read per value: per date, per item.
func benchmarks() -> [Benchmark] {
    CoreBenchmarks.register() + ParserBenchmarks.register() + SanitizerBenchmarks.register()
}
