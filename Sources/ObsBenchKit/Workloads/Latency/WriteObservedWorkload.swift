import ObservationStrategies

/// Writing a field one view reads, measured until the view has re-run (delivery and re-arm included).
public struct WriteObservedWorkload: Workload {
    public let name = "write-observed"
    public let summary = "write one field one view reads, until the view has re-run (settle after each write)"

    public let countsInstructions = true

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        var next = 1_000
        var writes = 0
        var reruns = 0
        var lastSeen: [FieldValue] = []
        var failure: String?
        let measured = try await context.measureCost(label: name) { record in
            let view = try store.subscribe(.record(record, .priority))
            await store.settle()
            let rerunsBefore = view.reruns
            return MeasuredDraw(
                batch: { iterations in
                    for _ in 0..<iterations {
                        next &+= 1
                        try store.write(.priority(next), to: record)
                        await store.settle()
                    }
                    writes += iterations
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations {
                        next &+= 1
                        blackHole(FieldValue.priority(next))
                    }
                },
                end: {
                    reruns += view.reruns - rerunsBefore
                    lastSeen = view.lastSeen
                    failure = failure ?? view.snapshot.failure
                    store.unsubscribe(view)
                })
        }
        await store.tearDown()
        if let failure { throw WorkloadError.viewFailed(failure) }
        var output = context.latencyOutput(workload: name, subscribers: 1, measured: measured, note: "priority of one record; settle() after each write")
        // Counted once, by the timing worker: an instruction run of the same workload would write
        // the same row again.
        guard context.measure == .time else { return output }
        output.rows.append(
            context.countRow(
                workload: name, subscribers: 1, metric: .rerunsPerWrite,
                value: writes == 0 ? 0 : Double(reruns) / Double(writes),
                note: "\(reruns) re-runs for \(writes) writes (warm-up included); last value seen \(lastSeen.map(\.description).joined(separator: " "))"))
        return output
    }
}
