// swift-tools-version: 6.1
import Foundation
import PackageDescription

#if canImport(Glibc)
import Glibc
#endif

/// How the `tributary` executable is linked on Linux. With lld at hand (Swift's toolchains ship it) and a C library
/// that reads packed relative relocations (DT_RELR, glibc 2.36 and later: Debian 12, Ubuntu 24.04), it is linked by
/// lld with them packed: the loader then reads 30 KB of relocations at every start instead of 3.5 MB (the binary's
/// 150,000 pointers), and every run is 3.5 to 5 MiB smaller (Benchmarks/README.md, "2026-11-30"). Elsewhere the
/// toolchain's default linker is used. `--no-export-dynamic`: the executable's symbols are not exported (1 ms off
/// every start).
let executableLinkerFlags: [String] = {
    var flags = ["-Xlinker", "--no-export-dynamic"]
    #if canImport(Glibc)
    // "glibc 2.36"
    var name = [CChar](repeating: 0, count: 64)
    let length = confstr(Int32(_CS_GNU_LIBC_VERSION), &name, name.count)
    let text = length > 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    let version = text.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    let readsPackedRelocations = version.count >= 2 && (version[0], version[1]) >= (2, 36)
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let hasLLD = path.split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/ld.lld")
    }
    if readsPackedRelocations, hasLLD {
        flags += ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
    }
    #endif
    return flags
}()

/// Built-in source adapters. Each name `Foo` generates the `FooAdapter` library target and the `FooAdapterTests`
/// test target; `BuiltInSources.all` in TributaryCLI is the one registry that lists their `Source` types.
/// `testDependencies` are what the test target needs beyond its adapter and TributaryCore.
let adapters: [(name: String, dependencies: [Target.Dependency], testDependencies: [Target.Dependency])] = [
    ("JSONFile", ["FeedParser", "HTMLSanitizer"], ["FeedParser"]),
    (
        "Exec",
        [
            "FeedParser",
            "HTMLSanitizer",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system"),
        ],
        []
    ),
    (
        "RSS",
        [
            "FeedParser",
            "HTMLSanitizer",
            "CZlib",
            "NetworkFailure",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ],
        [
            "FeedParser",
            "SQLiteStore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    (
        "GoogleNews",
        ["RSSAdapter"],
        [
            "RSSAdapter",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    (
        "Push",
        [
            "FeedParser",
            "HTMLSanitizer",
            "NetworkFailure",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        ],
        [
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]
    ),
]

/// The `FooAdapter` and `FooAdapterTests` targets of every adapter.
let adapterTargets: [Target] = adapters.flatMap { adapter -> [Target] in
    let adapterTarget: Target.Dependency = .target(name: "\(adapter.name)Adapter")
    return [
        Target.target(
            name: "\(adapter.name)Adapter",
            dependencies: ["TributaryCore"] + adapter.dependencies
        ),
        Target.testTarget(
            name: "\(adapter.name)AdapterTests",
            dependencies: [adapterTarget, "TributaryCore", "AdapterConformance", "TestSupport"]
                + adapter.testDependencies,
            resources: [.copy("Fixtures")]
        ),
    ]
}

let package = Package(
    name: "Tributary",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tributary", targets: ["tributary"]),
        .library(name: "TributaryCore", targets: ["TributaryCore"]),
        .library(name: "TributaryCLI", targets: ["TributaryCLI"]),
        .library(name: "Renderers", targets: ["Renderers"]),
        .library(name: "FeedParser", targets: ["FeedParser"]),
        .library(name: "HTMLSanitizer", targets: ["HTMLSanitizer"]),
        // For Fuzz/ (the JSON Feed reader's fuzz target).
        .library(name: "JSONFileAdapter", targets: ["JSONFileAdapter"]),
        .library(name: "AdapterConformance", targets: ["AdapterConformance"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // The router's batches (ordered sets) and the per-source cap's heap of kept items (already required by
        // swift-async-algorithms).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already required by async-http-client; named so the adapters can import NIOCore, NIOPosix and NIOHTTP1
        // explicitly.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The push source's own WebSocket client: the handshake's SHA-1 and TLS for wss:// (both already required
        // by async-http-client).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The push simulator's server (which the HTTP adapters' tests use too).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // The reference the HTML digest's own Mustache engine (Sources/Renderers/MustacheEngine.swift) is tested
        // against, byte for byte: a test dependency only.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The persistent item store (SQLite): migrations, WAL, transactions.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The exec source's child processes: launch in a process group, streamed stdout and stderr, teardown.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // The shared state store of a fleet (issue 24).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already required by swift-subprocess; named for `FilePath`, which its API takes.
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "TributaryCore",
            dependencies: [
                "CByteScan",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "Renderers",
            dependencies: ["TributaryCore"],
            // The built-in HTML digest template, shipped so users can copy it as the start of their own.
            resources: [.copy("Templates")]
        ),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // zlib, for HTTP bodies in gzip, zlib-wrapped deflate and raw deflate (which swift-nio-extras cannot read).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "FeedParser", dependencies: ["CLibXML2", "CByteScan", "HTMLSanitizer", "TributaryCore"]),
        // Untrusted HTML from feeds made safe for `content_html` (libxml2's HTML parser and an allowlist).
        .target(name: "HTMLSanitizer", dependencies: ["CLibXML2", "CByteScan", "TributaryCore"]),
        // Finds the next byte of interest sixteen at a time (SSE2) for the JSON writer's and the sanitizer's scans.
        .target(name: "CByteScan"),
        .target(
            name: "TributaryCLI",
            dependencies: [
                "TributaryCore",
                "Renderers",
                "FeedParser",
                "HTMLSanitizer",
                "SQLiteStore",
                "PostgresStore",
                "NetworkFailure",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ] + adapters.map { .target(name: "\($0.name)Adapter") }
        ),
        // On Linux the executable exports none of its symbols: linked with `--static-swift-stdlib`, it would export
        // all 41,000 (`-export-dynamic` comes with the static standard library), and nothing looks them up. Without
        // them the dynamic loader's symbol lookups for libxml2 and ICU touch 3.5 MiB less of the binary, and start is
        // 0.7 ms shorter (Benchmarks/README.md, "Process start"). Only this executable target has the flag, so the
        // library products stay usable as dependencies.
        .executableTarget(
            name: "tributary",
            dependencies: ["TributaryCLI"],
            linkerSettings: [.unsafeFlags(executableLinkerFlags, .when(platforms: [.linux]))]
        ),
        .target(name: "AdapterConformance", dependencies: ["TributaryCore"]),
        // Network failures (resolver, errno, TLS) in words, for the HTTP and push adapters and `simulate`.
        .target(
            name: "NetworkFailure",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The default ItemStore of digest, summary and watch: `.tributary/state.sqlite` beside feeds.json.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "TributaryCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The shared store of a fleet on PostgreSQL.
        .target(
            name: "PostgresStore",
            dependencies: [
                "TributaryCore",
                "NetworkFailure",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // `scripts/bench-push.sh`: items per second and latency of the push path (a benchmark, not a test).
        .executableTarget(name: "PushBenchmark", dependencies: ["PushAdapter", "TributaryCore"]),

        // What the test targets share: a loopback HTTP server, an event recorder, temporary directories, and the
        // external programs (validators, a browser) some tests run.
        .target(
            name: "TestSupport",
            dependencies: [
                "TributaryCore",
                "SQLiteStore",
                "PostgresStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "TributaryCoreTests",
            dependencies: ["TributaryCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RenderersTests",
            dependencies: [
                "Renderers", "TributaryCore", "TestSupport", .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Golden")]
        ),
        .testTarget(
            name: "FeedParserTests",
            dependencies: ["FeedParser", "HTMLSanitizer", "TributaryCore"],
            resources: [.copy("Fixtures"), .copy("Corpus")]
        ),
        .testTarget(
            name: "TributaryCLITests",
            dependencies: [
                "TributaryCLI", "TributaryCore", "tributary", "FeedParser", "SQLiteStore", "TestSupport", "Renderers",
                "NetworkFailure",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HTMLSanitizerTests",
            dependencies: ["HTMLSanitizer", "AdapterConformance", "CByteScan", "FeedParser", "TributaryCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "AdapterConformanceTests", dependencies: ["AdapterConformance", "TributaryCore"]),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: ["SQLiteStore", "TributaryCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // One set of test bodies run against every StateStore: SQLite, and PostgreSQL when a server is given.
        .testTarget(
            name: "StateStoreTests",
            dependencies: [
                "SQLiteStore", "PostgresStore", "TributaryCore", "TestSupport", "JSONFileAdapter", "Renderers",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .plugin(
            name: "DigestPlugin",
            capability: .command(
                intent: .custom(verb: "digest", description: "Build tributary and write the digest of feeds.json"),
                permissions: [.writeToPackageDirectory(reason: "The digest is written beside feeds.json.")]
            ),
            dependencies: ["tributary"]
        ),
        .plugin(
            name: "NewAdapterPlugin",
            capability: .command(
                intent: .custom(verb: "new-adapter", description: "Scaffold and register a new source adapter"),
                permissions: [
                    .writeToPackageDirectory(reason: "It writes the adapter's sources, tests and registration.")
                ]
            )
        ),
    ]
        + adapterTargets,
    swiftLanguageModes: [.v6]
)

// Every target gets the same strictness, as swift-log does it.
for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
