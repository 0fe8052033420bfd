import ObservationStrategies

extension RunReport {
    /// The derived suite's section: for each strategy and derivation style, the view re-runs
    /// filtered-sorted's five writes caused and how many of them showed nothing new, beside the
    /// diamond's glitches. Empty when the run has no derived rows. Follows the suites' tables.
    static func derivedSection(rows allRows: [ResultRow], strategies: [String]) -> [Block] {
        let rows = allRows.filter { $0.suite == Suite.derived.name }
        guard !rows.isEmpty else { return [] }
        let writes = FilteredSortedWorkload.Write.allCases.map { FilteredSortedWorkload($0).name }
        // (strategy, style suffix) in run order.
        var labels: [(strategy: String, style: String)] = []
        for strategy in strategies {
            for row in rows where row.strategy == strategy {
                guard let base = writes.first(where: { DerivedRows.isRow(row.workload, of: $0) }) else { continue }
                let style = String(row.workload.dropFirst(base.count))
                if !labels.contains(where: { $0 == (strategy, style) }) { labels.append((strategy, style)) }
            }
        }
        func value(_ strategy: String, _ workload: String, _ metric: Metric) -> Double? {
            rows.first(RowQuery(workload: workload, strategy: strategy, metric: metric))?.value
        }
        let table: [[String]] = labels.map { strategy, style in
            let reruns = writes.map { value(strategy, $0 + style, .rerunsPerWrite) }
            let avoidable = writes.map { value(strategy, $0 + style, .avoidableRerunsPerWrite) }
            let measured = zip(reruns, avoidable).compactMap { pair in pair.0.flatMap { r in pair.1.map { (r, $0) } } }
            let total = measured.map(\.0).reduce(0, +)
            let shown = measured.map(\.1).reduce(0, +)
            let glitches = value(strategy, DiamondWorkload().name + style, .glitchesPerWrite)
            return [
                strategy + style, "\(measured.count) of \(writes.count)", NumberFormat.compared(total), NumberFormat.compared(shown),
                total > 0 ? Self.avoidableShare(shown, of: total) : "—", glitches.map(NumberFormat.compared) ?? "—",
            ]
        }
        return [
            .heading(level: 2, text: "Derived state: re-runs that show nothing new"),
            .paragraph(
                "filtered-sorted's five writes (membership, order, an unread field, the same value, the query) over a searched, filtered, sorted list and a view per row, in each strategy's derivation styles: view re-runs per write summed over the writes measured, and how many of them were avoidable (the view showed what it showed before). A write that changes what a view shows is not measurable for a store observing nothing. Glitches: runs of the diamond's view showing values no single state produces. Every output was checked against a from-scratch computation first."
            ),
            .table(header: ["strategy", "writes measured", "re-runs", "avoidable", "avoidable share", "diamond glitches/write"], rows: table),
        ]
    }

    /// `part` of `total` as a percentage, to the nearest percent unless that would say all or none
    /// of them: 891 of 895 is "99.6 %", not "100 %"; 2 of 895 is "0.2 %", not "0 %".
    static func avoidableShare(_ part: Double, of total: Double) -> String {
        let percent = part / total * 100
        let rounded = percent.rounded()
        if rounded == 100, part < total { return String(format: "%.1f %%", min(percent, 99.9)) }
        if rounded == 0, part > 0 { return String(format: "%.1f %%", max(percent, 0.1)) }
        return "\(Int(rounded)) %"
    }
}
