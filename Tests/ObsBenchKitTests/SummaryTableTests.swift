import Foundation
import Testing

@testable import ObsBenchKit

/// The terminal tables: never wider than 120 columns, no comparison with a value that does not
/// differ from the empty loop, and a scaling sweep that stops only where its growth is decided.
/// (Cells whose intervals cross: `UncertainFiguresTests`.)
@Suite("Summary tables")
struct SummaryTableTests {
    static func latencyRow(_ workload: String, _ strategy: String, median: Double, p10: Double, objects: Int = 1_000) -> ResultRow {
        var statistics = Statistics(exact: median)
        statistics.p10 = p10
        return ResultRow(
            runID: "r", suite: "latency", workload: workload, strategy: strategy, executor: "main-actor", objects: objects, subscribers: 0, concurrency: 1,
            metric: .latency, unit: Metric.latency.unit, statistics: statistics)
    }

    @Test("a table wider than 120 columns prints in parts that each fit and repeat the row label")
    func splitsToWidth() {
        let columns = (1...9).map { "a-rather-long-column-\($0)" }
        let table = SummaryTable(
            suite: "memory", columns: columns, unit: "B", rows: [("observable-context", columns.map { _ in "1234.5 B" }), ("plain", columns.map { _ in "1 B" })])
        let lines = table.text().split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= SummaryTable.width })
        #expect(table.columnParts.count == 3)  // 4 + 3 + 2 would also fit; 3 + 3 + 3 is as even
        #expect(table.columnParts.flatMap { $0 } == Array(columns.indices))
        #expect(table.columnParts.map(\.count) == [3, 3, 3])
        #expect(lines.filter { $0.hasPrefix("observable-context") }.count == 3)
        // A long footnote wraps, continuation indented.
        var noted = table
        noted.footnotes = [String(repeating: "word ", count: 60)]
        #expect(noted.text().split(separator: "\n").allSatisfy { $0.count <= SummaryTable.width })
    }

    /// Every row of `rows` but the floors' (`plain`, the default-actor hop) with its figures
    /// multiplied by `factor`: the ratios to the floor grow with it, and the values cross units.
    static func scaled(_ rows: [ResultRow], by factor: Double) -> [ResultRow] {
        rows.map { row in
            guard row.strategy != RowKey.floorStrategy, row.executor != "default-actor", var statistics = row.statistics else { return row }
            for path in [\Statistics.median, \.p10, \.p90, \.p99, \.min, \.max, \.mean, \.ci95Low, \.ci95High] {
                statistics[keyPath: path] *= factor
            }
            var scaled = row
            scaled.statistics = statistics
            return scaled
        }
    }

    @Test(
        "every suite's tables fit in 120 columns at the widest values a run can produce: the committed full run and instruction baseline, every figure but the floors' multiplied by 10^k",
        arguments: ["results/reference/all-2026-11-26T20-38-09Z", "results/baseline-instructions"], [1e-3, 1, 1e3, 1e6, 1e9])
    func widestValues(run: String, factor: Double) throws {
        let rows = Self.scaled(try ExportTests.load(run).rows, by: factor)
        var strategies: [String] = []
        for row in rows where row.strategy != "-" && !strategies.contains(row.strategy) { strategies.append(row.strategy) }
        var printed = 0
        for suite in SuiteRegistry.all {
            for table in SummaryTable.tables(suite: suite, rows: rows.filter { $0.suite == suite.name }, strategies: strategies) {
                let lines = table.text().split(separator: "\n")
                printed += lines.count
                for line in lines where line.count > SummaryTable.width {
                    Issue.record("\(suite.name) at ×\(factor): \(line.count) columns: \(line)")
                }
            }
        }
        #expect(printed > 0)
    }

    @Test("a concrete loop the optimiser removed prints as ≈ empty loop, is noted, and is never a ratio's floor")
    func indistinguishableValues() {
        let removed = Self.latencyRow("read-untracked-concrete", "plain", median: 0.002, p10: 0)
        let real = Self.latencyRow("read-untracked-concrete", "observable", median: 18.7, p10: 17.9)
        // Noisy but clearly above zero: a tenth of samples at zero, median 70 ns (read-in-view, 1 op per sample).
        let noisy = Self.latencyRow("read-in-view", "observable", median: 70, p10: 0)
        #expect(removed.isIndistinguishableFromEmptyLoop)
        #expect(!real.isIndistinguishableFromEmptyLoop && !noisy.isIndistinguishableFromEmptyLoop)
        #expect(removed.notingIndistinguishable().note.contains("not distinguishable from the empty loop"))
        #expect(SummaryTable.costCell(removed, floor: nil, measure: .time) == ResultRow.indistinguishableText)
        #expect(SummaryTable.costCell(real, floor: removed, measure: .time) == "18.7 ns")
        // Against a floor of a few ns, the net difference and no ratio; each from six rounds that agree.
        func inRounds(_ row: ResultRow) -> ResultRow {
            var row = row
            row.roundValues = UncertainFiguresTests.byRound(Array(repeating: row.value!, count: 6))
            return row
        }
        let floorOfAFew = inRounds(Self.latencyRow("x", "plain", median: 1.87, p10: 1.5))
        #expect(SummaryTable.costCell(inRounds(real), floor: floorOfAFew, measure: .time) == "18.7 ns (+16.8 ns)")
        #expect(SummaryTable.costCell(inRounds(real), floor: inRounds(Self.latencyRow("x", "plain", median: 12, p10: 11)), measure: .time) == "18.7 ns (+6.70 ns, ×1.56)")
        // Without the rounds (a results.csv alone), no comparison.
        #expect(SummaryTable.costCell(real, floor: floorOfAFew, measure: .time) == "18.7 ns (not compared: rounds unknown)")

        let rows = [
            removed, real, Self.latencyRow("read-untracked", "plain", median: 4, p10: 3), Self.latencyRow("read-untracked", "observable", median: 27, p10: 25),
            Self.latencyRow("scan-all", "plain", median: 27_000, p10: 26_000, objects: 10_000),
        ]
        let tables = SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observable"])
        #expect(tables.map(\.title) == ["", "latency · concrete loops", "latency · scans"])
        #expect(tables[1].columns.first == "read-untracked")
        #expect(tables[1].rows.first?.cells.first == ResultRow.indistinguishableText)
        #expect(!tables.map { $0.text() }.joined().contains("×2661"))
    }

    @Test("a table names what its cells are: the median of a timing, the mean over layouts of a count made in several, and shows that mean")
    func statisticNamed() {
        func counted(_ strategy: String, _ layouts: [Double]) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: "read-untracked", strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: 0, concurrency: 1,
                metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics(layouts), rounds: layouts.count)
        }
        let timed = [Self.latencyRow("read-untracked", "plain", median: 4, p10: 3), Self.latencyRow("read-untracked", "observable", median: 27, p10: 25)]
        #expect(SummaryTable.latencyTables(of: .latency, rows: timed, strategies: ["plain", "observable"])[0].heading == "latency — median ns/op (net of plain, × plain)")
        // Layouts 270, 280, 290, 300, 1,000: median 290, mean 428.
        let rows = timed + [counted("plain", [66, 66, 66, 66, 66]), counted("observable", [270, 280, 290, 300, 1_000])]
        let table = SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "observable"])[0]
        #expect(table.heading == "latency — median ns/op · mean Ir/op over 5 layouts (net of plain, × plain)")
        #expect(table.rows.last?.cells.first?.contains("428 Ir") == true, "\(table.rows)")
    }

    @Test("an instruction count takes × plain only against a floor of 100 Ir/op or more, and the table says so; the net is printed either way")
    func instructionFloorTakesRatioOnlyAboveTheHarness() throws {
        func counted(_ workload: String, _ strategy: String, _ value: Double) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: workload, strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: 0, concurrency: 1,
                metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics([value, value, value]), rounds: 3)
        }
        // results/baseline-instructions: plain's write-unobserved 35 Ir (state-subject ×2030), write-observed 497 Ir.
        let rows = [
            counted("write-unobserved", "plain", 35), counted("write-unobserved", "state-subject", 71_043),
            counted("write-observed", "plain", 497), counted("write-observed", "state-subject", 79_649),
        ]
        let table = try #require(SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "state-subject"]).first)
        let cells = try #require(table.rows.last?.cells)
        #expect(cells == ["71043 Ir (+71008 Ir)", "79649 Ir (+79152 Ir, ×160)"], "\(cells)")
        #expect(table.footnotes.contains(SummaryTable.instructionFloorFootnote))
        #expect(SummaryTable.minimumInstructionFloorForRatio == 100)
    }

    @Test("a table of counts says which threads were counted only where its rows' notes say the main thread alone")
    func countedThreadsSaid() throws {
        func counted(_ strategy: String, note: String) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: "write-unobserved", strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: 0,
                concurrency: 1, metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics([35, 35]), note: note, rounds: 2)
        }
        func footnotes(_ rows: [ResultRow]) throws -> [String] {
            try #require(SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "grdb-queue"]).first).footnotes
        }
        // Made since: plain's row counted its main thread, grdb-queue's every thread.
        let now = [counted("plain", note: "x; \(CountedThreads.mainThread.note); 3 repeats"), counted("grdb-queue", note: "x; \(CountedThreads.all.note); 3 repeats")]
        #expect(try footnotes(now).contains(SummaryTable.countedThreadsFootnote))
        // Made before (every row's note: "Callgrind, every thread"): no such footnote.
        let before = [counted("plain", note: "x; Callgrind, every thread; 3 repeats"), counted("grdb-queue", note: "x; Callgrind, every thread; 3 repeats")]
        #expect(try !footnotes(before).contains(SummaryTable.countedThreadsFootnote))
    }

    @Test("a count that is the mean over many records is marked beside counts of record 1, and a footnote says which is which")
    func drawnCellsMarked() throws {
        func counted(_ strategy: String, _ value: Double, records: Int?) -> ResultRow {
            let method = records.map { Counted.drawnNote(records: $0) + ", (Ir at 80 ops − Ir at 20) / 60 on each" } ?? "(Ir at 600 ops − Ir at 200) / 400, 3 repeats"
            return ResultRow(
                runID: "r", suite: "latency", workload: "write-observed", strategy: strategy, executor: "main-actor", objects: 1_000, subscribers: 0, concurrency: 1,
                metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics([value, value]), note: "Callgrind, every thread; \(method)",
                rounds: 2)
        }
        let rows = [counted("plain", 600, records: 80), counted("grdb-queue", 60_000, records: nil)]
        #expect(rows.map(\.drawnRecords) == [80, nil])
        let table = try #require(SummaryTable.latencyTables(of: .latency, rows: rows, strategies: ["plain", "grdb-queue"]).first)
        #expect(table.rows.map { $0.cells.first ?? "" } == ["600 Ir\(SummaryTable.drawnMark)", "60000 Ir (+59400 Ir, ×100)"], "\(table.rows)")
        #expect(table.footnotes.contains { $0.hasPrefix("\(SummaryTable.drawnMark) the mean over records 1–80") }, "\(table.footnotes)")
        // Counted on record 1 alone (--draws 1), nothing is marked and no drawn footnote is needed.
        let undrawn = try #require(SummaryTable.latencyTables(of: .latency, rows: [counted("plain", 600, records: nil)], strategies: ["plain"]).first)
        #expect(!undrawn.footnotes.contains { $0.hasPrefix(SummaryTable.drawnMark) } && undrawn.rows.first?.cells.first?.contains(SummaryTable.drawnMark) == false)
    }

    @Test("a sweep stops before a costly point only once its last decade grew as S^0.9 or steeper")
    func scalingStopsWhenDecided() {
        // GRDB, shared topology: 3.7 ms at S=100, 113 ms at S=1000 (slope 1.49); S=10000 would take seconds.
        let superlinear: [(subscribers: Int, nanoseconds: Double)] = [(10, 417e3), (100, 3.68e6), (1_000, 113e6)]
        let stop = SubscriberScalingWorkload.stopsBefore(10_000, after: superlinear)
        #expect(stop != nil)
        #expect(abs((stop?.slope ?? 0) - 1.49) < 0.01)
        // Growing more slowly than S^0.9 (fixed costs still dominate) to the same cost: the next point is measured.
        #expect(SubscriberScalingWorkload.stopsBefore(10_000, after: [(100, 28e6), (1_000, 113e6)]) == nil)
        // Steep enough but cheap (observations, 3.3 ms at S=1000): measured.
        #expect(SubscriberScalingWorkload.stopsBefore(10_000, after: [(100, 335e3), (1_000, 3.3e6)]) == nil)
        // GRDB at S=100 on a noisy run (slope 1.22 from S=10): S=1000 is still cheap enough to measure.
        #expect(SubscriberScalingWorkload.stopsBefore(1_000, after: [(10, 417e3), (100, 6.9e6)]) == nil)
        // The rule is the code's 0.9, not "linear": S^0.95 to a costly point stops, S^0.85 does not.
        #expect(SubscriberScalingWorkload.stopSlope == 0.9)
        #expect(SubscriberScalingWorkload.stopsBefore(10_000, after: [(100, 1e8 / pow(10, 0.95)), (1_000, 1e8)]) != nil)
        #expect(SubscriberScalingWorkload.stopsBefore(10_000, after: [(100, 1e8 / pow(10, 0.85)), (1_000, 1e8)]) == nil)
    }
}
