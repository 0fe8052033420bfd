import Foundation

/// A run's results in the formats CI benchmark trackers read, from its `results.csv` rows.
///
/// Every row of a metric the gate can judge is exported: timings (median ns/op), exact counts
/// (bytes, allocations, re-runs, torn observations) and, when the run counted them, instructions,
/// whether or not a given gate judges that row (asynchronous strategies' counts, timings with
/// fewer than 4 rounds). Each is smaller-is-better. Rows of informational metrics (loop overheads,
/// derived fits, switch counts) and error rows are left out; `skipped` says how many.
///
/// ```swift
/// let export = TrackerExport(rows: try RunResults.load("results/latest").rows)
/// let json = try export.data(.githubActionBenchmark)  // [{"name": …, "unit": "ns/op", "value": 41.2, …}]
/// ```
public struct TrackerExport: Sendable {
    /// The formats `obsbench export` writes.
    public enum Format: String, CaseIterable, Sendable {
        /// benchmark-action/github-action-benchmark's `customSmallerIsBetter` input: a JSON
        /// array of `{name, unit, value, range, extra}`.
        case githubActionBenchmark = "github-action-benchmark"
        /// Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`.
        case bmf
    }

    /// One entry of github-action-benchmark's `customSmallerIsBetter` array.
    public struct ActionBenchmarkEntry: Codable, Equatable, Sendable {
        /// The row's key (`RowKey.description`): suite/workload/strategy/metric and its sizes.
        public var name: String
        public var unit: String
        /// The median.
        public var value: Double
        /// Half the 95% confidence interval of the median, as `± x`; nil for an exact count.
        public var range: String?
        /// The spread, samples, rounds and how the value was obtained.
        public var extra: String?
    }

    /// One measure of one benchmark in Bencher Metric Format.
    public struct BencherMetric: Codable, Equatable, Sendable {
        /// The median.
        public var value: Double
        /// The 95% confidence interval of the median; nil for an exact count.
        public var lowerValue: Double?
        public var upperValue: Double?

        enum CodingKeys: String, CodingKey {
            case value, lowerValue = "lower_value", upperValue = "upper_value"
        }
    }

    /// The rows exported, in `results.csv` order.
    public var rows: [ResultRow]
    /// Rows left out: informational metrics, error rows and rows without a value.
    public var skipped: Int

    public init(rows allRows: [ResultRow]) {
        rows = allRows.filter { row in
            guard !row.isError, row.statistics != nil else { return false }
            if case .informational = row.metric.gate { return false }
            return true
        }
        skipped = allRows.count - rows.count
    }

    /// github-action-benchmark's entries, one per row.
    public var actionBenchmarkEntries: [ActionBenchmarkEntry] {
        rows.map { row in
            let stats = row.statistics!
            let interval = row.interval
            let spread =
                interval.map { interval in
                    row.isMeanOverLayouts
                        ? "layouts \(NumberFormat.csv(interval.low))–\(NumberFormat.csv(interval.high))" : "p10 \(NumberFormat.csv(stats.p10)), p90 \(NumberFormat.csv(stats.p90))"
                } ?? "exact"
            let extra = "\(spread); \(stats.count) samples, \(row.rounds) round(s); run \(row.runID)" + (row.note.isEmpty ? "" : "; \(row.note)")
            return ActionBenchmarkEntry(
                name: RowKey(row).description, unit: row.unit, value: row.value!, range: interval.map { "± \(NumberFormat.csv(($0.high - $0.low) / 2))" }, extra: extra)
        }
    }

    /// Bencher's benchmarks: one per `RowKey.benchmark`, its measures named after the metrics.
    public var bencherMetrics: [String: [String: BencherMetric]] {
        var benchmarks: [String: [String: BencherMetric]] = [:]
        for row in rows {
            let interval = row.interval
            benchmarks[RowKey(row).benchmark, default: [:]][row.metric.name] = BencherMetric(value: row.value!, lowerValue: interval?.low, upperValue: interval?.high)
        }
        return benchmarks
    }

    /// The export as JSON text in `format`.
    public func data(_ format: Format) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        switch format {
        case .githubActionBenchmark: return try encoder.encode(actionBenchmarkEntries)
        case .bmf: return try encoder.encode(bencherMetrics)
        }
    }
}
