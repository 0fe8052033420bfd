import ObservationStrategies

/// 100 tasks record 100 issues each into one store at once, and its main-actor view waits to see
/// what the store counted. Reports the writes, the ones the store did not count (an exact count,
/// gated; that the migration plan's stores lose none is the claim `stores-lose-no-writes`), and
/// the wall time per write.
public struct StoreConcurrentWritersWorkload: Workload {
    public let name = "store-concurrent-writers"
    public let summary = "100 concurrent writers × 100 issues into one store: writes lost, time per write"

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads
    public static let writers = 100
    public static let writesPerWriter = 100

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        for kind in StoreKind.allCases { output.rows += await rows(of: kind.make(), executor: kind.rawValue, context) }
        return output
    }

    /// The writes, the writes lost and the wall time per write of one store, its rows labelled
    /// `executor`: a write is lost when the store's metrics do not count it once every writer has
    /// returned. The tests hand it a store that loses writes on purpose.
    @MainActor
    func rows(of store: any IssueStore, executor: String, _ context: WorkloadContext) async -> [ResultRow] {
        let expected = Self.writers * Self.writesPerWriter
        let view = IssuesView(store: store)
        let begin = MonotonicClock.now()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    for index in 0..<Self.writesPerWriter { await store.record(.generated(writer * Self.writesPerWriter + index)) }
                }
            }
        }
        let stored = await store.metricsSnapshot().total
        await view.seen.wait(until: stored)
        let elapsed = Double(MonotonicClock.now() - begin)
        func row(_ metric: Metric, _ value: Double, _ note: String) -> ResultRow {
            var row = context.countRow(workload: name, objects: 0, subscribers: 1, metric: metric, value: value, note: note)
            row.labelAsHop(executor: executor, callers: Self.writers)
            return row
        }
        return [
            row(.writes, Double(expected), "\(Self.writers) tasks × \(Self.writesPerWriter) records"),
            row(.lostWrites, Double(expected - stored), "writes the store's metrics do not count (\(stored) of \(expected))"),
            row(.wallNanosecondsPerWrite, elapsed / Double(expected), "from the first write to the view having seen the last, over \(expected) writes"),
        ]
    }
}
