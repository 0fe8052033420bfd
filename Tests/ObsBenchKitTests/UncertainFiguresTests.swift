import Foundation
import Testing

@testable import ObsBenchKit

/// The tables print a comparison (net of plain, × plain, harness share, cost per view, growth
/// class) only where the rows' intervals support it: rows whose intervals cross, or whose floor is
/// a few ns, are fed to the tables and every cell is checked.
@Suite("Figures that carry their uncertainty")
struct UncertainFiguresTests {
    /// A timing with its median's 95% interval.
    static func timed(
        _ workload: String, _ strategy: String, _ median: Double, _ low: Double, _ high: Double, suite: String = "latency", subscribers: Int = 0
    ) -> ResultRow {
        var statistics = Statistics(exact: median)
        (statistics.ci95Low, statistics.ci95High, statistics.p10) = (low, high, low)
        return ResultRow(
            runID: "r", suite: suite, workload: workload, strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: subscribers, concurrency: 1,
            metric: .latency, unit: Metric.latency.unit, statistics: statistics)
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

    @Test("latency cells: net of plain first, ≈ plain where the intervals overlap, × plain only against a floor of 10 ns or more measured within 5%")
    func latencyCells() throws {
        let rows = [
            // A floor of a few ns: the net, never a ratio (×27.5 here, ×31 or ×25 in two real runs).
            Self.timed("write-unobserved", "plain", 2.0, 1.95, 2.05), Self.timed("write-unobserved", "observable", 55.0, 54.8, 55.2),
            Self.timed("write-unobserved", "struct-vm", 1.98, 1.9, 2.1),
            // Crossing intervals: ≈ plain, whatever the medians say.
            Self.timed("read-in-view", "plain", 1.6, 1.55, 1.65), Self.timed("read-in-view", "observable", 95.5, 95, 96),
            Self.timed("read-in-view", "struct-vm", 1.91, 1.64, 2.2),
            // A well-measured floor: net and ratio.
            Self.timed("write-observed", "plain", 40, 39.5, 40.5), Self.timed("write-observed", "observable", 1_200, 1_190, 1_210),
            Self.timed("write-observed", "struct-vm", 42, 41.6, 42.4),
            // A floor of 50 ns whose interval is ±20%: no ratio.
            Self.timed("transaction-2-fields", "plain", 50, 40, 60), Self.timed("transaction-2-fields", "observable", 2_000, 1_990, 2_010),
            Self.timed("transaction-2-fields", "struct-vm", 58, 57, 59),
            // Below plain beyond noise: a signed net.
            Self.timed("read-untracked", "plain", 3.8, 3.7, 3.9), Self.timed("read-untracked", "observable", 26.4, 26.2, 26.7),
            Self.timed("read-untracked", "struct-vm", 2.0, 1.9, 2.1),
        ]
        let tables = SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observable", "struct-vm"])
        let table = try #require(tables.first)
        let cells = Self.cells(table)
        #expect(cells["plain"]?["write-unobserved"] == "2.00 ns", "the floor's own cell compares with nothing")
        #expect(cells["observable"]?["write-unobserved"] == "55.0 ns (+53.0 ns)")
        #expect(cells["struct-vm"]?["write-unobserved"] == "1.98 ns (≈ plain)")
        #expect(cells["observable"]?["read-in-view"] == "95.5 ns (+93.9 ns)")
        #expect(cells["struct-vm"]?["read-in-view"] == "1.91 ns (≈ plain)")
        #expect(cells["observable"]?["write-observed"] == "1.20 µs (+1.16 µs, ×30)")
        #expect(cells["struct-vm"]?["write-observed"] == "42.0 ns (+2.00 ns, ×1.05)")
        #expect(cells["observable"]?["transaction-2-fields"] == "2.00 µs (+1.95 µs)")
        #expect(cells["struct-vm"]?["transaction-2-fields"] == "58.0 ns (≈ plain)")
        #expect(cells["observable"]?["read-untracked"] == "26.4 ns (+22.6 ns)")
        #expect(cells["struct-vm"]?["read-untracked"] == "2.00 ns (-1.80 ns)")
        #expect(table.footnotes.contains { $0.contains("× plain only where plain's interval is within ±5% of it") }, "\(table.footnotes)")
        for printed in tables { #expect(printed.text().split(separator: "\n").allSatisfy { $0.count <= SummaryTable.width }, "\(printed.text())") }
    }

    @Test("the comparison's own rule: net interval crossed, ratio only for a well-measured floor, instruction floors need no size")
    func comparisonRule() throws {
        let comparison = FloorComparison(measure: .time, value: 55, valueInterval: 54...56, floor: 2, floorInterval: 1.9...2.1)
        #expect(abs(comparison.netInterval.lowerBound - 51.9) < 1e-9 && abs(comparison.netInterval.upperBound - 54.1) < 1e-9)
        #expect(!comparison.isWithinNoise && !comparison.isFloorWellMeasured && comparison.ratio == nil)
        let touching = FloorComparison(measure: .time, value: 55, valueInterval: 50...56, floor: 45, floorInterval: 44...50)
        #expect(touching.isWithinNoise && touching.text(floorName: "plain") == "≈ plain")
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
        let rows = [
            Self.timed("read-untracked", "plain", 3.8, 3.7, 3.9), Self.timed("write-unobserved", "plain", 2.0, 1.9, 2.1),
            Self.timed("read-untracked-concrete", "plain", 0, 0, 0), Self.timed("write-unobserved-concrete", "plain", 0, 0, 0),
            // observable read: 22.6 ns via the protocol against 18.8 concrete, both beyond noise: 17%.
            Self.timed("read-untracked", "observable", 26.4, 26.2, 26.7), Self.timed("read-untracked-concrete", "observable", 18.8, 18.7, 18.9),
            // observable write: the concrete loop is slower (49.6 against 60.3 ns): no share (was "harness −22%").
            Self.timed("write-unobserved", "observable", 51.6, 51, 52), Self.timed("write-unobserved-concrete", "observable", 60.3, 60, 60.6),
            // published read: 128.2 against 128 ns, intervals crossing: within noise.
            Self.timed("read-untracked", "published", 132, 131, 133), Self.timed("read-untracked-concrete", "published", 128, 127, 129),
            // published write: below plain's through the protocol: no share is defined.
            Self.timed("write-unobserved", "published", 1.0, 0.9, 1.1), Self.timed("write-unobserved-concrete", "published", 0.5, 0.4, 0.6),
            // custom read: the protocol path within plain's noise: no share (was 0% or a huge one).
            Self.timed("read-untracked", "custom", 3.85, 3.75, 3.95), Self.timed("read-untracked-concrete", "custom", 1, 0.9, 1.1),
            // custom write: 10 ns via the protocol against 9.6 concrete, both narrow: a small share, beyond noise.
            Self.timed("write-unobserved", "custom", 12, 11.99, 12.01), Self.timed("write-unobserved-concrete", "custom", 9.6, 9.59, 9.61),
            Self.counted("read-untracked", "plain", [66, 66, 66]), Self.counted("read-untracked-concrete", "plain", [3, 3, 3]),
            Self.counted("read-untracked", "observable", [279, 280, 281]), Self.counted("read-untracked-concrete", "observable", [193, 194, 195]),
            Self.counted("read-untracked", "published", [1_650, 1_660, 1_670]), Self.counted("read-untracked-concrete", "published", [1_590, 1_600, 1_655]),
        ]
        let shares = HarnessShare.all(in: rows)
        func share(_ strategy: String, _ operation: String, _ measure: CostMeasure) throws -> HarnessShare {
            try #require(shares.first { $0.strategy == strategy && $0.operation == operation && $0.measure == measure })
        }
        guard case .share(let fraction) = try share("observable", "read", .time).reading else { Issue.record("no share"); return }
        #expect(abs(fraction - 3.8 / 22.6) < 1e-9)
        #expect(try share("observable", "read", .time).cell == "17%")
        #expect(try share("observable", "write", .time).cell == "concrete slower")
        #expect(try share("published", "read", .time).cell == "within noise")
        #expect(try share("published", "write", .time).cell == "none: < plain")
        #expect(try share("custom", "read", .time).cell == "none: ≈ plain")
        #expect(try share("published", "write", .time).share.isNaN, "no share is defined below plain")
        #expect(try share("custom", "write", .time).cell == "4%")
        // Counted in layouts: near-exact ranges. observable 214 ± 1 against 191 ± 1: 11%; published's ranges cross.
        #expect(try share("observable", "read", .instructions).cell == "11%")
        #expect(try share("published", "read", .instructions).cell == "within noise")

        let table = try #require(
            SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observable", "published", "custom"]).first { $0.title.hasSuffix("concrete loops") })
        let cells = Self.cells(table)
        #expect(cells["observable"]?["harness read"] == "17% · 11%")
        #expect(cells["observable"]?["harness write"] == "concrete slower")
        #expect(cells["published"]?["harness read"] == "within noise · within noise")
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
            timed("scaling-\(topology.rawValue)", strategy, point.0, point.1, point.2, suite: "scaling", subscribers: size)
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
}
