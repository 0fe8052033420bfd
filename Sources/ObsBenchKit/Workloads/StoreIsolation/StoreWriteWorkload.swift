import ObservationStrategies

/// A write from a background task until a main-actor view has seen it, for each store of the
/// design notes' migration plan (`StoreKind`): the note predicts ~50 µs for the GCD store and
/// ~10 µs for the actor store. One operation: `record` from a detached task, then the task waits
/// until the view's sink on the store's publisher has seen the new count (the writer learns it
/// from the view, so the wake-up back to the writer is in the figure, the same for every store).
/// The detached task's own start is subtracted (the empty batch spawns one too). Context switches
/// per write come from `getrusage` over the whole measurement.
public struct StoreWriteWorkload: Workload {
    public let name = "store-write-to-view"
    public let summary = "record an issue from a background task until a main-actor view has seen it: GCD queue store, @MainActor store, actor store"

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        for kind in StoreKind.allCases {
            let store = kind.make()
            let view = IssuesView(store: store)
            var written = 0
            let before = ProcessCounters.read()
            let measured = try await context.measureCost(
                { iterations in
                    let first = written
                    await Task.detached {
                        for index in 1...iterations {
                            await store.record(.generated(first + index))
                            await view.seen.wait(until: first + index)
                        }
                    }.value
                    written += iterations
                },
                emptyBatch: { iterations in
                    await Task.detached {
                        for index in 0..<iterations { blackHole(index) }
                    }.value
                }, sampler: context.storeSampler, label: "\(name) \(kind.rawValue)")
            let after = ProcessCounters.read()
            guard view.seen.current == written, await store.metricsSnapshot().total == written else {
                throw WorkloadError.viewFailed("\(kind.rawValue): \(written) written, the view saw \(view.seen.current)")
            }
            var latency = context.latencyOutput(
                workload: name, subscribers: 1, measured: measured,
                note: "\(kind.rawValue): record from a detached task until the main-actor view has seen it")
            latency.labelAsHop(executor: kind.rawValue, callers: 1)
            output.append(latency)
            output.rows.append(
                context.voluntarySwitchesRow(
                    workload: name, metric: .voluntarySwitchesPerWrite, before: before, after: after,
                    operations: written, subscribers: 1, executor: kind.rawValue, note: "\(written) writes"))
        }
        return output
    }
}

extension WorkloadContext {
    /// The store-isolation suite's sampling: operations of microseconds, so samples of 2 ms
    /// (`--quick`) or 10 ms, half the default budget for each of the three stores.
    var storeSampler: SamplerSettings { hopSampler }
}
