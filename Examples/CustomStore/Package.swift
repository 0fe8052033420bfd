// swift-tools-version: 6.1
import PackageDescription

/// A store of one's own put through obsbench: the conformance kit in its tests, and the whole
/// tool (every suite, compare, gate, report, export) in its own executable.
let package = Package(
    name: "CustomStore",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In a package of your own: .package(url: "https://github.com/<owner>/obsbench", branch: "main")
        .package(name: "obsbench", path: "../..")
    ],
    targets: [
        // The store: a dictionary of records and per-record callbacks.
        .target(name: "CustomStore", dependencies: [.product(name: "ObservationStrategies", package: "obsbench")]),
        // obsbench with the store beside the built-in strategies.
        .executableTarget(
            name: "custom-obsbench",
            dependencies: [
                "CustomStore",
                .product(name: "ObsBenchCLI", package: "obsbench"),
                .product(name: "BuiltInStrategies", package: "obsbench"),
                .product(name: "ObservationStrategies", package: "obsbench"),
            ]),
        // The conformance kit, run against the store.
        .testTarget(
            name: "CustomStoreTests",
            dependencies: [
                "CustomStore",
                .product(name: "ObsBenchConformance", package: "obsbench"),
                .product(name: "ObservationStrategies", package: "obsbench"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
