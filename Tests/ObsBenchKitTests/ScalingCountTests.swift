import Foundation
import Testing

@testable import ObsBenchKit

/// The scaling suite under `--measure instructions` (``CountedScalingSweep``): how a counted sweep
/// is drawn and stopped, b and the class the counts decide, the tables, the gate on its rows, and
/// the profile of b. Checked on constructed counts; the end-to-end test checks that a real sweep
/// repeats, never what it measured.
@Suite("Scaling in counts")
struct ScalingCountTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// A counted scaling row at `subscribers` views: its layouts' values, the mean as its value.
    static func counted(
        _ strategy: String, _ workload: String, subscribers: Int, _ layouts: [Double], asynchronous: Bool = false
    ) -> (ResultRow, [SampleRow]) {
        let row = ResultRow(
            runID: "r", suite: "scaling", workload: workload, strategy: strategy, executor: RowKey.mainActor, objects: 101, subscribers: subscribers,
            concurrency: 1, metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics(layouts),
            note: "\(subscribers) views" + (asynchronous ? "; " + CountedScalingSweep.asynchronousNote : ""), rounds: layouts.count)
        let samples = layouts.enumerated().map {
            SampleRow(
                runID: "r", suite: "scaling", workload: workload, strategy: strategy, metric: .instructions, unit: Metric.instructions.unit,
                index: 0, value: $1, round: $0 + 1, subscribers: subscribers)
        }
        return (row, samples)
    }

    /// Exact points of a + b·S (every layout alike).
    static func line(_ a: Double, _ b: Double, at sizes: [Double] = [1, 10, 100]) -> [GrowthFit.IntervalPoint] {
        sizes.map { ($0, a + b * $0, a + b * $0, a + b * $0) }
    }

    @Test(
        "a cheap point is drawn on the latency rows' 80 records; fewer only past 8,000 views a pass or 1.6 M Ir of writes a drawn operation; the store holds every draw's views"
    )
    func drawnRecords() {
        #expect([1, 10, 100, 1_000, 10_000].map { CountedScalingSweep.drawnRecords(subscribers: $0, draws: 80) } == [80, 80, 80, 8, 1])
        let estimates: [Double] = [2_400, 150_000, 1_430_000, 9e6]
        #expect(estimates.map { CountedScalingSweep.drawnRecords(subscribers: 10, draws: 80, estimatedWrite: $0) } == [80, 10, 1, 1])
        #expect(CountedScalingSweep.drawnRecords(subscribers: 1, draws: 1) == 1)
        // The estimate: one point scaled in proportion to S (an upper bound when a ≥ 0), then the line through the last two.
        #expect(CountedScalingSweep.estimatedWrite(at: 1, after: []) == nil)
        #expect(CountedScalingSweep.estimatedWrite(at: 10, after: [(1, 15_000)]) == 150_000)
        let line: Double = 135_000 + 120_000 / 9 * 90
        #expect(CountedScalingSweep.estimatedWrite(at: 100, after: [(1, 15_000), (10, 135_000)]) == line)
        #expect(CountedScalingSweep.estimatedWrite(at: 100, after: [(1, 2_400), (10, 2_380)]) == 2_380, "a falling line is not extrapolated down")
        // Pending views sit on records base + 1 … base + S: record 80's one view reads record 81.
        #expect(ScalingTopology.pending.view(0, base: 80) == .record(81, .title))
        #expect(ScalingTopology.disjoint.view(9, base: 8) == .record(17, .title))
        #expect(ScalingTopology.shared.view(5, base: 3) == .record(3, .title))
        #expect(ScalingTopology.unrelated.write(1, titles: ScalingTopology.titles, base: 7).id == 7)
        #expect(ScalingTopology.pending.recordsNeeded(subscribers: 10, base: 8) == 18)
        #expect(CountedScalingSweep.storeRecords(counts: [1, 10, 100], draws: 80, objects: 0) == 180, "pending views of record 80 at S = 100 read records 81 to 180")
        #expect(CountedScalingSweep.storeRecords(counts: [1, 10, 100], draws: 1, objects: 0) == 101, "the largest S + 1, as in the timed sweep")
        #expect(CountedScalingSweep.storeRecords(counts: [1], draws: 80, objects: 0) == 81, "80 draws of one pending view read records 2 to 81")
    }

    @Test("the sweep always counts its first two points, and stops before one the line through the last two puts at 4 M Ir a write or more")
    func stops() {
        #expect(CountedScalingSweep.stopsBefore(10, after: [(1, 9e6)]) == nil, "a second point is always counted")
        #expect(CountedScalingSweep.stopsBefore(100, after: [(1, 300_000), (10, 1_000_000)]) != nil, "1 M + 77.8 k × 90 = 8 M: stops")
        let estimate = CountedScalingSweep.stopsBefore(100, after: [(1, 300_000), (10, 1_000_000)])
        #expect(estimate.map { abs($0 - 8_000_000) < 1 } == true)
        #expect(CountedScalingSweep.stopsBefore(100, after: [(1, 10_000), (10, 150_000)]) == nil, "150 k + 15.6 k × 90 = 1.5 M: counted")
        #expect(CountedScalingSweep.stopsBefore(100, after: [(1, 500_000), (10, 400_000)]) == nil, "a falling line is extrapolated flat")
    }

    @Test("exact counts on a line: b is exact, and so is the class of the last decade")
    func exactGrowth() throws {
        let linear = try #require(GrowthFit.countedGrowth(Self.line(100, 15_000)))
        #expect(abs(linear.perView - 15_000) < 1e-6 && abs(linear.intercept - 100) < 1e-6)
        #expect(linear.interval.lowerBound == linear.interval.upperBound || abs(linear.interval.upperBound - linear.interval.lowerBound) < 1e-6)
        #expect(linear.label == "O(S)")
        #expect(linear.cell == "15000 Ir/view · O(S)")
        // A large a: from S = 10 to 100 the count grows as S^0.7 (log10(9000/1800) ≈ 0.70), and that is what is printed.
        let bent = try #require(GrowthFit.countedGrowth(Self.line(1_000, 80)))
        #expect(bent.label == "O(S^0.7)")
        // Nothing per view: an exact 0 is a figure, not noise.
        let flat = try #require(GrowthFit.countedGrowth(Self.line(2_400, 0)))
        #expect(flat.decided && flat.cell == "0.0 Ir/view · O(1)")
        // A stopped sweep: a lower bound.
        #expect(GrowthFit.countedGrowth(Self.line(100, 15_000, at: [1, 10]), stopped: true)?.label == "≥ O(S^0.9)")
    }

    @Test("an asynchronous strategy's counts are widened by the gate's 3%: a small b is within noise, and a class is printed only where the interval decides it")
    func asynchronousGrowth() throws {
        let widen = { (points: [GrowthFit.IntervalPoint]) in points.map { ($0.size, $0.cost, $0.cost * 0.97, $0.cost * 1.03) } }
        let small = try #require(GrowthFit.countedGrowth(widen(Self.line(50_000, 2))))
        #expect(!small.decided && small.cell.hasPrefix("within noise"))
        #expect(small.label == "O(1)", "the whole slope interval is below 0.2")
        // b beyond noise, and the last decade's slope between classes: printed as its range.
        let between = try #require(GrowthFit.countedGrowth(widen(Self.line(20_000, 400))))
        #expect(between.decided)
        let label = try #require(between.label)
        #expect(label.hasPrefix("O(S^"), "\(label)")
        // Counts that spread across zero growth decide nothing.
        let spread: [GrowthFit.IntervalPoint] = [(10, 1_000, 600, 1_400), (100, 1_100, 700, 1_500)]
        let none = try #require(GrowthFit.countedGrowth(spread))
        #expect(none.label == nil && none.cell == "within noise · class within noise")
    }

    /// A counted run's scaling rows: observable (synchronous) and grdb-queue (asynchronous).
    static func countedRun() -> [ResultRow] {
        var rows: [ResultRow] = []
        for (strategy, asynchronous, a, b) in [("observable", false, 1_300.0, 14_300.0), ("grdb-queue", true, 280_000.0, 13_000.0)] {
            for workload in ScalingTopology.allCases.map({ "scaling-\($0.rawValue)" }) {
                for subscribers in [1, 10, 100] {
                    let value = a + b * Double(subscribers)
                    rows.append(
                        Self.counted(strategy, workload, subscribers: subscribers, [value, value * 1.001, value * 0.999], asynchronous: asynchronous).0)
                }
            }
        }
        return rows
    }

    @Test("a counted run prints the counted tables (b in Ir/view with its class; Ir per write at the largest S) within 120 columns, and no empty timed tables")
    func tables() throws {
        let tables = SummaryTable.tables(suite: .scaling, rows: Self.countedRun(), strategies: ["observable", "grdb-queue"])
        #expect(tables.map(\.title) == ["scaling · counted", "scaling · counted, largest S"])
        let text = tables.map { $0.text() }.joined(separator: "\n")
        #expect(text.contains("14300 Ir/view · O(S)"), "\(text)")
        #expect(text.contains("13000 Ir/view · O(S^0.6) ±"), "a large a: the last decade grows as S^0.6 \(text)")
        for line in text.split(separator: "\n") { #expect(line.count <= SummaryTable.width, "\(line)") }
        // A timed run keeps its own tables, and gets no counted ones.
        let timed = ResultRow(
            runID: "r", suite: "scaling", workload: "scaling-shared", strategy: "observable", executor: RowKey.mainActor, objects: 101, subscribers: 1,
            concurrency: 1, metric: .latency, unit: Metric.latency.unit, statistics: Statistics([100, 110, 120]))
        #expect(SummaryTable.tables(suite: .scaling, rows: [timed], strategies: ["observable"]).map(\.title) == ["", "scaling · largest S"])
    }

    @Test("the gate judges scaling instruction rows as latency's: a synchronous strategy's to 0.5% (+1% fails), an asynchronous one's to 3% (+2% passes, +5% fails)")
    func gate() {
        let layouts = [1_431_300.0, 1_431_300, 1_431_300]
        let base = GateLayoutTests.run([
            Self.counted("observable", "scaling-shared", subscribers: 100, layouts),
            Self.counted("grdb-queue", "scaling-disjoint", subscribers: 100, layouts, asynchronous: true),
        ])
        func verdicts(observable: Double, grdb: Double) -> [String: Verdict] {
            let current = GateLayoutTests.run([
                Self.counted("observable", "scaling-shared", subscribers: 100, layouts.map { $0 * observable }),
                Self.counted("grdb-queue", "scaling-disjoint", subscribers: 100, layouts.map { $0 * grdb }, asynchronous: true),
            ])
            return GateTests.verdicts(RunComparison(baseline: base, current: current))
        }
        let observable = "scaling/scaling-shared/observable/instructions objects=101 S=100 c=1"
        let grdb = "scaling/scaling-disjoint/grdb-queue/instructions objects=101 S=100 c=1"
        let small = verdicts(observable: 1.003, grdb: 1.02)
        #expect(small[observable] == .unchanged && small[grdb] == .unchanged)
        let large = verdicts(observable: 1.01, grdb: 1.05)
        #expect(large[observable] == .regression && large[grdb] == .regression)
        // b itself is reported, derived from the gated counts.
        #expect(Metric.instructionsPerView.gate.name == "informational")
    }

    @Test("the profile of b: each function's Ir per further view between two S, summing to the counts' difference quotient")
    func profileOfB() throws {
        func key(_ subscribers: Int) -> RowKey {
            RowKey(
                suite: "scaling", workload: "scaling-unrelated", strategy: "published", executor: RowKey.mainActor, metric: .instructions,
                unit: Metric.instructions.unit, objects: 101, subscribers: subscribers, concurrency: 1)
        }
        func row(_ subscribers: Int, _ function: String, _ group: CostGroup, _ perWrite: Double) -> ProfileRow {
            ProfileRow(key: key(subscribers), group: group, function: function, selfPerOperation: perWrite, inclusivePerOperation: perWrite, object: "o")
        }
        let summary = ProfileSummary(rows: [
            row(10, "sink", .strategy, 5_000), row(10, "swift_retain", .swiftRuntime, 300), row(10, "write", .strategy, 2_000),
            row(100, "sink", .strategy, 50_000), row(100, "swift_retain", .swiftRuntime, 3_000), row(100, "write", .strategy, 2_000),
            row(1, "write", .strategy, 2_000), row(1, "sink", .strategy, 500),
        ])
        let profiles = GrowthProfile.all(in: summary)
        #expect(profiles.count == 1)
        let b = try #require(profiles.first)
        #expect(b.low.subscribers == 10 && b.high.subscribers == 100, "the two largest S by default")
        #expect(b.functions.map(\.function) == ["sink", "swift_retain"], "a function that does not grow is left out")
        #expect(abs(b.perView - (55_000 - 7_300) / 90.0) < 1e-9)
        #expect(abs(b.functions[0].perView - 500) < 1e-9)
        let chosen = try #require(GrowthProfile.all(in: summary, from: 1, to: 100).first)
        #expect(abs(chosen.perView - (55_000 - 2_500) / 99.0) < 1e-9)
        #expect(b.text(top: 5).contains("S=10 → S=100"))
    }

    @Test(
        "a counted sweep of a synchronous strategy repeats: two runs of one binary, one layout each, give the same Ir at every S (within 0.5% from 10 kIr a write, 2% below), b, and profiles that sum to the rows (two topologies: every view re-runs, none does)",
        .enabled(if: SameMachineGateTests.canCount, "needs valgrind and the release build"))
    func repeats() throws {
        let arguments = [
            "--suite", "scaling", "--measure", "instructions", "--quick", "--strategy", "observable", "--layouts", "1", "--subscribers", "10",
            "--workload", "scaling-shared", "--workload", "scaling-unrelated",
        ]
        let first = try CountedRun(arguments)
        let second = try CountedRun(arguments)
        let counted = first.rows.filter { $0.metric == .instructions }
        #expect(counted.count == 4, "two topologies at S = 1 and 10")
        for row in counted {
            let again = try #require(second.rows.first { RowKey($0) == RowKey(row) })
            let (a, b) = (try #require(row.value), try #require(again.value))
            // One layout a run. Where a record's tables lie moves a cheap write by tens of Ir
            // (docs/suites.md, "Scaling in counts"); drawn on 8 records, observable's 2.4 kIr
            // scaling-unrelated write at S = 10 moved by 2.1% between two runs.
            #expect(abs(a - b) <= (a >= 10_000 ? 0.005 : 0.02) * a, "\(RowKey(row)): \(a) then \(b)")
            let profile = try #require(first.profiles.row(RowKey(row)))
            #expect(abs(profile.total - a) <= 0.01 * a, "\(RowKey(row)): profile \(profile.total), row \(a)")
        }
        #expect(first.rows.filter { $0.metric == .instructionsPerView }.count == 2)
        #expect(first.rows.contains { $0.metric == .retains && $0.suite == "scaling" })
        #expect(GrowthProfile.all(in: first.profiles).count == 2)
    }
}
