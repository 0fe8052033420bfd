import ObservationStrategies

/// Writing one field that no view observes: the floor of every write.
public struct WriteUnobservedWorkload: Workload {
    public let name = "write-unobserved"
    public let summary = "write one field with no subscriber, to quiescence"

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let count = context.objects
        var next = 1_000
        let emptyBatch: Batch = { iterations in
            for index in 0..<iterations {
                next &+= 1
                blackHole(1 &+ index % count)
            }
        }
        /// The timed writes, each followed by `spins` of canary work (0: none).
        func writes(spins: Int) -> Batch {
            { iterations in
                for index in 0..<iterations {
                    next &+= 1
                    try store.write(.priority(next), to: 1 &+ index % count)
                    if spins > 0 { Canary.spin(spins) }
                }
                await store.settle()
            }
        }
        // 0 unless OBSBENCH_CANARY names this strategy (see Canary): calibrated on the plain writes.
        let canarySpins = try await context.canaryIterations(writes(spins: 0), emptyBatch: emptyBatch)
        let sampled = try await Sampler(settings: context.sampler).sample(writes(spins: canarySpins), emptyBatch: emptyBatch)
        await store.tearDown()
        var note = "priority of records 1...N in turn, each write a new value"
        if canarySpins > 0, let canary = Canary.current {
            note = "CANARY: \(Int(canary.fraction * 100))% extra work per write (\(canarySpins) spins, \(Canary.variable)); " + note
        }
        return context.latencyOutput(workload: name, subscribers: 0, sampled: sampled, note: note)
    }
}
