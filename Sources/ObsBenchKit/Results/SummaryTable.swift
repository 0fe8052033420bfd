import Foundation

/// The end-of-run summary of one suite: a row per strategy (or, for a suite that measures none,
/// per isolation kind, store or probe) with the suite's own figures, built by the suite's `table`
/// (latency: each workload's median and its ratio to `plain` measured in the same run).
public struct SummaryTable: Sendable {
    public var suite: String
    public var columns: [String]
    /// What the cells hold, printed after the suite's name.
    public var unit: String
    /// What the first column names: a strategy, or (hops) an isolation kind.
    public var rowLabel = "strategy"
    /// Strategy name, then one cell per column.
    public var rows: [(strategy: String, cells: [String])]
    /// Lines printed under the table (figures that are not per strategy).
    public var footnotes: [String] = []

    /// Builds the table of `suite` from `rows`: the suite's own (see `Suite.table`).
    public init(suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self = suite.table(suite, allRows, strategies)
    }

    /// The cost measures `suite`'s rows carry, time first; time when there are none yet.
    static func costMeasures(in rows: [ResultRow], suite: String) -> [CostMeasure] {
        let found = CostMeasure.allCases.filter { measure in rows.contains { $0.suite == suite && $0.metric == measure.metric.name } }
        return found.isEmpty ? [.time] : found
    }

    static func units(_ measures: [CostMeasure]) -> String {
        measures.map(\.metric.unit).joined(separator: " · ")
    }

    /// One cell per measure, joined: "1.2 µs (×3.4) · 824 Ir (×12)"; `value` gives a measure's
    /// value and the floor it is held against.
    static func costCell(measures: [CostMeasure], failed: Bool, _ value: (CostMeasure) -> (Double?, floor: Double?)) -> String {
        let parts = measures.map { measure -> String? in
            let (value, floor) = value(measure)
            guard let value else { return nil }
            return costCell(value, floor: floor, measure: measure)
        }
        guard parts.contains(where: { $0 != nil }) else { return failed ? "error" : "—" }
        return parts.map { $0 ?? "—" }.joined(separator: " · ")
    }

    /// What the memory table's numbers are, from what the rows say was used: jemalloc's exact
    /// counters, or glibc's `mallinfo2` (chunk bytes, headers included, no allocation counts).
    static func memoryUnit(notes: [String]) -> String {
        let glibc = MemoryProbe.Allocator.glibc.description
        let usedGlibc = notes.contains { $0.contains(glibc) }
        let usedJemalloc = notes.contains { $0.hasPrefix("jemalloc ") }
        switch (usedJemalloc, usedGlibc) {
        case (true, false): return "bytes (B) and allocations, exact counts from jemalloc's own counters"
        case (false, true): return "bytes (B) from glibc's mallinfo2 (chunk bytes, headers included; no allocation counts): jemalloc was not found"
        case (true, true): return "bytes (B) and allocations: jemalloc's counters in some rows, glibc's mallinfo2 in others (see each row's note)"
        case (false, false): return "bytes (B) and allocations"
        }
    }

    /// A cost and, when the floor it is held against was measured, its ratio to it: "1.2 µs (×3.4)", "824 Ir (×12)".
    static func costCell(_ value: Double, floor: Double?, measure: CostMeasure) -> String {
        let text = measure == .time ? NumberFormat.nanoseconds(value) : NumberFormat.instructions(value)
        guard let floor, floor > 0 else { return text }
        return text + " (×" + NumberFormat.ratio(value / floor) + ")"
    }

    /// A plain-text table with aligned columns, its unit above and its footnotes below.
    public func text() -> String {
        "\(suite) — \(unit)\n" + textTable.text() + footnotes.map { $0 + "\n" }.joined()
    }

    /// A GitHub-flavoured markdown table.
    public func markdown() -> String {
        "### \(suite) — \(unit)\n\n" + textTable.markdown() + footnotes.map { "\n" + $0 + "\n" }.joined()
    }

    private var textTable: TextTable {
        TextTable(header: [rowLabel] + columns, rows: rows.map { [$0.strategy] + $0.cells }, alignment: .numbers)
    }
}
