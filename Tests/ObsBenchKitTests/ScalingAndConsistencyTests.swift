import Foundation
import ObsBenchKit
import ObservationStrategies
import Testing

/// The scaling topologies and the consistency workload checked for semantics (who re-runs, how
/// often, what counts as torn), against every strategy, at sizes small enough to be exact.
@Suite("Scaling and consistency semantics", .timeLimit(.minutes(2)))
@MainActor
struct ScalingAndConsistencyTests {
    @Test("per topology, re-runs per write are what each strategy's declared granularity says",
          arguments: StrategyRegistry.all, ScalingTopology.allCases)
    func rerunsPerTopology(entry: StrategyEntry, topology: ScalingTopology) async throws {
        let subscribers = 3
        let store = try entry.makeStore(TaskRecord.sample(count: 10))
        let views = try (0..<subscribers).map { try store.subscribe(topology.view($0)) }
        await store.settle()
        let writes = 4
        for sequence in 1...writes {
            let write = topology.write(sequence, titles: ScalingTopology.titles)
            try store.write(write.value, to: write.id)
            await store.settle()
        }
        let delivered = views.reduce(0) { $0 + $1.reruns }
        let expected = topology.rerunsDelivered(subscribers: subscribers, capabilities: entry.descriptor.capabilities)
        #expect(delivered == writes * expected, "\(entry.name), \(topology.rawValue): \(delivered) re-runs for \(writes) writes")
        #expect(views.allSatisfy { $0.snapshot.failure == nil })
        await store.tearDown()
    }

    @Test("re-runs needed: every view for shared, one for disjoint, none for unrelated and pending")
    func rerunsNeeded() {
        #expect(ScalingTopology.allCases.map { $0.rerunsNeeded(subscribers: 100) } == [100, 1, 0, 0])
        let objectLevel = Capabilities(granularity: .object, deduplicates: false, delivery: .synchronous, transactional: false, coalesces: false)
        #expect(ScalingTopology.unrelated.rerunsDelivered(subscribers: 100, capabilities: objectLevel) == 100)
        #expect(ScalingTopology.pending.rerunsDelivered(subscribers: 100, capabilities: objectLevel) == 0)
    }

    @Test("the growth fit reads O(1), O(S) and O(S²) off exact data")
    func growthFit() throws {
        let sizes: [Double] = [1, 10, 100, 1_000]
        #expect(abs(try #require(GrowthFit.logLogSlope(sizes.map { ($0, 42) }))) < 1e-12)
        #expect(abs(try #require(GrowthFit.logLogSlope(sizes.map { ($0, 5 * $0) })) - 1) < 1e-12)
        #expect(abs(try #require(GrowthFit.logLogSlope(sizes.map { ($0, $0 * $0) })) - 2) < 1e-12)
        #expect(GrowthFit.logLogSlope([(10, 1), (10, 2)]) == nil)
        #expect(GrowthFit.logLogSlope([(1, 0), (10, 2)]) == nil)
        #expect([0.05, 0.97, 2.0, 0.6].map { GrowthFit.label($0) } == ["O(1)", "O(S)", "O(S²)", "O(S^0.6)"])
    }

    @Test("the checker flags a state between the halves of a swap, and only that")
    func checkerDetectsTornState() throws {
        let records = TaskRecord.sample(count: 6) // ids 1 and 4 complete
        let checker = ConsistencyChecker(records: 6, completedCount: 2, k: 5)
        func values(_ completed: Set<Int>) -> [FieldValue] {
            records.map { .isComplete(completed.contains($0.id)) } + records.map { .priority($0.priority) }
        }
        #expect(!checker.isTorn(values([1, 4])))
        #expect(!checker.isTorn(values([2, 4])), "after a whole swap: 1 un-completed, 2 completed")
        #expect(checker.isTorn(values([4])), "half a swap: 1 un-completed, 2 not yet completed")
        #expect(checker.isTorn(values([1, 2, 4])), "the other half first")
        #expect(checker.isTorn(Array(values([1, 4]).dropLast())), "values of the wrong shape are never a valid state")
        #expect(checker.tornRuns(in: [values([1, 4]), values([4]), values([2, 4]), values([2])]) == 2)
        // Top five completed by priority, ties by id: priorities are index % 5.
        let all = ConsistencyChecker(records: 6, completedCount: 6, k: 3)
        #expect(all.derive(values([1, 2, 3, 4, 5, 6]))?.topK == [5, 4, 3])
    }

    @Test("one writer: a strategy without transactions shows every swap half-done once; with them, never",
          arguments: StrategyRegistry.all)
    func invariantOneWriter(entry: StrategyEntry) async throws {
        let context = WorkloadContext(runID: "test", suite: "consistency", strategy: entry, sampler: .quick, objects: 20, quick: true)
        let rows = try await InvariantWorkload(writers: 1).run(context).rows
        let transactions = try #require(rows.first { $0.metric == "transactions" }?.statistics?.median)
        let torn = try #require(rows.first { $0.metric == "torn_observations" }?.statistics?.median)
        let capabilities = entry.descriptor.capabilities
        let tears = capabilities.granularity != .none && !capabilities.transactional && capabilities.delivery == .synchronous
        #expect(torn == (tears ? transactions : 0), "\(entry.name): \(torn) torn in \(transactions) transactions")
    }

    @Test("two writers: strategies with transactions still show no torn state", arguments: StrategyRegistry.all.filter(\.descriptor.capabilities.transactional))
    func invariantTwoWriters(entry: StrategyEntry) async throws {
        let context = WorkloadContext(runID: "test", suite: "consistency", strategy: entry, sampler: .quick, objects: 20, quick: true)
        let rows = try await InvariantWorkload(writers: 2).run(context).rows
        #expect(rows.first { $0.metric == "torn_observations" }?.statistics?.median == 0)
        #expect(rows.first { $0.metric == "transactions" }?.statistics?.median == 400)
    }
}
