// swift-tools-version: 6.1
// The package-benchmark suite of obsbench: the headline operations of every strategy, measured by
// ordo-one/benchmark (wall clock and malloc counts). A nested package, as swift-nio does, so the
// main build stays light: `cd Benchmarks && swift package benchmark`.
import PackageDescription

let package = Package(
    name: "obsbench-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "obsbench", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StrategyOperations",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ObservationStrategies", package: "obsbench"),
                .product(name: "BuiltInStrategies", package: "obsbench"),
            ],
            path: "Benchmarks/StrategyOperations",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
