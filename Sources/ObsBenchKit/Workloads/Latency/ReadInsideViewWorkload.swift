import ObservationStrategies

/// Reading one field inside a view's tracking scope: what a view body pays per field it reads.
///
/// Each sample is one scope reading the field `batch` times, then one write of that field, which
/// fires the scope's tracker as the view's next change would: a scope that never fires stays
/// registered on the object, and letting hundreds pile up makes every later scope slower. The
/// scope's set-up and that write are spread over the batch (thousands of reads).
public struct ReadInsideViewWorkload: Workload {
    public let name = "read-in-view"
    public let summary = "read one field inside a view's tracking scope (per field read)"

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        var next = 1_000
        let sampled = try await Sampler(settings: context.sampler).sample({ iterations in
            blackHole(try store.readInsideView(.priority, of: 1, times: iterations))
            next &+= 1
            try store.write(.priority(next), to: 1)
            await store.settle()
        }, emptyBatch: { iterations in
            for index in 0..<iterations { blackHole(index) }
            next &+= 1
        })
        await store.tearDown()
        return context.latencyOutput(workload: name, subscribers: 0, sampled: sampled, note: "priority of record 1; one tracking scope and one write of the field per sample, spread over the batch")
    }
}
