import BuiltInStrategies
import ObservationStrategies
import Synchronization
import Testing

@testable import ObsBenchKit

/// The pool suite's pieces: each compute placement runs exactly the work asked, the probes'
/// rows say how many busy tasks per core they ran beside, and batching delivers every item.
@Suite("Pool", .timeLimit(.minutes(2)))
@MainActor
struct PoolTests {
    @Test("each compute placement runs K pieces of work and returns when all have finished", arguments: ComputePlacement.allCases)
    func placementRunsEveryPiece(placement: ComputePlacement) async {
        let executor = ThreadPoolTaskExecutor(name: "obsbench-test-compute", threads: 2)
        defer { executor.shutdown() }
        let finished = Atomic<Int>(0)
        await placement.run(4, nanoseconds: 2_000_000, executor: executor) { finished.add(1, ordering: .relaxed) }
        // Every piece ran to its end before `run` returned: a count, not a time.
        #expect(finished.load(ordering: .acquiring) == 4)
        await placement.run(0, nanoseconds: 2_000_000, executor: executor) { finished.add(1, ordering: .relaxed) }
        #expect(finished.load(ordering: .acquiring) == 4, "no piece runs when none is asked")
    }

    @Test("the saturation rows carry the probe, the busy task count and the tasks per core")
    func saturationRows() async throws {
        let context = WorkloadContext(runID: "test", suite: "pool", strategy: StrategyRegistry.all[0], sampler: .quick, objects: 0, quick: true)
        let rows = try await PoolSaturationWorkload(placement: .taskExecutor).run(context).rows
        #expect(rows.count == PoolSaturationWorkload.taskCounts.count * PoolSaturationWorkload.Probe.allCases.count)
        for row in rows {
            #expect(row.strategy == "-" && row.metric == .latency && row.statistics != nil)
            #expect(row.subscribers == row.concurrency / CPUWork.cores)
        }
    }

    @Test("1,000 items reach the main-actor view whether sent one hop each or in one hop")
    func batchingDeliversEverything() async throws {
        let context = WorkloadContext(runID: "test", suite: "pool", strategy: StrategyRegistry.all[0], sampler: .quick, objects: 0, quick: true)
        // The workload throws if the view does not hold every item sent.
        let rows = try await MainActorBatchingWorkload().run(context).rows
        let switches = rows.filter { $0.metric == .voluntarySwitchesPer1000Items }
        #expect(Set(switches.map(\.executor)) == ["per-item", "batched"])
        #expect(switches.allSatisfy { ($0.statistics?.median ?? -1) >= 0 })
    }

    @Test("the pool width seen is at least one thread, and a job waits behind blocked pool tasks only when they fill the pool")
    func widthRows() async throws {
        let context = WorkloadContext(runID: "test", suite: "pool", strategy: StrategyRegistry.all[0], sampler: .quick, objects: 0, quick: true)
        let rows = try await PoolWidthWorkload().run(context).rows
        let width = try #require(rows.first { $0.metric == .poolThreadsObserved }?.statistics?.median)
        #expect(width >= 1)
        #expect(rows.filter { $0.executor == "blocked-pool-tasks" }.map(\.concurrency) == Array(1...(CPUWork.cores + 1)))
    }
}
