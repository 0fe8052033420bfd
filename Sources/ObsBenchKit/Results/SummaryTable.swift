import Foundation
import ObservationStrategies

/// One table of a suite's summary, printed when the suite is done (``SummaryStream``): a row per strategy (or, for a suite that measures
/// none, per isolation kind, store or probe) with the suite's own figures, built by the suite's
/// `tables` (latency: the operations' medians, net of `plain` measured in the same run and, where
/// `plain` is well measured, their ratios to it; the concrete loops and harness shares; the scans).
///
/// Printed, a table never runs wider than ``width`` columns: a table with more columns than fit
/// is printed in parts, each repeating the row label, and long lines are wrapped.
public struct SummaryTable: Sendable {
    public var suite: String
    /// What the table shows, printed before its unit: the suite's name, or e.g. "latency · scans".
    public var title: String = ""
    public var columns: [String]
    /// What the cells hold, printed after the suite's name.
    public var unit: String
    /// What the first column names: a strategy, or (hops) an isolation kind.
    public var rowLabel = "strategy"
    /// Strategy name, then one cell per column.
    public var rows: [(strategy: String, cells: [String])]
    /// Lines printed under the table (figures that are not per strategy).
    public var footnotes: [String] = []

    /// The widest line a printed table may have, in columns.
    public static let width = 120

    /// The tables of `suite` from `rows`: the suite's own (see `Suite.tables`), the first with a
    /// footnote for each declaration of a strategy that `suite`'s rows contradict
    /// (``DeclarationCheck``), declarations from `descriptors` (else the built-in strategies').
    public static func tables(suite: Suite, rows allRows: [ResultRow], strategies: [String], descriptors: [StrategyDescriptor] = []) -> [SummaryTable] {
        var tables = suite.tables(suite, allRows, strategies)
        let contradictions = DeclarationCheck(rows: allRows.filter { strategies.contains($0.strategy) }, descriptors: descriptors).contradictions(in: suite.name)
        if !tables.isEmpty { tables[0].footnotes += contradictions.map(DeclarationCheck.footnote) }
        return tables
    }

    /// The heading: title (or suite) and unit.
    public var heading: String { "\(title.isEmpty ? suite : title) — \(unit)" }

    /// The cost measures `suite`'s rows carry, time first; time when there are none yet.
    static func costMeasures(in rows: [ResultRow], suite: String) -> [CostMeasure] {
        let found = CostMeasure.allCases.filter { measure in rows.contains { $0.suite == suite && $0.metric == measure.metric } }
        return found.isEmpty ? [.time] : found
    }

    /// What a cost table's cells are, measure by measure: "median ns/op", or for instruction counts
    /// made in several memory layouts (``ResultRow/isMeanOverLayouts``) "mean Ir/op over 5 layouts".
    static func statistic(_ measures: [CostMeasure], rows: [ResultRow], suite: String) -> String {
        measures.map { measure in
            let layouts = rows.filter { $0.suite == suite && $0.metric == measure.metric && $0.isMeanOverLayouts }.map(\.rounds).max()
            return layouts.map { "mean \(measure.metric.unit) over \($0) layouts" } ?? "median \(measure.metric.unit)"
        }.joined(separator: " · ")
    }

    /// One cell per measure, joined: "1.2 µs (+0.85 µs, ×3.4) · 824 Ir (+758 Ir, ×12)"; `row` gives
    /// a measure's row and the row it is held against (nil: no comparison), see ``costCell(_:floor:measure:)``.
    static func costCell(measures: [CostMeasure], failed: Bool, _ row: (CostMeasure) -> (ResultRow?, floor: ResultRow?)) -> String {
        let parts = measures.map { measure -> String? in
            let (row, floor) = row(measure)
            guard let row, row.statistics != nil else { return nil }
            return costCell(row, floor: floor, measure: measure)
        }
        guard parts.contains(where: { $0 != nil }) else { return failed ? "error" : "—" }
        return parts.map { $0 ?? "—" }.joined(separator: " · ")
    }

    /// What the memory table's numbers are, from what the rows say was used: jemalloc's exact
    /// counters, or glibc's `mallinfo2` (chunk bytes, headers included, no allocation counts), and
    /// that each comes from one worker process (the memory suite runs one per strategy).
    static func memoryUnit(notes: [String]) -> String {
        let glibc = MemoryProbe.Allocator.glibc.description
        let usedGlibc = notes.contains { $0.contains(glibc) }
        let usedJemalloc = notes.contains { $0.hasPrefix("jemalloc ") }
        switch (usedJemalloc, usedGlibc) {
        case (true, false):
            return "bytes (B) and allocations from jemalloc's own counters, exact counts of each strategy's one worker process (not shown to repeat across processes)"
        case (false, true): return "bytes (B) from glibc's mallinfo2 (chunk bytes, headers included; no allocation counts): jemalloc was not found"
        case (true, true): return "bytes (B) and allocations: jemalloc's counters in some rows, glibc's mallinfo2 in others (see each row's note)"
        case (false, false): return "bytes (B) and allocations"
        }
    }

    /// Marks a count that is the mean over many records (``ResultRow/drawnRecords``), beside
    /// counts of record 1; ``drawnFootnote(rows:suite:)`` says what it means.
    static let drawnMark = "†"

    /// The footnote for cells marked ``drawnMark``, when `suite` has any.
    static func drawnFootnote(rows: [ResultRow], suite: String) -> String? {
        guard let records = rows.lazy.filter({ $0.suite == suite }).compactMap(\.drawnRecords).first else { return nil }
        return
            "\(drawnMark) the mean over records 1–\(records) in each layout (a synchronous strategy's read-in-view, write-observed and transaction-2-fields: each record's observer tables collide their own way); other counts are record 1's, the median of its pairs, and an unmarked count's comparison holds it against plain's mean over records (docs/gate.md, \"Draws\")"
    }

    /// A cost and, when the floor it is held against was measured and differs from the empty
    /// loop, how it compares (``FloorComparison``): "54.9 ns (+53.2 ns)", "1.26 µs (+1.22 µs, ×31)",
    /// "824 Ir (+758 Ir, ×12)", "22150 Ir† (+21.6 kIr, ×33)" for a count over many records
    /// (``drawnMark``), "1.91 ns (≈ plain)" where the two rows' intervals overlap; the floor's own
    /// cell has no comparison; "≈ empty loop" for a timing that does not differ from the empty loop.
    static func costCell(_ row: ResultRow, floor: ResultRow?, measure: CostMeasure) -> String {
        guard let value = row.value else { return "—" }
        if row.isIndistinguishableFromEmptyLoop { return ResultRow.indistinguishableText }
        let text = (measure == .time ? NumberFormat.nanoseconds(value) : NumberFormat.instructions(value)) + (row.drawnRecords == nil ? "" : drawnMark)
        guard let floor, RowKey(floor) != RowKey(row), let comparison = FloorComparison(row, floor: floor, measure: measure) else { return text }
        guard comparison.ratio != nil, measure == .instructions, comparison.floor < minimumInstructionFloorForRatio else {
            return text + " (" + comparison.text(floorName: floorName(floor)) + ")"
        }
        // The net alone: a floor this small is the call and the loop, not work to be a multiple of.
        return text + " (" + NumberFormat.signedInstructions(comparison.net) + ")"
    }

    /// An instruction count's floor below this (Ir/op) takes no "× plain": `plain`'s read-in-view
    /// (19 Ir) and write-unobserved (35 Ir) are the call through obsbench's protocol and the loop,
    /// and a ratio to them (`state-subject` write-unobserved ×2030) measures the harness, not
    /// `plain`'s work. Its write-observed (497 Ir) and transaction-2-fields (664 Ir) are above.
    public static let minimumInstructionFloorForRatio = 100.0

    /// The footnote of a table whose instruction cells hold a count against its floor.
    static let instructionFloorFootnote =
        "× plain of an instruction count only where plain's count is \(NumberFormat.count(minimumInstructionFloorForRatio)) Ir/op or more: below that, plain's count is mostly the call through obsbench's protocol and the loop (docs/profiles.md, \"Shares and ratios\")"

    /// The footnote of a table of counts made since synchronous strategies' workers count their
    /// main thread alone (``CountedThreads``, said in each row's note), so that a reader comparing
    /// a synchronous strategy with an asynchronous one knows what each count holds.
    static let countedThreadsFootnote =
        "Ir counted on the main thread alone for a synchronous strategy (its operation and its views' re-runs run there), on every thread for an asynchronous one (its delivery threads are part of its cost) (docs/method.md, \"Instruction counts: when to read them, and when time\")"

    /// What a comparison calls its floor: the strategy (`plain`), or for a row that measures none
    /// its executor (the isolation kind, `default-actor`).
    static func floorName(_ floor: ResultRow) -> String {
        floor.strategy == RowKey.noStrategy || floor.strategy.isEmpty ? floor.executor : floor.strategy
    }

    /// Plain text: the heading, the table (in parts of at most ``width`` columns, each repeating
    /// the row label) and the footnotes, lines wrapped at ``width``.
    public func text() -> String {
        var text = Self.wrap(heading)
        let parts = columnParts
        for (index, part) in parts.enumerated() {
            if index > 0 { text += "\(title.isEmpty ? suite : title) (part \(index + 1) of \(parts.count))\n" }
            text += TextTable(header: [rowLabel] + part.map { columns[$0] }, rows: rows.map { [$0.strategy] + part.map(cells: $0.cells) }, alignment: .numbers).text()
        }
        return text + footnotes.map { Self.wrap($0, indent: "  ") }.joined()
    }

    /// A GitHub-flavoured markdown table.
    public func markdown() -> String {
        "### \(heading)\n\n" + textTable.markdown() + footnotes.map { "\n" + $0 + "\n" }.joined()
    }

    private var textTable: TextTable {
        TextTable(header: [rowLabel] + columns, rows: rows.map { [$0.strategy] + $0.cells }, alignment: .numbers)
    }

    /// The columns' indices in as few consecutive runs as fit in ``width`` beside the row label,
    /// as even in length as fits.
    var columnParts: [[Int]] {
        let labelWidth = ([rowLabel] + rows.map(\.strategy)).map(\.count).max() ?? 0
        let widths = columns.indices.map { column in ([columns[column]] + rows.map { $0.cells.indices.contains(column) ? $0.cells[column] : "" }).map(\.count).max() ?? 0 }
        /// Consecutive runs of at most `limit` columns each, a run closed early when the next column would not fit.
        func split(limit: Int) -> [[Int]] {
            var parts: [[Int]] = []
            var current: [Int] = []
            var used = labelWidth
            for column in columns.indices {
                if !current.isEmpty, current.count == limit || used + 2 + widths[column] > Self.width {
                    parts.append(current)
                    current = []
                    used = labelWidth
                }
                current.append(column)
                used += 2 + widths[column]
            }
            if !current.isEmpty || parts.isEmpty { parts.append(current) }
            return parts
        }
        let greedy = split(limit: Int.max)
        let even = split(limit: (columns.count + greedy.count - 1) / max(greedy.count, 1))
        return even.count == greedy.count ? even : greedy
    }

    /// `line` wrapped at word boundaries to ``width`` columns, continuation lines indented.
    static func wrap(_ line: String, indent: String = "  ") -> String {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if candidate.count > width, !current.isEmpty, !current.allSatisfy({ $0 == " " }) {
                lines.append(current)
                current = indent + word
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines.map { $0 + "\n" }.joined()
    }
}

extension Array where Element == Int {
    /// The cells at these indices ("" where a row has fewer).
    fileprivate func map(cells: [String]) -> [String] {
        map { cells.indices.contains($0) ? cells[$0] : "" }
    }
}
