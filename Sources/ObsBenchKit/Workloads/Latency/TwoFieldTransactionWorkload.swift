import ObservationStrategies

/// Writing two fields of one record as one transaction while one view reads both, until it has re-run.
public struct TwoFieldTransactionWorkload: Workload {
    public let name = "transaction-2-fields"
    public let summary = "write title and priority of one record as one transaction, one view reading both, until it has re-run"

    public let countsInstructions = true

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let view = try store.subscribe(.record(1, .title, .priority))
        await store.settle()
        // Titles made up front, so string formatting is not part of the measured write.
        let titles = (0..<64).map { "Title \($0)" }
        var next = 1_000
        let measured = try await context.measureCost(
            { iterations in
                for _ in 0..<iterations {
                    next &+= 1
                    try store.transaction([FieldWrite(1, .title(titles[next & 63])), FieldWrite(1, .priority(next))])
                    await store.settle()
                }
            },
            emptyBatch: { iterations in
                for _ in 0..<iterations {
                    next &+= 1
                    blackHole([FieldWrite(1, .title(titles[next & 63])), FieldWrite(1, .priority(next))])
                }
            }, label: name)
        let failure = view.snapshot.failure
        store.unsubscribe(view)
        await store.tearDown()
        if let failure { throw WorkloadError.viewFailed(failure) }
        return context.latencyOutput(workload: name, subscribers: 1, measured: measured, note: "title+priority of record 1; settle() after each transaction")
    }
}
