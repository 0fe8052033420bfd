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
        // Counted on record 1 alone, not drawn over records (`MeasuredDraw`): the empty loop is the
        // write that fires the scope, which costs up to 80,000 Ir (state-subject), and it must meet
        // the heap its operation left for that to cancel. Counted in separate passes, as draws are,
        // state-subject's 400 Ir/op scope moved by 7% between layouts.
        let measured = try await context.measureCost(
            { iterations in
                for _ in 0..<iterations {
                    blackHole(try store.readInsideView(.priority, of: 1, times: 1))
                    next &+= 1
                    try store.write(.priority(next), to: 1)
                    await store.settle()
                }
            },
            emptyBatch: { iterations in
                for _ in 0..<iterations {
                    next &+= 1
                    try store.write(.priority(next), to: 1)
                    await store.settle()
                }
            }, label: name)
        await store.tearDown()
        return context.latencyOutput(
            workload: name, subscribers: 0, measured: measured,
            note: "priority of record 1; one scope, its first read, and its firing by the next write; the write and settle() subtracted")
    }
}
