import Foundation
import ObservationStrategies

/// The short guide at the top of a report: for a few application profiles, the strategy that wins
/// on this run's numbers, the runner-up, and the metric that decided it. Only strategies that
/// observe at all compete (`plain` is the floor, not a choice).
public struct ProfileGuide: Sendable {
    /// One profile: what decides it and the strategies ranked by that.
    public struct Entry: Sendable {
        public var profile: String
        /// The metric that decides, in words.
        public var decidedBy: String
        /// Strategies by that metric, best first, with the value as text; empty when not measured.
        public var ranking: [(strategy: String, value: String)]
        /// Why no ranking, or what limits it.
        public var remark: String?
    }

    public var entries: [Entry]

    /// - Parameter metadata: the run's `run.json`, whose strategy details say which strategies
    ///   observe (a strategy it does not describe, in an older run, is looked up among the built-in ones).
    public init(rows: [ResultRow], metadata: RunMetadata? = nil) {
        let observing = Set(
            rows.map(\.strategy).filter { strategy in
                RunMetadata.descriptor(of: strategy, in: [metadata]).map { $0.capabilities.granularity != .none } ?? false
            })
        let measured = rows.filter { !$0.isError && $0.statistics != nil && observing.contains($0.strategy) }
        func value(_ row: ResultRow) -> Double { row.value! }

        /// Each strategy's value of `metric` in `workload`, the row with the largest `by` if several.
        func values(_ suite: String, _ workload: String, _ metric: Metric, largest: KeyPath<ResultRow, Int>? = nil) -> [(String, Double, ResultRow)] {
            Dictionary(grouping: measured.filter { $0.suite == suite && $0.workload == workload && $0.metric == metric.name }, by: \.strategy)
                .compactMap { strategy, rows in
                    let row = largest.map { path in rows.max { $0[keyPath: path] < $1[keyPath: path] }! } ?? rows[0]
                    return (strategy, value(row), row)
                }
                .sorted { $0.1 < $1.1 }
        }

        var entries: [Entry] = []
        let memory = values("memory", "store-lifecycle", .freshBytesPerObject, largest: \.objects)
        entries.append(
            Entry(
                profile: "Many objects, few views (a large store, a screen shows a handful)",
                decidedBy: "bytes per object" + (memory.first.map { " with N = \($0.2.objects)" } ?? ""),
                ranking: memory.map { ($0.0, NumberFormat.bytes($0.1)) },
                remark: memory.isEmpty ? "the memory suite was not run" : nil))

        // One record shown in many places is the `shared` topology: every view reads the field
        // written. Compared at the largest S every strategy reached.
        let shared = measured.filter { $0.suite == "scaling" && $0.workload == SubscriberScalingWorkload(topology: .shared).name && $0.metric == Metric.latency.name }
        let commonS = Dictionary(grouping: shared, by: \.strategy).values.compactMap { $0.map(\.subscribers).max() }.min()
        let scaling = shared.filter { $0.subscribers == commonS }.map { ($0.strategy, value($0)) }.sorted { $0.1 < $1.1 }
        entries.append(
            Entry(
                profile: "Few objects, many views (one record shown in many places)",
                decidedBy: "a write until all S views reading the written field have re-run" + (commonS.map { " (S = \($0))" } ?? ""),
                ranking: scaling.map { ($0.0, NumberFormat.nanoseconds($0.1)) },
                remark: scaling.isEmpty ? "the scaling suite was not run" : nil))

        // One observation deriving everything it shows; the combined views are the contrast (the notes predict they tear whatever the strategy).
        let oneObservation = Set([1, 2].map { InvariantWorkload(writers: $0, views: .oneObservation).name })
        let torn = measured.filter { $0.suite == "consistency" && $0.metric == Metric.tornObservations.name && oneObservation.contains($0.workload) }
        let whole = Set(Dictionary(grouping: torn, by: \.strategy).filter { $0.value.allSatisfy { value($0) == 0 } && $0.value.count == oneObservation.count }.keys)
        let transactions = values("latency", "transaction-2-fields", .latency).filter { whole.contains($0.0) }
        entries.append(
            Entry(
                profile: "Cross-field invariants (views must never see half a change)",
                decidedBy: "no torn state shown by one observation with one or two background writers, then the two-field transaction's latency",
                ranking: transactions.map { ($0.0, NumberFormat.nanoseconds($0.1)) },
                remark: torn.isEmpty
                    ? "the consistency suite was not run"
                    : whole.isEmpty ? "no strategy showed zero torn observations" : transactions.isEmpty ? "the latency suite was not run" : nil))

        /// A profile decided by one latency workload's median.
        func latencyEntry(_ profile: String, decidedBy: String, workload: String) -> Entry {
            let ranking = values("latency", workload, .latency)
            return Entry(
                profile: profile, decidedBy: decidedBy, ranking: ranking.map { ($0.0, NumberFormat.nanoseconds($0.1)) },
                remark: ranking.isEmpty ? "the latency suite was not run" : nil)
        }
        entries.append(
            latencyEntry(
                "Read-heavy views (bodies read many fields)",
                decidedBy: "each further field read inside an open tracking scope (the scope's own cost is the next profile's)", workload: "read-in-view"))
        entries.append(
            latencyEntry(
                "Many small views (each body reads a field or two, re-rendered often)",
                decidedBy: "opening a tracking scope with one read, fired by the next write (the write's own cost subtracted; a store of \(ViewScopeWorkload.storeSize) records)",
                workload: ViewScopeWorkload().name))
        entries.append(
            latencyEntry(
                "Write-heavy, each change shown (a live editor, a progress display)",
                decidedBy: "a write until the one view reading it has re-run", workload: "write-observed"))
        self.entries = entries
    }
}
