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
        // Counted once, by the timing worker, outside the measured loop: the re-runs that reached
        // the view only after write returned, which a synchronous strategy's never do.
        let late = context.measure == .time && failure == nil ? try await Self.rerunsAfterReturn(store, writes: Self.lateChecks, next: &next) : nil
        await store.tearDown()
        if let failure { throw WorkloadError.viewFailed(failure) }
        var output = context.latencyOutput(workload: name, subscribers: 1, measured: measured, note: "priority of one record; settle() after each write")
        // Counted once, by the timing worker: an instruction run of the same workload would write
        // the same row again.
        guard context.measure == .time else { return output }
        if let late {
            output.rows.append(
                context.countRow(
                    workload: name, subscribers: 1, metric: .rerunsAfterWriteReturned, value: Double(late) / Double(Self.lateChecks),
                    note: "\(late) of the view's re-runs for \(Self.lateChecks) writes came after write returned (seen by settle() only), counted after the measured loop"))
        }
        output.rows.append(
            context.countRow(
                workload: name, subscribers: 1, metric: .rerunsPerWrite,
                value: writes == 0 ? 0 : Double(reruns) / Double(writes),
                note: "\(reruns) re-runs for \(writes) writes (warm-up included); last value seen \(lastSeen.map(\.description).joined(separator: " "))"))
        return output
    }

    /// Writes after the measured loop whose re-runs are checked against when `write` returned.
    static let lateChecks = 20

    /// Subscribes one view of record 1's priority and writes it `writes` times, settling after
    /// each: how many of the view's re-runs came after `write` had returned.
    @MainActor
    static func rerunsAfterReturn(_ store: any ObservationStrategy, writes: Int, next: inout Int) async throws -> Int {
        let view = try store.subscribe(.record(1, .priority))
        await store.settle()
        var late = 0
        for _ in 0..<writes {
            next &+= 1
            try store.write(.priority(next), to: 1)
            let atReturn = view.reruns
            await store.settle()
            late += view.reruns - atReturn
        }
        store.unsubscribe(view)
        return late
    }
}
