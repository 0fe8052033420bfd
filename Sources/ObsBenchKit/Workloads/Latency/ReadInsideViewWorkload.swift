import ObservationStrategies

/// Each further read of a field inside a view's tracking scope, once the scope is open and has
/// registered the field: what a view body pays per repeated access.
///
/// Each batch is one scope reading the field 1 + `batch` times, then one write of that field, which
/// fires the scope's tracker as the view's next change would (a scope that never fires stays
/// registered on the object). The empty batch is the same scope reading the field once, with the
/// same write: subtracting it leaves the `batch` further reads alone. What opening a scope costs
/// is `view-scope`'s measure.
public struct ReadInsideViewWorkload: Workload {
    public let name = "read-in-view"
    public let summary = "each further read of one field inside an open view-tracking scope (scope cost excluded: see view-scope)"
    public let countsInstructions = true

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        var next = 1_000
        /// One scope reading the field `reads` times, then the write that fires it.
        func scope(_ record: Int, reads: Int) async throws {
            blackHole(try store.readInsideView(.priority, of: record, times: reads))
            next &+= 1
            try store.write(.priority(next), to: record)
            await store.settle()
        }
        // A read costs 20 to 1,900 Ir and its scope's write up to 80,000: 10 times the counted
        // reads on each record (600 a record, quick), so that the batch's own cost, which glibc's
        // frees make differ a little between passes, is shared by more of them. Once only the main
        // thread of a synchronous strategy's worker counted (``CountedThreads``), 10 times spread
        // a row's 5 layouts by 0.04 to 0.09 Ir/op (state-subject, observable), where 25 times
        // spread them by 0.01 to 0.03, and moved no row by more than 0.05 Ir/op: each far inside
        // the gate's allowance (0.5%, and at least 1 Ir/op). 25 times took the quick count of
        // plain, observable, published and state-subject's read-in-view 58.6 s, 10 times 44.3 s.
        let measured = try await context.measureCost(label: name, drawScale: 10) { record in
            MeasuredDraw(
                batch: { iterations in
                    try await scope(record, reads: 1 + iterations)
                },
                emptyBatch: { _ in
                    try await scope(record, reads: 1)
                })
        }
        await store.tearDown()
        return context.latencyOutput(
            workload: name, subscribers: 0, measured: measured,
            note: "priority of one record; per read after the scope's first; the scope, its first read and the write that fires it subtracted")
    }
}
