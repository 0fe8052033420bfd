extension Suite {
    /// `--suite consistency`: torn observations against commit boundaries.
    public static let consistency = Suite(
        name: "consistency",
        summary: "torn observations: states shown that never existed at a commit boundary, one observation against two combined",
        defaultObjects: 20,
        tables: { [SummaryTable(consistencyOf: $0, rows: $1, strategies: $2)] },
        secondsPerWorker: 0.18,
        workloads: InvariantWorkload.Views.allCases.flatMap { views in [1, 2].map { InvariantWorkload(writers: $0, views: views) } }
    )
}

extension SummaryTable {
    /// Per workload (one observation or two combined, one or two writers): torn observations per
    /// 1,000 transactions, and re-runs per transaction.
    init(consistencyOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        columns = suite.workloads.map(\.name)
        unit = "torn observations per 1000 transactions · view re-runs per transaction"
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let cells = suite.workloads.map { workload -> String in
                func value(_ metric: Metric) -> Double? {
                    measured.first(RowQuery(workload: workload.name, strategy: strategy, metric: metric))?.statistics?.median
                }
                let metric = (workload as? InvariantWorkload)?.tornPer1000Metric ?? .tornPer1000Transactions
                guard let torn = value(metric) else { return failed ? "error" : "—" }
                return NumberFormat.count(torn) + " torn · " + (value(.rerunsPerTransaction).map(NumberFormat.count) ?? "—") + " re-runs"
            }
            return (strategy, cells)
        }
    }
}
