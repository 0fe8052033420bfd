import ObservationStrategies

/// Writing one field that no view observes: the floor of every write.
public struct WriteUnobservedWorkload: Workload {
    public let name = "write-unobserved"
    public let summary = "write one field with no subscriber, to quiescence"
    public let countsInstructions = true

    /// Nothing is delivered: the operation's counts are the calling thread's alone.
    public let measuredThreads = MeasuredThreads.callingThread

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let count = context.objects
        var next = 1_000
        let emptyBatch: Batch = { iterations in
            for index in 0..<iterations {
                next &+= 1
                blackHole((FieldValue.priority(next), 1 &+ index % count))
            }
        }
        /// The measured writes, then `spins` of canary work per write (0: none), spun once for the
        /// whole batch: its one call is a fixed cost, which cancels like `settle()`'s, so what is
        /// added per write is exactly the canary's share.
        func writes(spins: Double) -> Batch {
            { iterations in
                for index in 0..<iterations {
                    next &+= 1
                    try store.write(.priority(next), to: 1 &+ index % count)
                }
                if spins > 0 { Canary.spin(Int((Double(iterations) * spins).rounded())) }
                await store.settle()
            }
        }
        // 0 unless OBSBENCH_CANARY names this strategy (see Canary): sized on the plain writes.
        let canarySpins = try await context.canarySpins(writes(spins: 0), emptyBatch: emptyBatch, label: name)
        let measured = try await context.measureCost(writes(spins: canarySpins), emptyBatch: emptyBatch, label: name)
        await store.tearDown()
        var note = "priority of records 1...N in turn, each write a new value"
        if canarySpins > 0, let canary = Canary.current(for: context.strategy?.name) {
            note = "CANARY: \(NumberFormat.percent(canary.fraction)) extra work per write (\((canarySpins * 100).rounded() / 100) spins on average, \(Canary.variable)); " + note
        }
        return context.latencyOutput(workload: name, subscribers: 0, measured: measured, note: note)
    }
}
