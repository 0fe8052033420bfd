import ObservationStrategies

extension Suite {
    /// `--suite subscription`: what a view costs to start and stop watching, as a list does when
    /// rows scroll in and out: one view subscribed (its first run included), settled, unsubscribed.
    public static let subscription = Suite(
        name: "subscription",
        summary: "subscribe one view (first run included), settle, unsubscribe: the cost of a row scrolling in and out, ns per view",
        defaultObjects: 1_000,
        // Six rounds: the fewest whose paired differences from plain can all agree by chance
        // less than 5% of the time (``FloorComparison``).
        defaultRounds: 6,
        tables: { SummaryTable.latencyTables(of: $0, rows: $1, strategies: $2) },
        secondsPerWorker: 0.06,
        workloads: [SubscribeUnsubscribeWorkload()]
    )
}

/// One view reading one field of record i (each iteration the next record), subscribed, settled
/// and unsubscribed; a strategy that starts a fetch per view (GRDB) pays it here.
public struct SubscribeUnsubscribeWorkload: Workload {
    public let name = "subscribe-unsubscribe"
    public let summary = "subscribe a view of one field of record i in turn, settle, unsubscribe"

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let store = try context.makeStore()
        let count = context.objects
        var next = 0
        let measured = try await context.measureCost(
            { iterations in
                for _ in 0..<iterations {
                    next = next == count ? 1 : next &+ 1
                    let view = try store.subscribe(.record(next, .title))
                    await store.settle()
                    store.unsubscribe(view)
                }
            },
            emptyBatch: { iterations in
                for _ in 0..<iterations {
                    next = next == count ? 1 : next &+ 1
                    blackHole(ViewSpec.record(next, .title))
                }
            }, label: name)
        await store.tearDown()
        return context.latencyOutput(
            workload: name, subscribers: 1, measured: measured,
            note: "title of records 1...N in turn; subscribe, settle(), unsubscribe per operation")
    }
}
