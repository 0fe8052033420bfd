import ObservationStrategies

extension Suite {
    /// `--suite derived`: derived state (a searched, filtered, sorted list; a diamond; chains;
    /// fan-out; a dynamic dependency), in every derivation style each strategy has: time to
    /// quiescence per write, view re-runs, avoidable re-runs, evaluations and glitches, every
    /// view's output checked against a from-scratch computation first.
    public static let derived = Suite(
        name: "derived",
        summary: "derived state: filtered-sorted list, diamond, chain-D, fan-out-W, dynamic; ns per write to quiescence, re-runs, avoidable re-runs, evaluations, glitches",
        defaultObjects: 1_000,
        tables: { SummaryTable.derivedTables(of: $0, rows: $1, strategies: $2) },
        workloads: FilteredSortedWorkload.Write.allCases.map { FilteredSortedWorkload($0) as any Workload } + [DiamondWorkload() as any Workload]
            + ChainWorkload.depths.map { ChainWorkload(depth: $0) as any Workload } + FanOutWorkload.widths.map { FanOutWorkload(width: $0) as any Workload }
            + [DynamicWorkload() as any Workload]
    )
}

extension SummaryTable {
    /// The derived tables: per write, each workload's cost beside its view re-runs and avoidable
    /// re-runs ("1.2 µs · 181 r · 180 a"), for filtered-sorted's writes, the diamond and dynamic;
    /// then the growth over chain depth D and fan-out width W. A strategy's other derivation
    /// styles are rows of their own (`observable+cached`).
    static func derivedTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let rows = allRows.filter { $0.suite == suite.name }
        guard !rows.isEmpty else { return [] }
        let measures = costMeasures(in: rows, suite: suite.name)
        let workloads = suite.workloads.map(\.name)
        // Each strategy's styles, as its rows name them: "" for its usual one, "+cached" for another.
        func styles(of strategy: String) -> [String] {
            var found = [""]
            for row in rows where row.strategy == strategy {
                guard let base = workloads.first(where: { DerivedRows.isRow(row.workload, of: $0) }) else { continue }
                let suffix = String(row.workload.dropFirst(base.count))
                if !found.contains(suffix) { found.append(suffix) }
            }
            return found
        }
        let labels = strategies.flatMap { strategy in styles(of: strategy).map { (strategy, $0) } }
        func cell(_ strategy: String, _ workload: String, counts: Bool) -> String {
            let failed = rows.contains { $0.strategy == strategy && $0.isError && ($0.workload == workload || $0.workload == RowKey.allWorkloads) }
            let error = rows.first { $0.strategy == strategy && $0.isError && $0.workload == workload }
            let cost = costCell(measures: measures, failed: failed) { measure in
                (rows.first(RowQuery(workload: workload, strategy: strategy, metric: measure.metric)), nil)
            }
            guard counts, error == nil else { return cost }
            // A store that observes nothing, where the write changes what a view shows: a row with no value.
            if let unmeasured = rows.first(RowQuery(workload: workload, strategy: strategy, metric: .rerunsPerWrite)), unmeasured.statistics == nil {
                return "not measurable"
            }
            func count(_ metric: Metric) -> String {
                rows.first(RowQuery(workload: workload, strategy: strategy, metric: metric))?.value.map(NumberFormat.compared) ?? "—"
            }
            // An instruction run writes no counts (the timing run does).
            guard rows.first(RowQuery(workload: workload, strategy: strategy, metric: .rerunsPerWrite)) != nil else { return cost }
            return "\(cost) · \(count(.rerunsPerWrite)) r · \(count(.avoidableRerunsPerWrite)) a"
        }
        let statistic = Self.statistic(measures, rows: rows, suite: suite.name)
        let perWrite = workloads.filter { !$0.hasPrefix("chain-") && !$0.hasPrefix("fan-out-") }
        var table = SummaryTable(
            suite: suite.name, columns: perWrite, unit: "\(statistic) per write to quiescence · view re-runs per write (r) · of them avoidable, showing nothing new (a)", rows: [])
        table.rows = labels.map { strategy, style in (strategy + style, perWrite.map { cell(strategy, $0 + style, counts: true) }) }
        table.footnotes.append(
            "every view's output was checked against a from-scratch computation over the store's records before a number was kept; \"error\": a check or a style failed; \"not measurable\": a store that observes nothing shows a stale value (the rows' notes say why)"
        )
        let growth = workloads.filter { $0.hasPrefix("chain-") || $0.hasPrefix("fan-out-") }
        var growthTable = SummaryTable(suite: suite.name, columns: growth, unit: "\(statistic) per write to quiescence · view re-runs per write (r) · avoidable (a)", rows: [])
        growthTable.title = "\(suite.name) · growth over depth D and width W"
        growthTable.rows = labels.map { strategy, style in (strategy + style, growth.map { cell(strategy, $0 + style, counts: true) }) }
        return [table, growthTable]
    }
}
