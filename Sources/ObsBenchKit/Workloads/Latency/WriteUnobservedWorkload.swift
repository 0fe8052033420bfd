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
        let sampled = try await Sampler(settings: context.sampler).sample({ iterations in
            for index in 0..<iterations {
                next &+= 1
                try store.write(.priority(next), to: 1 &+ index % count)
            }
            await store.settle()
        }, emptyBatch: { iterations in
            for index in 0..<iterations {
                next &+= 1
                blackHole(1 &+ index % count)
            }
        })
        await store.tearDown()
        return context.latencyOutput(workload: name, subscribers: 0, sampled: sampled, note: "priority of records 1...N in turn, each write a new value")
    }
}
