import Foundation
import Testing

@testable import ObsBenchKit

/// The tables print a comparison (net of plain, × plain, harness share, cost per view, growth
/// class) only where the processes behind the rows support it (the process is the unit of
/// replication): rows whose rounds interleave, whose floor is a few ns or spread over its rounds,
/// or that were measured in too few processes are fed to the tables and every cell is checked.
@Suite("Figures that carry their uncertainty")
struct UncertainFiguresTests {
    /// A timing with its median's 95% interval (over pooled samples: it describes the row alone)
    /// and, where given, each round's (process's) median.
    static func timed(
        _ workload: String, _ strategy: String, _ median: Double, _ low: Double, _ high: Double, suite: String = "latency", subscribers: Int = 0,
        rounds: [Double]? = nil
    ) -> ResultRow {
        var statistics = Statistics(exact: median)
        (statistics.ci95Low, statistics.ci95High, statistics.p10) = (low, high, low)
        var row = ResultRow(
            runID: "r", suite: suite, workload: workload, strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: subscribers, concurrency: 1,
            metric: .latency, unit: Metric.latency.unit, statistics: statistics, rounds: rounds?.count ?? 1)
        row.roundValues = rounds.map(Self.byRound)
        return row
    }

    /// A timing from its rounds' medians: the row's median is theirs, its interval their range.
    static func timed(_ workload: String, _ strategy: String, rounds: [Double]) -> ResultRow {
        let sorted = rounds.sorted()
        return timed(workload, strategy, Statistics.percentile(sorted, 0.5), sorted.first!, sorted.last!, rounds: rounds)
    }

    /// Values by round number, from 1.
    static func byRound(_ values: [Double]) -> [Int: Double] {
        Dictionary(uniqueKeysWithValues: values.enumerated().map { ($0.offset + 1, $0.element) })
    }

    /// An instruction count over layouts (its interval is their range).
    static func counted(_ workload: String, _ strategy: String, _ layouts: [Double]) -> ResultRow {
        ResultRow(
            runID: "r", suite: "latency", workload: workload, strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: 0, concurrency: 1,
            metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics(layouts), rounds: layouts.count)
    }

    static func cells(_ table: SummaryTable) -> [String: [String: String]] {
        Dictionary(uniqueKeysWithValues: table.rows.map { row in (row.strategy, Dictionary(uniqueKeysWithValues: zip(table.columns, row.cells).map { ($0, $1) })) })
    }

    /// `state-subject` read-in-view in the reference run (all-2026-11-26T20-38-09Z): its 8 round
    /// medians, and plain's, whose per-round differences are +0.49, −1.27, +0.15, +1.62, −1.65,
    /// +0.02, −0.95, −0.04 ns. The pooled medians printed "3.01 ns (−0.38 ns)".
    static let interleavedRounds = [3.12, 2.36, 2.42, 3.59, 1.89, 3.67, 2.14, 3.62]
    static let interleavedPlainRounds = [2.63, 3.63, 2.27, 1.97, 3.54, 3.65, 3.09, 3.66]
    /// `plain` write-observed in the same run: round medians 52.5 to 93.8 ns (its pooled median
    /// 89.4 ns had a bootstrap interval of [88.2, 90.2] ns).
    static let spreadPlainRounds = [62.05, 52.52, 53.54, 90.0, 88.98, 91.26, 92.47, 93.75]

    @Test("latency cells: a difference only where every paired round agrees in sign, × plain only against a floor of 10 ns or more whose rounds lie within 5%")
    func latencyCells() throws {
        let rows = [
            // A floor of a few ns: the net (median of the per-round differences), never a ratio.
            Self.timed("write-unobserved", "plain", rounds: [2.0, 1.95, 2.05, 2.0, 1.98, 2.02, 2.0]),
            Self.timed("write-unobserved", "observable", rounds: [55.0, 54.8, 55.2, 55.0, 55.1, 54.9, 55.0]),
            // Round medians that interleave with plain's (the reference run's state-subject): no difference, no ratio.
            Self.timed("read-in-view", "plain", rounds: Self.interleavedPlainRounds), Self.timed("read-in-view", "struct-vm", rounds: Self.interleavedRounds),
            Self.timed("read-in-view", "observable", rounds: Array(repeating: 95.5, count: 8)),
            // A well-measured floor: net and ratio.
            Self.timed("write-observed", "plain", rounds: [40, 39.5, 40.5, 40, 40.2, 39.8, 40]),
            Self.timed("write-observed", "observable", rounds: [1_200, 1_190, 1_210, 1_200, 1_205, 1_195, 1_200]),
            Self.timed("write-observed", "struct-vm", rounds: [42, 41.6, 42.4, 42, 42.1, 41.9, 42]),
            // A floor whose rounds span 52.5-93.8 ns (the reference run's plain): the net, no ratio.
            Self.timed("transaction-2-fields", "plain", rounds: Self.spreadPlainRounds),
            Self.timed("transaction-2-fields", "observable", rounds: [2_062, 2_052, 2_053, 2_090, 2_089, 2_091, 2_092, 2_094]),
            // Rounds not known (no samples): not compared.
            Self.timed("transaction-2-fields", "struct-vm", 58, 57, 59),
            // One process a side (--rounds 1): no comparison, whatever the pooled intervals say.
            Self.timed("read-untracked", "plain", 3.8, 3.7, 3.9, rounds: [3.8]), Self.timed("read-untracked", "observable", 26.4, 26.2, 26.7, rounds: [26.4]),
            // Three rounds: all of one sign is 1 in 4 by chance: not compared.
            Self.timed("view-scope", "plain", rounds: [5, 6, 7]), Self.timed("view-scope", "observable", rounds: [300, 310, 320]),
        ]
        let tables = SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observable", "struct-vm"])
        let table = try #require(tables.first)
        let cells = Self.cells(table)
        #expect(cells["plain"]?["write-unobserved"] == "2.00 ns", "the floor's own cell compares with nothing")
        #expect(cells["observable"]?["write-unobserved"] == "55.0 ns (+53.0 ns)")
        #expect(cells["struct-vm"]?["read-in-view"] == "2.77 ns (≈ plain (rounds disagree))")
        #expect(cells["observable"]?["read-in-view"] == "95.5 ns (+92.2 ns)")
        #expect(cells["observable"]?["write-observed"] == "1.20 µs (+1.16 µs, ×30)")
        #expect(cells["struct-vm"]?["write-observed"] == "42.0 ns (+2.00 ns, ×1.05)")
        #expect(cells["observable"]?["transaction-2-fields"] == "2.09 µs (+2.00 µs)")
        #expect(cells["struct-vm"]?["transaction-2-fields"] == "58.0 ns (not compared: rounds unknown)")
        #expect(cells["observable"]?["read-untracked"] == "26.4 ns (not compared: one process)")
        #expect(cells["observable"]?["view-scope"] == "310.0 ns (not compared: 3 rounds)")
        for cell in [cells["struct-vm"]?["read-in-view"], cells["observable"]?["read-untracked"], cells["observable"]?["view-scope"]] {
            #expect(cell?.contains("×") == false && cell?.contains("+") == false && cell?.contains("-") == false, "no difference, no ratio: \(cell ?? "")")
        }
        #expect(table.footnotes.contains { $0.contains("× plain only where plain's rounds (layouts) are within ±5% of it") }, "\(table.footnotes)")
        for printed in tables { #expect(printed.text().split(separator: "\n").allSatisfy { $0.count <= SummaryTable.width }, "\(printed.text())") }
    }

    @Test("the burst footnote gives a count's process range where the processes differ, and the figure alone where they agree")
    func burstRange() {
        func reruns(_ size: Int, _ rounds: [Double]) -> ResultRow {
            var row = ResultRow(
                runID: "r", suite: "latency", workload: WriteBurstWorkload.rowName(size), strategy: "grdb-pool", executor: "main-actor", objects: 1_000,
                subscribers: 1, concurrency: 1, metric: .rerunsPerBurst, unit: Metric.rerunsPerBurst.unit, statistics: Statistics(exact: rounds.sorted()[rounds.count / 2]),
                rounds: rounds.count)
            row.roundValues = Self.byRound(rounds)
            return row
        }
        let text = SummaryTable.burstFootnote(rows: [reruns(1, [1, 1]), reruns(10, [2, 7.9]), reruns(100, [26, 68])], suite: "latency", strategies: ["grdb-pool"])
        #expect(text?.hasSuffix("grdb-pool 1/7.9 (2–7.9 over 2 processes)/68 (26–68 over 2 processes)") == true, "\(text ?? "nil")")
    }

    @Test("a cell's difference is its figure minus plain's, never larger than the figure; rounds that all differ the other way from the figures do not decide")
    func differenceAgreesWithFigure() throws {
        // observations write-observed on 2026-12-04: a pooled median of 64.79 µs whose rounds'
        // differences from plain had a median of 67.52 µs, printed "64.79 µs (+67.52 µs)".
        let rows = [
            Self.timed("write-observed", "plain", 26.7, 22.0, 30.0, rounds: [26, 30, 24, 28, 22, 27]),
            Self.timed("write-observed", "observations", 64_790, 60_000, 71_000, rounds: [70_000, 60_000, 68_000, 71_000, 66_000, 69_000]),
            // Every round above plain, the figures the other way round: the rounds do not decide it.
            Self.timed("read-untracked", "plain", 30, 29, 31, rounds: [30, 30, 30, 30, 30, 30]),
            Self.timed("read-untracked", "observations", 29, 28, 40, rounds: [31, 32, 31, 33, 31, 32]),
        ]
        let table = try #require(SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observations"]).first)
        let cells = Self.cells(table)
        #expect(cells["observations"]?["write-observed"] == "64.79 µs (+64.76 µs)", "\(cells)")
        #expect(cells["observations"]?["read-untracked"] == "29.0 ns (≈ plain (rounds disagree))", "\(cells)")
    }

    @Test("the comparison's own rule: paired rounds decide a timing, layouts a count; a ratio only for a well-measured floor")
    func comparisonRule() throws {
        func pairs(_ row: [Double], _ floor: [Double]) -> [FloorComparison.RoundPair] { zip(row, floor).map { FloorComparison.RoundPair(row: $0, floor: $1) } }
        let comparison = FloorComparison(
            measure: .time, value: 55, valueInterval: 54...56, floor: 2, floorInterval: 1.9...2.1,
            pairedRounds: pairs([55, 54, 56, 55, 55.5, 54.5], [2, 1.9, 2.1, 2, 2.05, 1.95]))
        #expect(abs(comparison.netInterval.lowerBound - 52.1) < 1e-9 && abs(comparison.netInterval.upperBound - 53.9) < 1e-9, "the per-round differences' range")
        #expect(comparison.support == .separated && !comparison.isFloorWellMeasured && comparison.ratio == nil)
        // Intervals over pooled samples that do not overlap say nothing: five rounds are too few, rounds not known are none.
        let five = FloorComparison(
            measure: .time, value: 55, valueInterval: 54...56, floor: 2, floorInterval: 1.9...2.1, pairedRounds: pairs([55, 55, 55, 55, 55], [2, 2, 2, 2, 2]))
        #expect(five.text(floorName: "plain") == "not compared: 5 rounds")
        #expect(FloorComparison(measure: .time, value: 55, valueInterval: 54...56, floor: 2, floorInterval: 1.9...2.1).text(floorName: "plain") == "not compared: rounds unknown")
        let one = FloorComparison(measure: .time, value: 55, valueInterval: 54...56, floor: 2, floorInterval: 1.9...2.1, pairedRounds: pairs([55], [2]))
        #expect(one.text(floorName: "plain") == "not compared: one process")
        // One round of six the other way: the rounds disagree.
        let disagree = FloorComparison(
            measure: .time, value: 50, valueInterval: 49...51, floor: 45, floorInterval: 44.9...45.1, pairedRounds: pairs([50, 50, 50, 50, 50, 44], [45, 45, 45, 45, 45, 45]))
        #expect(disagree.isWithinNoise && disagree.text(floorName: "plain") == "≈ plain (rounds disagree)")
        // Rounds paired by number: a round only one row has is left out.
        let plain = Self.timed("x", "plain", rounds: [40, 40, 40, 40, 40, 40])
        var missing = Self.timed("x", "observable", rounds: [80, 80, 80, 80, 80, 80])
        missing.roundValues?[3] = nil
        missing.roundValues?[9] = 80
        #expect(try #require(FloorComparison(missing, floor: plain, measure: .time)).text(floorName: "plain") == "not compared: 5 rounds")
        // Instruction counts of plain: 66 Ir in every layout; a ratio, and the net.
        let floor = Self.counted("read-untracked", "plain", [66, 66, 66])
        let observable = Self.counted("read-untracked", "observable", [278, 280, 282])
        let counted = try #require(FloorComparison(observable, floor: floor, measure: .instructions))
        #expect(counted.isFloorWellMeasured && counted.text(floorName: "plain") == "+214 Ir, ×4.24")
        // Layouts that overlap plain's: ≈ plain.
        let near = Self.counted("read-untracked", "struct-vm", [64, 67, 70])
        #expect(SummaryTable.costCell(near, floor: floor, measure: .instructions) == "67.0 Ir (≈ plain)")
        // A floor that does not differ from the empty loop is never one.
        #expect(FloorComparison(observable, floor: Self.timed("x", "plain", 0.001, 0, 0.004), measure: .time) == nil)
    }

    @Test("harness shares, timed and counted: a share only beyond the noise, never negative, never a made-up 0%")
    func harnessShares() throws {
        // Six rounds each, the four rows of a share paired by round number.
        let plainRead = [3.8, 3.7, 3.9, 3.8, 3.75, 3.85], plainWrite = [2.0, 1.9, 2.1, 2.0, 1.95, 2.05], none = Array(repeating: 0.0, count: 6)
        func same(_ value: Double) -> [Double] { Array(repeating: value, count: 6) }
        func plus(_ rounds: [Double], _ added: Double) -> [Double] { rounds.map { $0 + added } }
        let rows = [
            Self.timed("read-untracked", "plain", rounds: plainRead), Self.timed("write-unobserved", "plain", rounds: plainWrite),
            Self.timed("read-untracked-concrete", "plain", rounds: none), Self.timed("write-unobserved-concrete", "plain", rounds: none),
            // observable read: 22.6 ns via the protocol against 18.8 concrete in every round: 17%.
            Self.timed("read-untracked", "observable", rounds: plus(plainRead, 22.6)), Self.timed("read-untracked-concrete", "observable", rounds: same(18.8)),
            // observable write: the concrete loop is slower in every round (60.3 against 49.6 ns): no share (was "harness −22%").
            Self.timed("write-unobserved", "observable", rounds: same(51.6)), Self.timed("write-unobserved-concrete", "observable", rounds: same(60.3)),
            // published read: the harness's difference changes sign between rounds (+0.2, −5.7, +2.1, −0.8, −6.25, +0.65 ns): no share.
            Self.timed("read-untracked", "published", rounds: [132, 131, 133, 132, 131.5, 132.5]),
            Self.timed("read-untracked-concrete", "published", rounds: [128, 133, 127, 129, 134, 128]),
            // published write: below plain's through the protocol in every round: no share is defined.
            Self.timed("write-unobserved", "published", rounds: [1.0, 0.9, 1.1, 1.0, 0.95, 1.05]), Self.timed("write-unobserved-concrete", "published", rounds: same(0.5)),
            // custom read: the protocol path within plain's rounds (+0.05, −0.1, +0.1, −0.05, +0.05, +0.05): no share (was 0% or a huge one).
            Self.timed("read-untracked", "custom", rounds: [3.85, 3.6, 4.0, 3.75, 3.8, 3.9]), Self.timed("read-untracked-concrete", "custom", rounds: same(1)),
            // custom write: 10 ns via the protocol against 9.6 concrete, above in every round: a small share.
            Self.timed("write-unobserved", "custom", rounds: same(12)), Self.timed("write-unobserved-concrete", "custom", rounds: same(9.6)),
            // lone: measured in one process (its pooled intervals far apart): no share.
            Self.timed("read-untracked", "lone", 50, 49.9, 50.1, rounds: [50]), Self.timed("read-untracked-concrete", "lone", 10, 9.9, 10.1, rounds: [10]),
            Self.counted("read-untracked", "plain", [66, 66, 66]), Self.counted("read-untracked-concrete", "plain", [3, 3, 3]),
            Self.counted("read-untracked", "observable", [279, 280, 281]), Self.counted("read-untracked-concrete", "observable", [193, 194, 195]),
            Self.counted("read-untracked", "published", [1_650, 1_660, 1_670]), Self.counted("read-untracked-concrete", "published", [1_590, 1_600, 1_655]),
        ]
        let shares = HarnessShare.all(in: rows)
        func share(_ strategy: String, _ operation: String, _ measure: CostMeasure) throws -> HarnessShare {
            try #require(shares.first { $0.strategy == strategy && $0.operation == operation && $0.measure == measure })
        }
        guard case .share(let fraction) = try share("observable", "read", .time).reading else { Issue.record("no share"); return }
        #expect(abs(fraction - 3.8 / 22.6) < 1e-6)
        #expect(try share("observable", "read", .time).cell == "17%")
        #expect(try share("observable", "write", .time).cell == "concrete slower")
        #expect(try share("published", "read", .time).cell == "rounds disagree")
        #expect(try share("lone", "read", .time).cell == "one process")
        #expect(try share("published", "write", .time).cell == "none: < plain")
        #expect(try share("custom", "read", .time).cell == "none: ≈ plain")
        #expect(try share("published", "write", .time).share.isNaN, "no share is defined below plain")
        #expect(try share("custom", "write", .time).cell == "4%")
        // Counted in layouts: near-exact ranges. observable 214 ± 1 against 191 ± 1: 11%; published's ranges cross.
        #expect(try share("observable", "read", .instructions).cell == "11%")
        #expect(try share("published", "read", .instructions).cell == "within noise")

        let table = try #require(
            SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observable", "published", "custom", "lone"]).first { $0.title.hasSuffix("concrete loops") })
        let cells = Self.cells(table)
        #expect(cells["observable"]?["harness read"] == "17% · 11%")
        #expect(cells["observable"]?["harness write"] == "concrete slower")
        #expect(cells["published"]?["harness read"] == "rounds disagree · within noise")
        #expect(cells["published"]?["harness write"] == "none: < plain")
        #expect(cells["custom"]?["harness read"] == "none: ≈ plain")
        let printed = table.text()
        #expect(printed.range(of: "[-−][0-9]+%", options: .regularExpression) == nil, "no negative share: \(printed)")
        #expect(
            table.footnotes.contains { $0.contains("observable write: 49.6 ns via the protocol, 60.3 ns concrete, net of plain: the concrete loop is slower, no share") },
            "\(table.footnotes)")
        #expect(
            table.footnotes.contains { $0.contains("published write: -1.00 ns via the protocol, 0.50 ns concrete, net of plain: the protocol path is below plain's, no share") })
        #expect(printed.split(separator: "\n").allSatisfy { $0.count <= SummaryTable.width })
    }

    static let sizes = [1, 10, 100, 1_000, 10_000]

    /// A sweep's latency rows: (median, low, high) per S.
    static func sweep(_ strategy: String, _ topology: ScalingTopology, _ points: [(Double, Double, Double)]) -> [ResultRow] {
        zip(sizes, points).map { size, point in
            // Three rounds (processes): the lowest, the median, the highest, so the point's interval is their range.
            timed("scaling-\(topology.rawValue)", strategy, point.0, point.1, point.2, suite: "scaling", subscribers: size, rounds: [point.1, point.0, point.2])
        }
    }

    @Test("scaling cells: cost per view within noise or signed, never clamped; a class only where the slope's interval decides one; a stopped sweep's lower bound")
    func scalingCells() throws {
        var rows: [ResultRow] = []
        // Flat, every median within the others' noise: no cost per view, and O(1) (the last decade's interval is all below 0.2).
        rows += Self.sweep("observations", .unrelated, [(337.1, 336.1, 338.4), (335.6, 334.7, 336.2), (336, 335.3, 336.8), (337.9, 336.9, 340.1), (338, 337.1, 341.1)])
        // Noise at the last point (b = 0.015 ns/view, last decade S^0.16, printed "O(S^0.2)" before): no figure is supported.
        rows += Self.sweep("observations", .pending, [(337, 330, 345), (336, 330, 345), (338, 330, 345), (335, 330, 345), (490, 340, 700)])
        // Falling beyond the points' intervals but by a tenth over the sweep: within noise (a regime change moves a flat sweep further), O(1).
        rows += Self.sweep("observations", .disjoint, [(999.99, 999, 1_001), (999.9, 999, 1_001), (999, 998, 1_000), (990, 989, 991), (900, 899, 901)])
        // Falling to a twentieth, in a straight line: a negative cost per view, signed (was clamped to "0.00 ns"), and O(1).
        rows += Self.sweep("published", .disjoint, [(1_999.81, 1_999, 2_001), (1_998.1, 1_997, 1_999), (1_981, 1_980, 1_982), (1_810, 1_809, 1_811), (100, 99, 101)])
        // Growing: observable, shared (a real sweep): 1.94 µs per view, its last decade S^1.16–1.24.
        rows += Self.sweep(
            "observable", .shared,
            [
                (1_230.8, 1_225.1, 1_249.1), (11_177.8, 11_166.2, 11_230.2), (121_214.6, 121_025.5, 121_833.6), (1_217_550, 1_210_330, 1_241_105),
                (19_270_863, 18_108_525, 20_971_201),
            ])
        // A wide last point: the exponent's range.
        rows += Self.sweep(
            "observable", .disjoint,
            [
                (1_308.8, 1_299.7, 1_318.5), (10_528.1, 10_501.4, 10_698.4), (114_650.5, 114_023.9, 115_620.7), (1_191_691.5, 1_173_900, 1_204_491),
                (26_215_989.5, 20_926_715.5, 31_444_843),
            ])
        // Stopped at S=1000: at least S^1.2 from the interval's lower end (1.24), not "≥ O(S)" whatever the slope.
        rows += Self.sweep(
            "grdb-pool", .shared, [(215_580.7, 207_819, 220_010.5), (465_988, 456_458.5, 474_731), (3_003_576, 2_881_384, 3_061_382), (58_438_527, 52_813_716, 72_492_576)])
        // Stopped at S=1000 after S^0.95: "≥ O(S^0.9)", not "≥ O(S)".
        rows += Self.sweep("grdb-pool", .disjoint, [(1.3e4, 1.29e4, 1.31e4), (1.2e5, 1.19e5, 1.21e5), (1e6, 0.99e6, 1.01e6), (9e6, 8.9e6, 9.1e6)])
        let tables = SummaryTable.scalingTables(of: .scaling, rows: rows, strategies: ["observations", "observable", "published", "grdb-pool"])
        let growth = Self.cells(tables[0])
        #expect(growth["observations"]?["scaling-unrelated"] == "within noise · O(1)")
        #expect(growth["observations"]?["scaling-pending"] == "within noise")
        #expect(growth["observations"]?["scaling-disjoint"] == "within noise · O(1)")
        #expect(growth["published"]?["scaling-disjoint"] == "-0.19 ns · O(1)")
        #expect(growth["observable"]?["scaling-shared"] == "1.94 µs · O(S^1.2)")
        #expect(growth["observable"]?["scaling-disjoint"] == "2.65 µs · O(S^1.2–1.4)")
        #expect(growth["grdb-pool"]?["scaling-shared"] == "59.14 µs · ≥ O(S^1.2)")
        #expect(growth["grdb-pool"]?["scaling-disjoint"]?.hasSuffix(" · ≥ O(S^0.9)") == true, "\(growth)")
        let largest = Self.cells(tables[1])
        #expect(largest["grdb-pool"]?["scaling-shared"] == "stopped at S=1000 (58.44 ms): ≥ O(S^1.2)")
        #expect(largest["observations"]?["scaling-pending"] == "490.0 ns")
        let printed = tables.map { $0.text() }.joined()
        #expect(!printed.contains("0.00 ns") && !printed.contains("O(S^0.2)"), "\(printed)")
        #expect(printed.split(separator: "\n").allSatisfy { $0.count <= SummaryTable.width }, "\(printed)")
    }

    @Test("a sweep measured in one process gets no cost per view and no class; a stopped sweep has one class in both tables")
    func oneProcessSweeps() throws {
        // struct-vm, shared, in the reference run: 6.75 µs per view, "O(S^1.5–1.6)", from one process's points.
        let points: [(Double, Double, Double)] = [
            (1_500, 1_490, 1_510), (14_000, 13_900, 14_100), (150_000, 149_000, 151_000), (4_700_000, 4_690_000, 4_710_000), (1.6e8, 1.59e8, 1.61e8),
        ]
        var rows = zip(Self.sizes, points).map { size, point in
            Self.timed("scaling-shared", "struct-vm", point.0, point.1, point.2, suite: "scaling", subscribers: size, rounds: [point.0])
        }
        // A stopped sweep, one process: no class in either table.
        rows += zip(Self.sizes.prefix(4), points.prefix(4)).map { size, point in
            Self.timed("scaling-shared", "grdb-queue", point.0, point.1, point.2, suite: "scaling", subscribers: size, rounds: [point.0])
        }
        // The same stopped sweep in three processes: its class, the same in both tables.
        rows += Self.sweep("grdb-pool", .shared, points.prefix(4).map { ($0.0, $0.0 * 0.98, $0.0 * 1.02) })
        let tables = SummaryTable.scalingTables(of: .scaling, rows: rows, strategies: ["struct-vm", "grdb-queue", "grdb-pool"])
        let growth = Self.cells(tables[0]), largest = Self.cells(tables[1])
        #expect(growth["struct-vm"]?["scaling-shared"] == SummaryTable.oneProcessSweep)
        #expect(growth["grdb-queue"]?["scaling-shared"] == SummaryTable.oneProcessSweep)
        #expect(largest["grdb-queue"]?["scaling-shared"] == "stopped at S=1000 (4.70 ms)", "\(largest)")
        let poolClass = try #require(growth["grdb-pool"]?["scaling-shared"]?.components(separatedBy: " · ").last)
        #expect(poolClass.hasPrefix("≥ O(S"), "\(growth)")
        #expect(largest["grdb-pool"]?["scaling-shared"]?.hasSuffix(": " + poolClass) == true, "one sweep, one class: \(largest)")
    }

    /// A memory row of `metric` whose rounds (processes) gave `values`.
    static func memoryRow(_ strategy: String, _ metric: Metric, _ values: [Double], objects: Int = 1_000, subscribers: Int = 0) -> ResultRow {
        ResultRow(
            runID: "r", suite: "memory", workload: "w", strategy: strategy, executor: "main-actor", objects: objects, subscribers: subscribers, concurrency: 1,
            metric: metric, unit: metric.unit, statistics: Statistics(values), note: "jemalloc 5.3.0", rounds: values.count)
    }

    @Test("a count is exact only where every round gave it: a range where rounds differ, one process's said so; a figure that cannot be negative is never printed negative")
    func countsThatRepeat() throws {
        let rows = [
            // grdb-queue's allocations per write with one view in three runs: 190.80, 188.79, 197.65.
            Self.memoryRow("grdb-queue", .allocationsPerWrite, [190.80, 188.79, 197.65], subscribers: 1),
            Self.memoryRow("grdb-queue", .allocationsPerWrite, [39, 39, 39]),
            Self.memoryRow("grdb-queue", .peakBytesLeftAfterTeardown, [269_424, 269_424, 269_424]),
            Self.memoryRow("observations", .peakBytesLeftAfterTeardown, [195_520, 132_224, 116_480]),
            // Below zero by noise: ≈ 0, in one round or as the low end of a range.
            Self.memoryRow("observations", .viewedBytesPerObject, [-0.06, 12, 3]),
            Self.memoryRow("observations", .freshBytesPerObject, [-0.06, -0.06, -0.06]),
        ]
        let table = SummaryTable(memoryOf: .memory, rows: rows, strategies: ["grdb-queue", "observations"])
        let cells = Self.cells(table)
        let withView = try #require(table.columns.first { $0 == "allocs/write, 1 view" })
        #expect(cells["grdb-queue"]?[withView] == "188.79–197.65", "rounds that differ: their range, not a value labelled exact")
        #expect(cells["grdb-queue"]?["allocs/write"] == "39")
        #expect(cells["grdb-queue"]?["left after tear-down"] == "269424 B")
        #expect(cells["observations"]?["left after tear-down"] == "116480 B–195520 B")
        let viewed = try #require(table.columns.first { $0.hasPrefix("with a view") })
        #expect(cells["observations"]?[viewed] == "≈ 0–12 B")
        let fresh = try #require(table.columns.first { $0.hasPrefix("B/object") })
        #expect(cells["observations"]?[fresh] == "≈ 0")
        #expect(table.footnotes.contains { $0.contains("exact where all 3 rounds") }, "\(table.footnotes)")
        #expect(table.footnotes.contains { $0.contains("left after tear-down") && $0.contains("a range where they differ") }, "\(table.footnotes)")
        #expect(!table.footnotes.contains { $0.contains("(gated as an exact count)") })
        #expect(!table.text().contains("-0.06") && !table.text().contains("−0.06"))
        #expect(SummaryTable.countFigure(Self.memoryRow("observations", .retainedBytesPerWrite, [-0.06]), format: NumberFormat.bytes) == "≈ 0")
        #expect(SummaryTable.countFigure(Self.memoryRow("grdb-queue", .allocationsPerWrite, [190.80]), format: NumberFormat.count) == "190.80")
        #expect(!Self.memoryRow("grdb-queue", .allocationsPerWrite, [190.80]).isRepeatedExactly, "one process's count is not known to repeat")
        #expect(Self.memoryRow("grdb-queue", .allocationsPerWrite, [39, 39]).isRepeatedExactly)

        // Every leftover from one process: the footnote says so, and that the gate still judges it exactly.
        let one = SummaryTable(memoryOf: .memory, rows: [Self.memoryRow("observations", .peakBytesLeftAfterTeardown, [195_520])], strategies: ["observations"])
        #expect(one.footnotes.contains { $0.hasPrefix("each figure is one worker process's count") }, "\(one.footnotes)")
        #expect(one.footnotes.contains { $0.contains("left after tear-down") && $0.contains("one process's count, not shown to repeat") }, "\(one.footnotes)")
        // Every round alike: exact, and gated as one.
        let exact = SummaryTable(memoryOf: .memory, rows: [Self.memoryRow("plain", .peakBytesLeftAfterTeardown, [0, 0])], strategies: ["plain"])
        #expect(exact.footnotes.contains { $0.contains("every round gave the same count: gated as an exact count") }, "\(exact.footnotes)")
    }

    @Test("the fits' intervals: b widened by the scatter about the line, the last decade's from its two medians")
    func fitIntervals() throws {
        // On a line, points exact: b's interval is b.
        let line: [GrowthFit.IntervalPoint] = [(1, 12, 12, 12), (10, 30, 30, 30), (100, 210, 210, 210)]
        let exact = try #require(GrowthFit.linearSlopeInterval(line))
        #expect(abs(exact.lowerBound - 2) < 1e-9 && abs(exact.upperBound - 2) < 1e-9)
        // Exact medians that scatter about the line: the t interval (df 1) covers zero.
        let scattered: [GrowthFit.IntervalPoint] = [(1, 100, 100, 100), (10, 140, 140, 140), (100, 105, 105, 105)]
        #expect(try #require(GrowthFit.linearSlopeInterval(scattered)).contains(0))
        // b beyond noise needs its interval clear of zero and a rise over the sweep of at least its smallest median.
        let doubled: [GrowthFit.IntervalPoint] = [(1, 100, 99, 101), (10, 109.9, 108.9, 110.9), (100, 208.9, 207.9, 209.9)]
        let tenth: [GrowthFit.IntervalPoint] = [(1, 100, 99, 101), (10, 101, 100, 102), (100, 110, 109, 111)]
        #expect(try #require(GrowthFit.costPerView(doubled)).beyondNoise)
        #expect(try #require(GrowthFit.costPerView(tenth)).beyondNoise == false)
        #expect(try #require(GrowthFit.costPerView(tenth)).interval.lowerBound > 0, "its interval alone would call it growth")
        // The last decade from the two largest points' intervals, crossed.
        let decade = try #require(GrowthFit.lastStepSlopeInterval([(1, 1, 1, 1), (10, 10, 9, 11), (100, 100, 90, 110)]))
        #expect(abs(decade.lowerBound - log10(90.0 / 11)) < 1e-9 && abs(decade.upperBound - log10(110.0 / 9)) < 1e-9)
        #expect(GrowthFit.lastStepSlopeInterval([(10, 1, 0, 2), (100, 5, 4, 6)]) == nil, "an interval down to 0 bounds no logarithm")
        // The class rule.
        #expect(GrowthFit.supportedLabel(slopeInterval: -0.1...0.15, grows: false) == "O(1)")
        #expect(GrowthFit.supportedLabel(slopeInterval: -0.1...0.35, grows: false) == nil)
        #expect(GrowthFit.supportedLabel(slopeInterval: 0.3...0.5, grows: false) == nil, "the line's b does not grow beyond noise")
        #expect(GrowthFit.supportedLabel(slopeInterval: 0.9...1.1, grows: true) == "O(S)")
        #expect(GrowthFit.supportedLabel(slopeInterval: 1.84...2.1, grows: true) == "O(S²)")
        #expect(GrowthFit.supportedLabel(slopeInterval: 0.6...1.3, grows: true) == "O(S^0.6–1.3)")
        #expect(GrowthFit.supportedLabel(slopeInterval: 1.02...1.3, grows: true, stopped: true) == "≥ O(S)")
        #expect(GrowthFit.supportedLabel(slopeInterval: 2.05...2.3, grows: true, stopped: true) == "≥ O(S²)")
        #expect(GrowthFit.supportedLabel(slopeInterval: 0.05...0.15, grows: true, stopped: true) == nil, "a stopped sweep gets no O(1), and a lower bound under 0.1 says nothing")
    }

    @Test("a regression of a few bytes per store is printed with the digits that show it, and its change is not \"+0.0%\"")
    func smallChangesAreShown() {
        #expect(NumberFormat.compared(41.2, 41.216) == ("41.2", "41.216"))
        #expect(NumberFormat.compared(41.2, 41.2) == ("41.2", "41.2"))
        #expect(NumberFormat.compared(493.0, 494.6) == ("493", "494.6"))
        #expect(NumberFormat.change(16.0 / 41_200) == "+0.039%")
        #expect(NumberFormat.change(0) == "+0.0%")
        #expect(NumberFormat.change(0.021) == "+2.1%")
    }
}
