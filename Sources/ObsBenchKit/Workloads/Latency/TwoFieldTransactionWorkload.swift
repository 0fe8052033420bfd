import ObservationStrategies

/// Writing two fields of one record as one transaction while one view reads both, until it has re-run.
public struct TwoFieldTransactionWorkload: Workload {
    public let name = "transaction-2-fields"
    public let summary = "write title and priority of one record as one transaction, one view reading both, until it has re-run"

    public let countsInstructions = true

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        // Titles made up front, so string formatting is not part of the measured write.
        let titles = (0..<64).map { "Title \($0)" }
        var next = 1_000
        var failure: String?
        let measured = try await context.measureCost(label: name) { record in
            let view = try store.subscribe(.record(record, .title, .priority))
            await store.settle()
            return MeasuredDraw(
                batch: { iterations in
                    for _ in 0..<iterations {
                        next &+= 1
                        try store.transaction([FieldWrite(record, .title(titles[next & 63])), FieldWrite(record, .priority(next))])
                        await store.settle()
                    }
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations {
                        next &+= 1
                        blackHole([FieldWrite(record, .title(titles[next & 63])), FieldWrite(record, .priority(next))])
                    }
                },
                end: {
                    failure = failure ?? view.snapshot.failure
                    store.unsubscribe(view)
                })
        }
        await store.tearDown()
        if let failure { throw WorkloadError.viewFailed(failure) }
        return context.latencyOutput(workload: name, subscribers: 1, measured: measured, note: "title+priority of one record; settle() after each transaction")
    }
}
