import Foundation

extension Suite {
    /// `--suite scaling`: write-to-quiescence latency as subscribed views grow.
    public static let scaling = Suite(
        name: "scaling",
        summary: "write-to-quiescence latency and re-runs as subscribed views grow, S = 1...10000 (--quick: ...1000), one store of the largest S + 1 records for every topology",
        defaultObjects: 0,
        tables: { SummaryTable.scalingTables(of: $0, rows: $1, strategies: $2) },
        workloads: ScalingTopology.allCases.map { SubscriberScalingWorkload(topology: $0) }
    )
}

extension SummaryTable {
    /// Two tables: how write-to-quiescence latency grows with the views (b of a + b·S per
    /// further view, and the growth class over the last decade), and the figures at the largest S
    /// (the median, re-runs per write).
    static func scalingTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        let largest = measured.filter { $0.metric == Metric.latency.name }.map(\.subscribers).max()
        let columns = suite.workloads.map(\.name)
        func value(_ strategy: String, _ workload: String, _ metric: Metric, subscribers: Int? = nil) -> Double? {
            measured.first { $0.strategy == strategy && $0.workload == workload && $0.metric == metric.name && (subscribers == nil || $0.subscribers == subscribers) }?.statistics?
                .median
        }
        /// The largest S a sweep reached when it stopped before the run's largest S (its growth
        /// already at least linear, the next point costly); nil otherwise.
        func sweptTo(_ strategy: String, _ workload: String) -> Int? {
            let reached = measured.filter { $0.strategy == strategy && $0.workload == workload && $0.metric == Metric.latency.name }.map(\.subscribers).max()
            guard let reached, let largest, reached < largest else { return nil }
            return reached
        }
        func failed(_ strategy: String) -> Bool { allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError } }
        var growth = SummaryTable(
            suite: suite.name, columns: columns,
            unit: "write-to-quiescence latency per further view (b of a + b·S) · growth over the last decade (log-log slope)", rows: [])
        growth.rows = strategies.map { strategy in
            (
                strategy,
                columns.map { workload in
                    guard let perView = value(strategy, workload, .costPerView), let slope = value(strategy, workload, .lastDecadeSlope) else {
                        return failed(strategy) ? "error" : "—"
                    }
                    // A sweep stopped early: its growth is at least this.
                    return NumberFormat.nanoseconds(max(0, perView)) + " · " + (sweptTo(strategy, workload) != nil ? "≥ " : "") + GrowthFit.label(slope)
                }
            )
        }
        var atLargest = SummaryTable(
            suite: suite.name, columns: columns,
            unit: "median write-to-quiescence latency · re-runs per write, at S=\(largest.map(String.init) ?? "max")", rows: [])
        atLargest.title = "\(suite.name) · largest S"
        atLargest.rows = strategies.map { strategy in
            (
                strategy,
                columns.map { workload in
                    if let sweptTo = sweptTo(strategy, workload) { return "stopped at S=\(sweptTo): ≥ O(S), costly" }
                    guard let largest, let latency = value(strategy, workload, .latency, subscribers: largest) else { return failed(strategy) ? "error" : "—" }
                    return NumberFormat.nanoseconds(latency) + (value(strategy, workload, .rerunsPerWrite, subscribers: largest).map { " · " + NumberFormat.count($0) } ?? "")
                }
            )
        }
        return [growth, atLargest]
    }
}
