import ObservationStrategies

/// Opening a view's tracking scope with one read, and that scope being fired and torn down by the
/// next write of the field: what a view pays per render for being tracked at all.
///
/// Each operation is one scope reading the field once, then one write of the field and `settle()`;
/// the empty batch makes the same writes with no scope, so the write's own cost is subtracted.
public struct ViewScopeWorkload: Workload {
    public let name = "view-scope"
    public let summary = "open a view-tracking scope with one read, fired by the next write (the write's own cost subtracted)"
    public let countsInstructions = true

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        var next = 1_000
        let measured = try await context.measureCost(label: name) { record in
            MeasuredDraw(
                batch: { iterations in
                    for _ in 0..<iterations {
                        blackHole(try store.readInsideView(.priority, of: record, times: 1))
                        next &+= 1
                        try store.write(.priority(next), to: record)
                        await store.settle()
                    }
                },
                emptyBatch: { iterations in
                    for _ in 0..<iterations {
                        next &+= 1
                        try store.write(.priority(next), to: record)
                        await store.settle()
                    }
                })
        }
        await store.tearDown()
        return context.latencyOutput(
            workload: name, subscribers: 0, measured: measured,
            note: "priority of one record; one scope, its first read, and its firing by the next write; the write and settle() subtracted")
    }
}
