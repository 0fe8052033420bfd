import ObservationStrategies

/// 100 tasks record 100 issues each into one store at once: every write must be counted by the
/// store and seen by its main-actor view, none lost. Reports the writes, the ones lost (an exact
/// count, gated), and the wall time per write.
public struct StoreConcurrentWritersWorkload: Workload {
    public let name = "store-concurrent-writers"
    public let summary = "100 concurrent writers × 100 issues into one store: none lost, time per write"

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads
    public static let writers = 100
    public static let writesPerWriter = 100

    public init() {}

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        var output = WorkloadOutput()
        let expected = Self.writers * Self.writesPerWriter
        for kind in StoreKind.allCases {
            let store = kind.make()
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
                row.labelAsHop(executor: kind.rawValue, callers: Self.writers)
                return row
            }
            output.rows += [
                row(.writes, Double(expected), "\(Self.writers) tasks × \(Self.writesPerWriter) records"),
                row(.lostWrites, Double(expected - stored), "writes the store's metrics do not count (\(stored) of \(expected))"),
                row(.wallNanosecondsPerWrite, elapsed / Double(expected), "from the first write to the view having seen the last, over \(expected) writes"),
            ]
        }
        return output
    }
}
