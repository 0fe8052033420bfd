import BuiltInStrategies
import Foundation
import ObsBenchKit
import ObservationStrategies
import Testing

/// The scaling topologies and the consistency workload checked for semantics (who re-runs, how
/// often, what counts as torn), against every strategy, at sizes small enough to be exact.
@Suite("Scaling and consistency semantics", .timeLimit(.minutes(2)))
@MainActor
struct ScalingAndConsistencyTests {
    @Test(
        "per topology, re-runs per write are what each strategy's declared granularity says",
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

    @Test("the linear fit reads ns per view off a + b·S, and the last decade's slope sees what the log-log fit averages away")
    func linearFitAndLastDecade() throws {
        let sizes: [Double] = [1, 10, 100, 1_000, 10_000]
        // 100 µs of fixed cost plus 1 µs per view: O(S) at the top, flat at the bottom.
        let points = sizes.map { ($0, 100_000 + 1_000 * $0) }
        let line = try #require(GrowthFit.linear(points))
        #expect(abs(line.slope - 1_000) < 1e-9 && abs(line.intercept - 100_000) < 1e-6 && abs(line.rSquared - 1) < 1e-12)
        let lastDecade = try #require(GrowthFit.lastStepSlope(points))
        let exponent = try #require(GrowthFit.logLogSlope(points))
        #expect(lastDecade > 0.9, "from S = 1,000 to 10,000 the cost is mostly 1 µs per view: \(lastDecade)")
        #expect(exponent < 0.55, "the least-squares exponent over the whole sweep reads it low: \(exponent)")
        #expect(try #require(GrowthFit.logLogFitQuality(points)) < 0.9, "and its R² says the line does not fit")
        #expect(try #require(GrowthFit.logLogFitQuality(sizes.map { ($0, 3 * $0) })) > 0.999)
        #expect(GrowthFit.lastStepSlope([(10, 5)]) == nil)
        #expect(GrowthFit.linear([(10, 1), (10, 2)]) == nil)
    }

    @Test("a point whose write takes seconds gets fewer samples, never fewer than 3")
    func fewerSamplesForSlowPoints() {
        #expect(SubscriberScalingWorkload.minimumSamples(estimatedNanoseconds: nil) == 10)
        #expect(SubscriberScalingWorkload.minimumSamples(estimatedNanoseconds: 1e6) == 10)
        #expect(SubscriberScalingWorkload.minimumSamples(estimatedNanoseconds: 4e8) == 5)
        #expect(SubscriberScalingWorkload.minimumSamples(estimatedNanoseconds: 9e9) == 3)
    }

    /// Six tasks: 1 and 4 complete (priorities 0 and 3), the rest open.
    static let six = TaskRecord.sample(count: 6)

    static func listValues(_ completed: Set<Int>, priorities: [Int: Int] = [:]) -> [FieldValue] {
        six.map { .isComplete(completed.contains($0.id)) } + six.map { .priority(priorities[$0.id] ?? $0.priority) }
    }

    @Test("the checker flags a planted tear in the top-five part: the right count with a list no commit produced")
    func checkerCatchesTopFiveTear() throws {
        let checker = ConsistencyChecker(records: 6, k: 5)
        let log = CommitLog(records: Self.six, checker: checker)
        // Finish task 2 at priority 9: count 2 → 3, and 2 heads the list.
        log.record([FieldWrite(2, .isComplete(true)), FieldWrite(2, .priority(9))])
        let boundaries = log.boundaryStates
        #expect(boundaries == [ShownState(completed: 2, top: [4, 1]), ShownState(completed: 3, top: [2, 4, 1])])
        let before = checker.shown(list: Self.listValues([1, 4]))
        let after = checker.shown(list: Self.listValues([1, 2, 4], priorities: [2: 9]))
        // Half of the commit: 2 completed, its priority not yet written. The count (3) existed; the list did not.
        let topTear = checker.shown(list: Self.listValues([1, 2, 4]))
        #expect(topTear == ShownState(completed: 3, top: [4, 2, 1]))
        #expect(checker.tornStates([before, after], boundaries: boundaries).isEmpty)
        #expect(checker.tornStates([before, topTear, after], boundaries: boundaries) == [topTear])
        // A count no boundary had is torn too, and so is a run of the wrong shape.
        let countTear = checker.shown(list: Self.listValues([4]))
        #expect(checker.tornStates([countTear, nil], boundaries: boundaries).count == 2)
        #expect(checker.shown(list: Array(Self.listValues([1, 4]).dropLast())) == nil)
        #expect(log.finalState == after && log.commits == 1)
    }

    @Test("two observations combined latest emit, in the order the views ran, the latest count with the latest list")
    func combinedStatesFollowDeliveryOrder() {
        let checker = ConsistencyChecker(records: 6, k: 5)
        func state(_ history: [[FieldValue]], order: [Int]) -> ViewHandle.ViewState {
            var state = ViewHandle.ViewState()
            state.history = history
            state.historyOrder = order
            return state
        }
        let counts = [[1, 4], [1, 2, 4]].map { completed in Self.six.map { FieldValue.isComplete(Set(completed).contains($0.id)) } }
        let count = state(counts, order: [1, 4])
        let list = state([Self.listValues([1, 4]), Self.listValues([1, 2, 4], priorities: [2: 9])], order: [2, 3])
        // Runs: count(2) · list([4, 1]) → first emission · list([2, 4, 1]) with the old count → torn · count(3).
        #expect(
            checker.shownStates(count: count, list: list) == [
                ShownState(completed: 2, top: [4, 1]),
                ShownState(completed: 2, top: [2, 4, 1]),
                ShownState(completed: 3, top: [2, 4, 1]),
            ])
    }

    /// What every strategy shows is a finding, reported in the run and in docs/findings.md; here
    /// only the workload's machinery is checked against each: every commit lands, the views re-run
    /// as the declared granularity says they must (so a torn count means something), and the torn
    /// count is reported. Whether the checker catches a tear is `TornStateDetectionTests`'s job.
    @Test(
        "with background writers, every strategy's commits all land, its views re-run, and its torn states are reported, for both view shapes",
        arguments: StrategyRegistry.all, [(1, InvariantWorkload.Views.oneObservation), (2, .oneObservation), (1, .combinedObservations)])
    func consistencyWorkloadRuns(entry: StrategyEntry, shape: (Int, InvariantWorkload.Views)) async throws {
        let (writers, views) = shape
        let workload = InvariantWorkload(writers: writers, views: views)
        let context = WorkloadContext(runID: "test", suite: "consistency", strategy: entry, sampler: .quick, objects: 20, quick: true)
        let rows = try await workload.run(context).rows
        let value = { (metric: Metric) in rows.first { $0.metric == metric }?.statistics?.median }
        #expect(value(.transactions) == Double(writers * InvariantWorkload.commitsPerWriter(quick: true)), "every commit of every writer landed")
        let observes = entry.descriptor.capabilities.granularity != .none
        let notifications = try #require(value(.notificationsPerTransaction))
        let reruns = try #require(value(.rerunsPerTransaction))
        #expect(observes ? notifications > 0 && reruns > 0 : notifications == 0 && reruns == 0, "\(entry.name) \(workload.name): views re-run as declared")
        #expect(value(workload.tornMetric) != nil && value(workload.tornPer1000Metric) != nil, "\(entry.name) \(workload.name): torn states reported")
    }
}
