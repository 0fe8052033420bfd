extension Suite {
    /// `--suite latency`: read/write cost per operation, each workload's median against plain's.
    public static let latency = Suite(
        name: "latency",
        summary: "read/write latency per operation, ns/op",
        defaultObjects: 1_000,
        defaultRounds: 8,
        table: { SummaryTable(latencyOf: $0, rows: $1, strategies: $2) },
        workloads: [
            ReadUntrackedWorkload(),
            ReadInsideViewWorkload(),
            ViewScopeWorkload(),
            WriteUnobservedWorkload(),
            WriteObservedWorkload(),
            TwoFieldTransactionWorkload(),
            ConcreteReferenceWorkload(),
            IgnoredFieldWorkload(),
            ScanAllWorkload(),
        ]
    )
}

extension SummaryTable {
    /// Each workload's median cost per operation and its ratio to `plain`: time (`latency`),
    /// instructions, or both side by side, as the run measured.
    init(latencyOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measures = Self.costMeasures(in: allRows, suite: suite.name)
        // The workloads rows name, in the order they were measured (one workload can write rows
        // for several, as the concrete reference does); the suite's list before any row exists.
        var named: [String] = []
        for row in allRows where row.suite == suite.name && measures.map(\.metric.name).contains(row.metric) && !named.contains(row.workload) {
            named.append(row.workload)
        }
        columns = named.isEmpty ? suite.workloads.map(\.name) : named
        unit = "median \(Self.units(measures)) (× plain)"
        func median(_ measure: CostMeasure, _ strategy: String, _ workload: String) -> Double? {
            allRows.first { $0.suite == suite.name && $0.metric == measure.metric.name && $0.strategy == strategy && $0.workload == workload }?.statistics?.median
        }
        let columns = self.columns
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError && $0.workload == "*" }
            let cells = columns.map { workload -> String in
                Self.costCell(measures: measures, failed: failed) { measure in
                    (median(measure, strategy, workload), median(measure, "plain", workload))
                }
            }
            return (strategy, cells)
        }
        let shares = HarnessShare.all(in: allRows, suite: suite.name)
        if !shares.isEmpty {
            footnotes.append("harness share (protocol path against the concrete loop, both net of plain): " + shares.map(\.description).joined(separator: "; "))
        }
    }
}
