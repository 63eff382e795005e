// swift-tools-version: 6.1
import PackageDescription

// A separate package so that the root package (and its CI build) never depends on package-benchmark.
// Run with `cd Benchmarks && swift package benchmark`; see README.md.

let package = Package(
    name: "TributaryBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tributary", path: ".."),
        // Only the malloc interposer (allocation counts); the default traits would add the Swift 6.3 runtime (ARC)
        // interposer, whose package is not needed here.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FeedParserBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TributaryCore", package: "Tributary"),
                .product(name: "FeedParser", package: "Tributary"),
                .product(name: "HTMLSanitizer", package: "Tributary"),
            ],
            path: "Benchmarks/FeedParserBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
