import BuiltInStrategies
import Foundation
import ObsBenchKit
import ObservationStrategies
import Testing

/// The executors behind the hops suite really run work where they say, and the suite writes a row
/// for every isolation kind and caller count.
@Suite("Executors and hops")
struct HopsTests {
    actor PinnedActor {
        let executor: DedicatedThreadExecutor
        init(executor: DedicatedThreadExecutor) { self.executor = executor }
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        func threadID() -> Int { ProcessCounters.currentThreadID() }
    }

    @Test("an actor on a DedicatedThreadExecutor runs on that thread, call after call")
    func dedicatedThread() async {
        let executor = DedicatedThreadExecutor(name: "obsbench-test-actor")
        defer { executor.shutdown() }
        let pinned = PinnedActor(executor: executor)
        for _ in 0..<5 {
            let ran = await pinned.threadID()
            #expect(ran == executor.threadID, "ran on \(ran), the executor's thread is \(String(describing: executor.threadID))")
        }
    }

    @Test("a task preferring a ThreadPoolTaskExecutor runs its nonisolated code on the pool's threads")
    func taskExecutorPreference() async {
        let pool = ThreadPoolTaskExecutor(name: "obsbench-test-pool", threads: 2)
        defer { pool.shutdown() }
        let ran = await withTaskExecutorPreference(pool) {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { ProcessCounters.currentThreadID() } }
                var ids: [Int] = []
                for await id in group { ids.append(id) }
                return ids
            }
        }
        #expect(ran.count == 4)
        #expect(ran.allSatisfy { pool.threadIDs.contains($0) }, "ran on \(ran), the pool's threads are \(pool.threadIDs)")
    }

    #if os(Linux)
        @Test("process counters read every thread's context switches and never go backwards, even when threads that switched have exited")
        func processCounters() throws {
            let first = try #require(ProcessCounters.read())
            Thread.sleep(forTimeInterval: 0.002)  // one voluntary switch at least
            // Threads that switch, then exit before the next reading: summing /proc/self/task would
            // lose their switches and could go backwards; getrusage keeps them.
            for _ in 0..<8 {
                let thread = Thread { Thread.sleep(forTimeInterval: 0.001) }
                thread.start()
            }
            Thread.sleep(forTimeInterval: 0.05)
            let second = try #require(ProcessCounters.read())
            #expect((first.threads ?? 0) >= 1)
            #expect(second.voluntarySwitches > first.voluntarySwitches)
            #expect(second.involuntarySwitches >= first.involuntarySwitches)
            #expect(second.voluntarySwitches - first.voluntarySwitches >= 8, "each exited thread's sleep is a voluntary switch of its own")
        }
    #endif

    @Test("the hops suite writes latency, throughput and counter rows for every caller count")
    @MainActor
    func rows() async throws {
        let entry = try #require(StrategyRegistryLookup.first)
        let context = WorkloadContext(runID: "t", suite: "hops", strategy: entry, sampler: .quick, objects: 0, quick: true)
        let output = try await RoundTripHopWorkload(kind: .mutex).run(context)
        for callers in RoundTripHopWorkload.concurrencies {
            let rows = output.rows.filter { $0.concurrency == callers }
            #expect(
                Set(rows.map(\.metric)) == [.latency, .loopOverhead, .throughput, .voluntarySwitchesPer1000Hops, .involuntarySwitchesPer1000Hops, .threads, .callerThreadsObserved])
            #expect(rows.allSatisfy { $0.executor == "mutex" && $0.strategy == "-" })
        }
        #expect(Set(output.samples.map(\.concurrency)) == Set(RoundTripHopWorkload.concurrencies), "samples carry their caller count")
        let rowKeys = Set(output.rows.map(RowKey.init))
        #expect(output.samples.allSatisfy { $0.rowKey.map(rowKeys.contains) == true }, "every sample carries its row's full key")
    }
}

extension HopsTests {
    @Test("a background write reaches the main-actor view, whether the value or the ID is handed over", arguments: WriteToViewHopWorkload.Handoff.allCases)
    @MainActor
    func writeToView(handoff: WriteToViewHopWorkload.Handoff) async throws {
        let entry = try #require(StrategyRegistryLookup.first)
        let context = WorkloadContext(runID: "t", suite: "hops", strategy: entry, sampler: .quick, objects: 0, quick: true)
        // The workload throws if the view does not show the last write when sampling ends.
        let output = try await WriteToViewHopWorkload(handoff: handoff).run(context)
        let latency = try #require(output.rows.first { $0.metric == .latency })
        #expect(latency.executor == "background-actor-to-main-actor")
        #expect(latency.workload == "e2e-\(handoff.rawValue)")
    }
}

enum StrategyRegistryLookup {
    static var first: StrategyEntry? { StrategyRegistry.all.first }
}
