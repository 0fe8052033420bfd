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
        // A read costs 20 to 1,900 Ir and its scope's write up to 80,000: 25 times the counted
        // reads on each record (1,500 a record), so that the batch's own cost, which glibc's frees
        // make differ a little between passes, is shared by more of them. At 10 times, a layout's
        // value spread by 0.09 to 0.29 Ir/op over 5 layouts; at 25, by 0.01 to 0.12 (two runs).
        let measured = try await context.measureCost(label: name, drawScale: 25) { record in
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
