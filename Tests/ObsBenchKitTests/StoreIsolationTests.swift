import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The store-isolation suite's stores: the GCD store's same-queue paths, and nothing lost by any
/// store under concurrent writers.
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

    @Test("100 concurrent writers lose no write, whichever the store")
    func concurrentWritersLoseNothing() async throws {
        let context = WorkloadContext(runID: "test", suite: "store-isolation", strategy: StrategyRegistry.all[0], sampler: .quick, objects: 0, quick: true)
        let rows = try await StoreConcurrentWritersWorkload().run(context).rows
        for kind in StoreKind.allCases {
            let lost = rows.first { $0.executor == kind.rawValue && $0.metric == .lostWrites }?.statistics?.median
            let writes = rows.first { $0.executor == kind.rawValue && $0.metric == .writes }?.statistics?.median
            #expect(lost == 0, "\(kind.rawValue) lost \(lost ?? -1) writes")
            #expect(writes == 10_000)
        }
    }
}
