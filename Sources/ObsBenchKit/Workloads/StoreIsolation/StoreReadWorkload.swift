import ObservationStrategies

/// A metrics snapshot read from the main actor (the note predicts ~5 µs for the GCD store's
/// fast path, ~2 µs for direct access) or from a background task, for each store. From the main
/// actor: the GCD store pays `queue.sync` onto its queue, the main-actor store a direct call, the
/// actor store a hop to the actor and back. From a background task: the GCD store `queue.sync`,
/// the main-actor store a hop to the main actor and back, the actor store a hop to the actor.
public struct StoreReadWorkload: Workload {
    /// Where the reader runs.
    public enum Caller: String, Sendable, CaseIterable {
        case mainActor = "main"
        case background
    }

    public let caller: Caller
    public var name: String { "store-read-\(caller.rawValue)" }
    public var summary: String { "read a metrics snapshot from \(caller == .mainActor ? "the main actor" : "a background task"): GCD queue store, @MainActor store, actor store" }

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init(caller: Caller) {
        self.caller = caller
    }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        for kind in StoreKind.allCases {
            let store = kind.make()
            for index in 1...100 { await store.record(.generated(index)) }
            var reads = 0
            let before = ProcessCounters.read()
            let measured: CostPerOperation
            switch caller {
            case .mainActor:
                measured = try await context.measureCost(
                    { iterations in
                        for _ in 0..<iterations { blackHole(await store.metricsSnapshot().total) }
                        reads += iterations
                    },
                    emptyBatch: { iterations in
                        for index in 0..<iterations { blackHole(index) }
                    }, sampler: context.storeSampler, label: "\(name) \(kind.rawValue)")
            case .background:
                measured = try await context.measureCost(
                    { iterations in
                        await Task.detached {
                            for _ in 0..<iterations { blackHole(await store.metricsSnapshot().total) }
                        }.value
                        reads += iterations
                    },
                    emptyBatch: { iterations in
                        await Task.detached {
                            for index in 0..<iterations { blackHole(index) }
                        }.value
                    }, sampler: context.storeSampler, label: "\(name) \(kind.rawValue)")
            }
            let after = ProcessCounters.read()
            var latency = context.latencyOutput(
                workload: name, subscribers: 0, measured: measured,
                note: "\(kind.rawValue): metricsSnapshot() from \(caller == .mainActor ? "the main actor" : "a detached task (its start subtracted)")")
            latency.labelAsHop(executor: kind.rawValue, callers: 1)
            output.append(latency)
            output.rows.append(
                context.voluntarySwitchesRow(
                    workload: name, metric: .voluntarySwitchesPerRead, before: before, after: after,
                    operations: reads, subscribers: 0, executor: kind.rawValue, note: "\(reads) reads"))
        }
        return output
    }
}
