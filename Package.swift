// swift-tools-version: 6.1
import PackageDescription

/// Built-in source adapters. Each name `Foo` generates the `FooAdapter` library target and the `FooAdapterTests`
/// test target; `BuiltInSources.all` in TributaryCLI is the one registry that lists their `Source` types.
let adapters: [(name: String, dependencies: [Target.Dependency])] = [
    ("JSONFile", []),
    (
        "Push",
        [
            .product(name: "WSClient", package: "swift-websocket"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        ]
    ),
]

let package = Package(
    name: "Tributary",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tributary", targets: ["tributary"]),
        .library(name: "TributaryCore", targets: ["TributaryCore"]),
        .library(name: "TributaryCLI", targets: ["TributaryCLI"]),
        .library(name: "Renderers", targets: ["Renderers"]),
        .library(name: "FeedParser", targets: ["FeedParser"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        .target(
            name: "TributaryCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        .target(name: "Renderers", dependencies: ["TributaryCore"]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "FeedParser", dependencies: ["CLibXML2", "TributaryCore"]),
        .target(
            name: "TributaryCLI",
            dependencies: [
                "TributaryCore",
                "Renderers",
                "FeedParser",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ] + adapters.map { .target(name: "\($0.name)Adapter") }
        ),
        .executableTarget(name: "tributary", dependencies: ["TributaryCLI"]),
        // `scripts/bench-push.sh`: items per second and latency of the push path (a benchmark, not a test).
        .executableTarget(name: "PushBenchmark", dependencies: ["PushAdapter", "TributaryCore"]),

        .testTarget(
            name: "TributaryCoreTests",
            dependencies: ["TributaryCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RenderersTests",
            dependencies: ["Renderers", "TributaryCore"],
            resources: [.copy("Golden")]
        ),
        .testTarget(
            name: "FeedParserTests",
            dependencies: ["FeedParser", "TributaryCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TributaryCLITests",
            dependencies: [
                "TributaryCLI", "TributaryCore", "tributary",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
        + adapters.flatMap { adapter in
            [
                Target.target(
                    name: "\(adapter.name)Adapter",
                    dependencies: ["TributaryCore"] + adapter.dependencies
                ),
                Target.testTarget(
                    name: "\(adapter.name)AdapterTests",
                    dependencies: [.target(name: "\(adapter.name)Adapter"), "TributaryCore"],
                    resources: [.copy("Fixtures")]
                ),
            ]
        },
    swiftLanguageModes: [.v6]
)

// Every target gets the same strictness, as swift-log does it.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
