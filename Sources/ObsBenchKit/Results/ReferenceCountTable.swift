extension SummaryTable {
    /// The retains and releases per operation of `suite`'s counted rows (``Metric/retains``,
    /// ``Metric/releases``), one column per workload in the order the rows name them, "41 / 49" a
    /// cell; no table when the run counted no instructions.
    static func referenceCountTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let counted = allRows.filter { $0.suite == suite.name && ($0.metric == .retains || $0.metric == .releases) && $0.statistics != nil }
        guard !counted.isEmpty else { return [] }
        var workloads: [String] = []
        for row in counted where !workloads.contains(row.workload) { workloads.append(row.workload) }
        func value(_ metric: Metric, _ strategy: String, _ workload: String) -> Double? {
            counted.first(RowQuery(workload: workload, strategy: strategy, metric: metric))?.value
        }
        let layouts = counted.map(\.rounds).max() ?? 1
        var table = SummaryTable(
            suite: suite.name, columns: workloads,
            unit:
                "retains / releases per operation, \(layouts > 1 ? "median of \(layouts) layouts" : "one layout"): calls into swift_retain / swift_release and their forms, Callgrind's call counts, net of the empty loop",
            rows: [])
        table.title = "\(suite.name) · reference counting"
        table.rows = strategies.filter { strategy in counted.contains { $0.strategy == strategy } }.map { strategy in
            (
                strategy,
                workloads.map { workload in
                    let retains = value(.retains, strategy, workload), releases = value(.releases, strategy, workload)
                    guard retains != nil || releases != nil else { return "—" }
                    return "\(retains.map(ReferenceCounts.text) ?? "—") / \(releases.map(ReferenceCounts.text) ?? "—")"
                }
            )
        }
        table.footnotes.append(
            "a call counts once (swift_retain_n too, whatever its count), and the runtime's call from one entry point into another (swift_bridgeObjectRetain into swift_retain) not again; a synchronous strategy's read-in-view, write-observed and transaction-2-fields are counted on record 1 alone, in full (their Ir/op is the mean over the drawn records); a count that is not whole holds other threads' calls (an asynchronous strategy's delivery) or differs between layouts (docs/profiles.md, \"Retains and releases\")"
        )
        return [table]
    }
}
