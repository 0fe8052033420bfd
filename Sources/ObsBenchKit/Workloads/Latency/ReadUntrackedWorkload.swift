import ObservationStrategies

/// Reading one field outside any view: the price of every plain access to the model.
public struct ReadUntrackedWorkload: Workload {
    public let name = "read-untracked"
    public let summary = "read one field outside any view (no subscription)"
    public let countsInstructions = true

    /// Nothing is delivered: the operation's counts are the calling thread's alone.
    public let measuredThreads = MeasuredThreads.callingThread

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let count = context.objects
        let measured = try await context.measureCost(
            { iterations in
                for index in 0..<iterations {
                    blackHole(try store.read(.priority, of: 1 &+ index % count))
                }
            },
            emptyBatch: { iterations in
                for index in 0..<iterations { blackHole(FieldValue.priority(1 &+ index % count)) }
            }, label: name)
        await store.tearDown()
        return context.latencyOutput(workload: name, subscribers: 0, measured: measured, note: "priority of records 1...N in turn")
    }
}
