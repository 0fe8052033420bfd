import Benchmark
import BuiltInStrategies
import ObservationStrategies

/// The headline operations of every strategy, for package-benchmark: a read outside any view, a
/// write with no view, a write until the one view reading it has re-run, and building a store of
/// 1,000 records. Each benchmark iteration runs the operation 1,000 times (`scalingFactor: .kilo`),
/// so results read per operation. Thresholds are per metric, relative to a stored baseline
/// (`swift package benchmark baseline check`) and absolute for malloc counts, which are exact.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 1_000,
        thresholds: [
            // Timings on shared machines move by tens of percent; flag only large changes.
            .wallClock: .init(relative: [.p50: 25.0, .p75: 35.0]),
            // Allocation counts are deterministic for the synchronous strategies: any growth shows.
            .mallocCountTotal: .init(relative: [.p50: 1.0], absolute: [.p50: 2]),
        ]
    )

    for entry in StrategyRegistry.all {
        let name = entry.name
        let records = TaskRecord.sample(count: 1_000)

        Benchmark("read/\(name)") { @MainActor benchmark in
            let store = try! entry.makeStore(records)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                blackHole(try! store.read(.priority, of: 1 + index % records.count))
            }
            benchmark.stopMeasurement()
            await store.tearDown()
        }

        Benchmark("write/\(name)") { @MainActor benchmark in
            let store = try! entry.makeStore(records)
            var value = 1_000
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                value &+= 1
                try! store.write(.priority(value), to: 1 + index % records.count)
            }
            await store.settle()
            benchmark.stopMeasurement()
            await store.tearDown()
        }

        Benchmark("write with one view/\(name)") { @MainActor benchmark in
            let store = try! entry.makeStore(records)
            let view = try! store.subscribe(.record(1, .priority))
            await store.settle()
            var value = 1_000
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                value &+= 1
                try! store.write(.priority(value), to: 1)
                await store.settle()
            }
            benchmark.stopMeasurement()
            blackHole(view.reruns)
            await store.tearDown()
        }

        Benchmark("store creation, 1000 records/\(name)", configuration: .init(scalingFactor: .one)) { @MainActor benchmark in
            benchmark.startMeasurement()
            let store = try! entry.makeStore(records)
            await store.settle()
            benchmark.stopMeasurement()
            await store.tearDown()
        }
    }
}
