// swift-tools-version: 6.1
import PackageDescription

// A third-party adapter for Tributary, in a package of its own: it depends on Tributary by path (a real one would
// depend on its Git URL), links TributaryCore for the `Source` protocol and AdapterConformance for its tests, and
// ships its own `tributary` executable with the built-in adapters plus its own.
let package = Package(
    name: "NotesAdapter",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NotesAdapter", targets: ["NotesAdapter"]),
        .executable(name: "notes-tributary", targets: ["notes-tributary"]),
    ],
    dependencies: [
        .package(name: "Tributary", path: "../..")
    ],
    targets: [
        .target(name: "NotesAdapter", dependencies: [.product(name: "TributaryCore", package: "Tributary")]),
        .executableTarget(
            name: "notes-tributary",
            dependencies: ["NotesAdapter", .product(name: "TributaryCLI", package: "Tributary")]
        ),
        .testTarget(
            name: "NotesAdapterTests",
            dependencies: [
                "NotesAdapter",
                .product(name: "TributaryCore", package: "Tributary"),
                .product(name: "AdapterConformance", package: "Tributary"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
