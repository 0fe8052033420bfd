import Foundation

extension Suite {
    /// `--suite scaling`: write-to-quiescence latency as subscribed views grow.
    public static let scaling = Suite(
        name: "scaling",
        summary: "write-to-quiescence latency and re-runs as subscribed views grow, S = 1...10000 (--quick: ...1000), one store of the largest S + 1 records for every topology",
        defaultObjects: 0,
        table: { SummaryTable(scalingOf: $0, rows: $1, strategies: $2) },
        workloads: ScalingTopology.allCases.map { SubscriberScalingWorkload(topology: $0) }
    )
}

extension SummaryTable {
    /// Per topology: the cost of each further view (b of latency = a + b·S), the growth over the
    /// sweep's last decade, and the latency and re-runs at the largest S.
    init(scalingOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        let largest = measured.filter { $0.metric == Metric.latency.name }.map(\.subscribers).max()
        columns = suite.workloads.map(\.name)
        unit = "write-to-quiescence latency: per further view (b of a + b·S) · growth over the last decade (log-log slope) · median at S=\(largest.map(String.init) ?? "max") · re-runs/write there"
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let cells = suite.workloads.map { workload -> String in
                func value(_ metric: Metric, subscribers: Int? = nil) -> Double? {
                    measured.first { $0.strategy == strategy && $0.workload == workload.name && $0.metric == metric.name && (subscribers == nil || $0.subscribers == subscribers) }?.statistics?.median
                }
                guard let perView = value(.costPerView), let slope = value(.lastDecadeSlope) else { return failed ? "error" : "—" }
                var cell = NumberFormat.nanoseconds(max(0, perView)) + "/view · " + GrowthFit.label(slope) + " (" + NumberFormat.fixed(slope, digits: 2) + ")"
                if let largest, let latency = value(.latency, subscribers: largest) { cell += " · " + NumberFormat.nanoseconds(latency) }
                if let largest, let reruns = value(.rerunsPerWrite, subscribers: largest) { cell += " · " + NumberFormat.count(reruns) }
                return cell
            }
            return (strategy, cells)
        }
    }
}
