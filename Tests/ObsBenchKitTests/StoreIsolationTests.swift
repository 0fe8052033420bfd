import BuiltInStrategies
import ObservationStrategies
import Testing

@testable import ObsBenchKit

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The store-isolation suite's stores and workloads: the GCD store's same-queue paths, a view that
/// ends on what was recorded, and the concurrent-writers workload's count of lost writes (checked
/// on a store that loses writes on purpose; whether the three stores lose any is a finding of a
/// run, judged by the claim `stores-lose-no-writes`).
@Suite("Store isolation", .timeLimit(.minutes(2)))
@MainActor
struct StoreIsolationTests {
    @Test("the GCD queue store reads and writes from a block already on its queue without deadlocking")
    func sameQueueFastPath() async {
        let store = QueueIssueStore(publisher: IssuesPublisher())
        #expect(!store.isOnQueue)
        let (onQueue, metrics) = store.onQueue {
            store.recordSync(.generated(1))
            store.recordSync(.generated(2))
            return (store.isOnQueue, store.metricsSnapshotSync())
        }
        #expect(onQueue, "the block ran on the store's queue")
        #expect(metrics.total == 2, "writes made on the queue ran at once, and the read saw them")
        #expect(await store.metricsSnapshot().total == 2)
    }

    @Test("every store's main-actor view ends on what was recorded, from a background task", arguments: StoreKind.allCases)
    func viewSeesBackgroundWrites(kind: StoreKind) async {
        let store = kind.make()
        let view = IssuesView(store: store)
        await Task.detached {
            for index in 1...50 { await store.record(.generated(index)) }
        }.value
        await view.seen.wait(until: 50)
        #expect(view.seen.current == 50)
        let metrics = await store.metricsSnapshot()
        #expect(metrics.total == 50 && metrics.errorCount == 16 && metrics.warningCount == 17 && metrics.infoCount == 17)
    }

    @Test("the concurrent-writers workload counts the writes a store loses: none for one that keeps all, every eighth for one that drops them")
    func concurrentWritersCountsLostWrites() async throws {
        let context = WorkloadContext(runID: "test", suite: "store-isolation", strategy: StrategyRegistry.all[0], sampler: .quick, objects: 0, quick: true)
        let workload = StoreConcurrentWritersWorkload()
        let expected = StoreConcurrentWritersWorkload.writers * StoreConcurrentWritersWorkload.writesPerWriter
        for dropEvery in [nil, 8] {
            let store = LossyIssueStore(dropEvery: dropEvery)
            let rows = await workload.rows(of: store, executor: "lossy", context)
            func value(_ metric: Metric) -> Double? {
                rows.first { $0.executor == "lossy" && $0.metric == metric }?.statistics?.median
            }
            let dropped = dropEvery.map { expected / $0 } ?? 0
            #expect(await store.dropped == dropped, "the fixture dropped what it was told to")
            #expect(value(.writes) == Double(expected))
            #expect(value(.lostWrites) == Double(dropped), "dropping every \(dropEvery.map(String.init) ?? "no") write")
            #expect(value(.wallNanosecondsPerWrite) != nil, "the wall time per write has its row")
        }
    }

    @Test("the workload's rows name each of the three stores, with one row of each metric")
    func concurrentWritersLabelsEveryStore() async throws {
        let context = WorkloadContext(runID: "test", suite: "store-isolation", strategy: StrategyRegistry.all[0], sampler: .quick, objects: 0, quick: true)
        let rows = try await StoreConcurrentWritersWorkload().run(context).rows
        for kind in StoreKind.allCases {
            for metric in [Metric.writes, .lostWrites, .wallNanosecondsPerWrite] {
                #expect(rows.filter { $0.executor == kind.rawValue && $0.metric == metric }.count == 1, "\(kind.rawValue) \(metric)")
            }
        }
        #expect(rows.count == 3 * StoreKind.allCases.count)
    }
}

/// A store that loses writes on purpose: of the records it is handed, every `dropEvery`th (in
/// the order they arrive) is neither kept nor counted; the rest are kept and published to its
/// main-actor view, as the actor store does.
actor LossyIssueStore: IssueStore {
    private var log = IssueLog()
    private var arrived = 0
    private(set) var dropped = 0
    private let dropEvery: Int?
    private let publisher: IssuesPublisher

    @MainActor
    init(dropEvery: Int?) {
        self.dropEvery = dropEvery
        publisher = IssuesPublisher()
    }

    func record(_ issue: ParseIssue) async {
        arrived += 1
        if let dropEvery, arrived.isMultiple(of: dropEvery) {
            dropped += 1
            return
        }
        log.append(issue)
        await publish(log.metrics)
    }

    func metricsSnapshot() -> IssueMetrics { log.metrics }

    @MainActor private func publish(_ metrics: IssueMetrics) { publisher.metrics = metrics }

    @MainActor func metricsPublisher() -> AnyPublisher<IssueMetrics, Never> { publisher.$metrics.eraseToAnyPublisher() }
}
