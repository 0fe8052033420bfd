import ObservationStrategies

/// Opening a view's tracking scope with one read, and that scope being fired and torn down by the
/// next write of the field: what a view pays per render for being tracked at all.
///
/// Each operation is one scope reading the field once, then one write of the field and `settle()`;
/// the empty batch makes the same writes with no scope, so the write's own cost is subtracted.
///
/// The store has ``storeSize`` records (fewer with a smaller `--objects`), not the suite's 1,000:
/// the scope's cost does not depend on the store's size, but the write that fires it can. Under
/// `--measure instructions` every strategy's scope counted the same on 10 records as on 1,000
/// (`deduplicated-object` 6 Ir/op less, of 2,019; the others within their repeats' spread).
/// On 1,000 records `state-subject`'s write copies its 40 KB records array (71,000 Ir) around a
/// scope of 403 Ir, and glibc's handling of those large blocks (consolidating free chunks,
/// trimming the heap's top) fell a little differently in the loop with the scope and the loop
/// without: over 300 layouts a pair counted 382 to 433 Ir/op, and in two gate checks one layout
/// of one build counted far off (1 to 4 Ir/op in two of its three pairs; a layout whose value took
/// its build's mean to 440). On 10 records it counted 403.0 in each of 60 layouts (docs/gate.md,
/// "view-scope: a store of 10 records").
public struct ViewScopeWorkload: Workload {
    public let name = "view-scope"
    public var summary: String {
        "open a view-tracking scope with one read, fired by the next write (the write's own cost subtracted), on a store of \(Self.storeSize) records"
    }
    public let countsInstructions = true

    /// Records in the store the scope is measured on.
    public static let storeSize = 10

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var context = context
        context.objects = min(context.objects, Self.storeSize)
        let store = try context.makeStore()
        var next = 1_000
        // Counted on record 1 alone, not drawn over records (`MeasuredDraw`): the empty loop is the
        // write that fires the scope, and it must meet the heap its operation left for that to
        // cancel. Counted in separate passes, as draws are, state-subject's 400 Ir/op scope moved
        // by 7% between layouts (on 1,000 records).
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
            note: "priority of record 1 of \(context.objects); one scope, its first read, and its firing by the next write; the write and settle() subtracted")
    }
}
