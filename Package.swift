// swift-tools-version: 6.1
import PackageDescription

/// obsbench: benchmarks and profiles observation strategies for Swift state and persistence layers.
/// See README.md for the two commands that matter: the run and the tests.
/// `OBSBENCH_BUILD_CANARY=observable-write` or `published-write-observed` at build time compiles
/// a regression of known size into that strategy (`BuildCanary`), for checking the gate between two
/// real builds. Never set for real numbers; use its own `--scratch-path`.
let buildCanary: [SwiftSetting] =
    switch Context.environment["OBSBENCH_BUILD_CANARY"] {
    case "observable-write": [.define("OBSBENCH_CANARY_OBSERVABLE_WRITE")]
    case "published-write-observed": [.define("OBSBENCH_CANARY_PUBLISHED_WRITE_OBSERVED")]
    default: []
    }

let package = Package(
    name: "obsbench",
    platforms: [.macOS(.v15)],
    products: [
        // `obsbench` is a launcher that builds and runs `obsbench-tool` (every command) in release.
        .executable(name: "obsbench", targets: ["obsbench"]),
        .executable(name: "obsbench-tool", targets: ["obsbench-tool"]),
        .library(name: "ObservationStrategies", targets: ["ObservationStrategies"]),
        // `StrategyRegistry.all`: every built-in strategy, the GRDB ones included.
        .library(name: "BuiltInStrategies", targets: ["BuiltInStrategies"]),
        .library(name: "ObsBenchKit", targets: ["ObsBenchKit"]),
        // The whole command-line tool as a library: `ObsBench.main(strategies:)` in a package of
        // one's own measures its store beside the built-in ones.
        .library(name: "ObsBenchCLI", targets: ["ObsBenchCLI"]),
        // The conformance cases, for any test target (Swift Testing) to prove a store's semantics.
        .library(name: "ObsBenchConformance", targets: ["ObsBenchConformance"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The protocol, the harness's view bookkeeping, and every in-memory strategy.
        .target(
            name: "ObservationStrategies",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
                // DispatchQueue as a Combine scheduler (deduplicated-object's delay), built into Combine on Apple platforms.
                .product(name: "OpenCombineDispatch", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
            ],
            swiftSettings: buildCanary
        ),
        // The GRDB strategies (grdb-queue, grdb-pool), a target of their own: GRDB (71k lines) and
        // they compile beside ObsBenchKit, which does not depend on them, rather than before it.
        .target(name: "GRDBStrategies", dependencies: ["ObservationStrategies", .product(name: "GRDB", package: "GRDB.swift")]),
        // The list of built-in strategies: what the tool, the tests and a package of one's own name.
        .target(name: "BuiltInStrategies", dependencies: ["ObservationStrategies", "GRDBStrategies"]),
        // glibc's mallinfo2, which Swift's Glibc module does not expose: the memory suite's fallback
        // when jemalloc is not installed.
        .target(name: "CMallocInfo"),
        // Callgrind's client requests (zero, dump, running-on-Valgrind) for the instruction mode;
        // empty functions when <valgrind/callgrind.h> is not installed.
        .target(name: "CCallgrind"),
        // The opaque sink under `blackHole`: a C function the Swift optimiser cannot see into.
        .target(name: "CSink"),
        // The memory layouts of the instruction mode (OBSBENCH_LAYOUT): a heap padding made before
        // `main`, and the main thread's stack moved.
        .target(name: "CLayout"),
        .target(
            name: "ObsBenchKit",
            dependencies: [
                "ObservationStrategies", "CMallocInfo", "CCallgrind", "CSink", "CLayout",
                // The store-isolation suite's stores publish to the UI through ObservableObject.
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
            ]
        ),
        .target(
            name: "ObsBenchCLI",
            dependencies: [
                "ObsBenchKit",
                "ObservationStrategies",
                "BuiltInStrategies",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "ObsBenchConformance", dependencies: ["ObservationStrategies"]),
        .executableTarget(name: "obsbench"),
        .executableTarget(name: "obsbench-tool", dependencies: ["ObsBenchCLI", "BuiltInStrategies"], path: "Sources/ObsBenchTool"),
        .testTarget(name: "ObservationStrategiesTests", dependencies: ["ObservationStrategies", "GRDBStrategies", "BuiltInStrategies", "ObsBenchConformance"]),
        .testTarget(name: "ObsBenchKitTests", dependencies: ["ObsBenchKit", "ObsBenchCLI", "BuiltInStrategies"]),
    ],
    swiftLanguageModes: [.v6]
)
