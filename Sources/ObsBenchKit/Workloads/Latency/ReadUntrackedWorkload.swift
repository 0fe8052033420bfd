import ObservationStrategies

/// Reading one field outside any view: the price of every plain access to the model.
public struct ReadUntrackedWorkload: Workload {
    public let name = "read-untracked"
    public let summary = "read one field outside any view (no subscription)"

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let count = context.objects
        let sampled = try await Sampler(settings: context.sampler).sample({ iterations in
            for index in 0..<iterations {
                blackHole(try store.read(.priority, of: 1 &+ index % count))
            }
        }, emptyBatch: { iterations in
            for index in 0..<iterations { blackHole(1 &+ index % count) }
        })
        await store.tearDown()
        return context.latencyOutput(workload: name, subscribers: 0, sampled: sampled, note: "priority of records 1...N in turn")
    }
}
