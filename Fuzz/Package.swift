// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Tributary's parsers, in a package of their own so that the main package's build never
// sees them: each target defines `LLVMFuzzerTestOneInput` and no `main` (libFuzzer supplies it), which links only
// with `--sanitize fuzzer`. Built and run by `scripts/fuzz.sh`; the seed corpora are in `Corpus/<target>/`.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    (
        "FuzzFeedParser",
        [
            .product(name: "FeedParser", package: "Tributary"),
            .product(name: "TributaryCore", package: "Tributary"),
        ]
    ),
    ("FuzzHTMLSanitizer", [.product(name: "HTMLSanitizer", package: "Tributary")]),
    (
        "FuzzJSONFeed",
        [
            .product(name: "FeedParser", package: "Tributary"),
            .product(name: "TributaryCore", package: "Tributary"),
        ]
    ),
    (
        "FuzzFeedsConfiguration",
        [
            .product(name: "JSONFileAdapter", package: "Tributary"),
            .product(name: "TributaryCore", package: "Tributary"),
        ]
    ),
]

let package = Package(
    name: "TributaryFuzz",
    platforms: [.macOS(.v15)],
    products: fuzzTargets.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [
        .package(name: "Tributary", path: "..")
    ],
    targets: fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: target.dependencies,
            swiftSettings: [
                .unsafeFlags(["-parse-as-library"]),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    },
    swiftLanguageModes: [.v6]
)
