/// What the gate concluded about one metric.
public enum Verdict: String, Sendable, Comparable {
    case regression, improvement, unchanged, informational
    /// Only in the baseline, or only in the current run.
    case missing, added

    /// Regressions first when listing.
    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.order < rhs.order }
    private var order: Int {
        switch self {
        case .regression: 0
        case .improvement: 1
        case .missing: 2
        case .added: 3
        case .unchanged: 4
        case .informational: 5
        }
    }
}

/// One metric compared between a baseline run and the current one.
public struct MetricComparison: Sendable {
    public var key: String
    public var unit: String
    public var baseline: Double?
    public var current: Double?
    /// (current − baseline) / baseline; nil when either is missing or the baseline is 0.
    public var change: Double? {
        guard let baseline, let current else { return nil }
        if baseline == 0 { return current == 0 ? 0 : nil }
        return (current - baseline) / abs(baseline)
    }
    public var verdict: Verdict
    /// Why: the threshold, tolerance or p-value that decided.
    public var reason: String
}

/// Compares every metric two runs share, under a `GatePolicy`, and decides the gate's outcome.
public struct RunComparison: Sendable {
    public var comparisons: [MetricComparison]
    public var policy: GatePolicy

    /// The gate's exit status: 2 any regression or any metric missing from the current run (a
    /// strategy that now crashes must not pass), 4 improvements and nothing worse, 0 otherwise.
    public var exitStatus: Int32 {
        if comparisons.contains(where: { $0.verdict == .regression || $0.verdict == .missing }) { return 2 }
        if comparisons.contains(where: { $0.verdict == .improvement }) { return 4 }
        return 0
    }

    public init(baseline: RunResults, current: RunResults, policy: GatePolicy = GatePolicy()) {
        self.policy = policy
        let base = Self.index(baseline, policy: policy)
        let now = Self.index(current, policy: policy)
        let unmeasuredNow = Self.unmeasured(current)
        var comparisons: [MetricComparison] = []
        // Timings beyond their threshold wait for their p-value to be judged together (Holm).
        var pending: [(index: Int, p: Double, worse: Bool)] = []
        var judgedTimings = 0
        for (key, old) in base {
            guard let new = now[key] else {
                if GatePolicy.metricClass(old.row.metric) == .informational {
                    // Reported, never judged, and some have no value when an input came out at
                    // zero (a throughput, a growth fit): a crash shows in the gated rows.
                    comparisons.append(MetricComparison(key: key, unit: old.row.unit, baseline: old.value, current: nil, verdict: .informational, reason: "no value in the current run; not gated"))
                    continue
                }
                let reason = unmeasuredNow.contains(key) ? "in the current run without a value (see its note)" : "not in the current run"
                comparisons.append(MetricComparison(key: key, unit: old.row.unit, baseline: old.value, current: nil, verdict: .missing, reason: reason))
                continue
            }
            let (comparison, test) = Self.compare(key: key, old, new, policy: policy)
            if test.judged { judgedTimings += 1 }
            if let p = test.pendingP { pending.append((comparisons.count, p, (comparison.change ?? 0) > 0)) }
            comparisons.append(comparison)
        }
        // Holm's step-down over every timing judged: the chance of any false verdict in the run
        // stays below the significance level, with more power than a plain Bonferroni division.
        var stillRejecting = true
        for (step, candidate) in pending.sorted(by: { $0.p < $1.p }).enumerated() {
            let level = policy.significance / Double(max(judgedTimings - step, 1))
            let test = "exact Mann-Whitney on round medians p = \(Self.format(candidate.p)), Holm level \(Self.format(level)) (\(Self.format(policy.significance)) over \(judgedTimings) timings)"
            if stillRejecting && candidate.p < level {
                comparisons[candidate.index].verdict = candidate.worse ? .regression : .improvement
                comparisons[candidate.index].reason += ", " + test
            } else {
                stillRejecting = false
                comparisons[candidate.index].reason += " but not significant: " + test
            }
        }
        for (key, new) in now where base[key] == nil {
            comparisons.append(MetricComparison(key: key, unit: new.row.unit, baseline: nil, current: new.value, verdict: .added, reason: "not in the baseline"))
        }
        self.comparisons = comparisons.sorted { ($0.verdict, $0.key) < ($1.verdict, $1.key) }
    }

    /// A row's value (median), its per-round medians, and the row.
    struct Measured {
        var row: ResultRow
        var value: Double
        /// The median of each round's samples: one value per worker process.
        var roundMedians: [Double] = []
        /// Whether another row of the run matches the same samples (hops rows that differ only in
        /// concurrency): its samples cannot be attributed, so it is not judged.
        var sharedSamples = false
    }

    /// Keys of rows present without a value (not measurable, or not measured this time).
    static func unmeasured(_ run: RunResults) -> Set<String> {
        Set(run.rows.filter { !$0.isError && $0.statistics == nil }.map(key))
    }

    static func key(_ row: ResultRow) -> String {
        // The executor names what was measured where one workload measures several (isolation kinds).
        "\(row.suite)/\(row.workload)/\(row.strategy)/\(row.metric) objects=\(row.objects) S=\(row.subscribers) c=\(row.concurrency)"
            + (row.executor == "main-actor" || row.executor.isEmpty ? "" : " on \(row.executor)")
    }

    /// What ties samples to their row: `samples.csv` has these columns of a row, and no others.
    static func sampleKey(suite: String, workload: String, strategy: String, metric: String, subscribers: Int) -> String {
        "\(suite)/\(workload)/\(strategy)/\(metric) S=\(subscribers)"
    }

    static func sampleKey(_ row: ResultRow) -> String {
        sampleKey(suite: row.suite, workload: row.workload, strategy: row.strategy, metric: row.metric, subscribers: row.subscribers)
    }

    /// Rows with a value, keyed by what they measured; timings normalised to `plain` if asked.
    static func index(_ run: RunResults, policy: GatePolicy) -> [String: Measured] {
        var rounds: [String: [Int: [Double]]] = [:]
        for sample in run.samples {
            let key = sampleKey(suite: sample.suite, workload: sample.workload, strategy: sample.strategy, metric: sample.metric, subscribers: sample.subscribers)
            rounds[key, default: [:]][sample.round, default: []].append(sample.value)
        }
        var floors: [String: Double] = [:]
        if policy.normalizeToPlain {
            for row in run.rows where row.strategy == "plain" && row.metric == "latency" {
                if let median = row.statistics?.median, median > 0 { floors["\(row.suite)/\(row.workload) S=\(row.subscribers)"] = median }
            }
        }
        var rowsPerSampleKey: [String: Int] = [:]
        for row in run.rows where !row.isError && row.statistics != nil {
            rowsPerSampleKey[sampleKey(row), default: 0] += 1
        }
        var index: [String: Measured] = [:]
        for row in run.rows where !row.isError {
            guard let median = row.statistics?.median else { continue }
            var value = median
            let rowSamples = rounds[sampleKey(row)] ?? [:]
            var roundMedians = rowSamples.sorted { $0.key < $1.key }.compactMap { Statistics($0.value)?.median }
            if policy.normalizeToPlain, GatePolicy.metricClass(row.metric) == .timing {
                guard let floor = floors["\(row.suite)/\(row.workload) S=\(row.subscribers)"] else { continue }
                value /= floor
                roundMedians = roundMedians.map { $0 / floor }
            }
            index[key(row)] = Measured(row: row, value: value, roundMedians: roundMedians,
                                       sharedSamples: !rowSamples.isEmpty && (rowsPerSampleKey[sampleKey(row)] ?? 0) > 1)
        }
        return index
    }

    /// What the significance test of one timing needs: whether it counts among the timings
    /// judged, and its p-value when its change is beyond the threshold (decided by Holm's procedure).
    struct TimingTest {
        var judged = false
        var pendingP: Double?
    }

    static func compare(key: String, _ old: Measured, _ new: Measured, policy: GatePolicy) -> (MetricComparison, TimingTest) {
        var result = MetricComparison(key: key, unit: policy.normalizeToPlain && GatePolicy.metricClass(old.row.metric) == .timing ? "× plain" : old.row.unit,
                                      baseline: old.value, current: new.value, verdict: .unchanged, reason: "")
        var test = TimingTest()
        switch GatePolicy.metricClass(old.row.metric) {
        case .informational:
            result.verdict = .informational
            result.reason = GatePolicy.informationalMetrics[old.row.metric] ?? "not gated"
        case .count where !policy.gatesAsynchronousCounts && GatePolicy.isAsynchronous(old.row.strategy):
            result.verdict = .informational
            result.reason = "asynchronous strategy's count, reported only (--async-counts report)"
        case .timing where !policy.gatesTimings:
            result.verdict = .informational
            result.reason = "timing, reported only (--counts-only)"
        case .count:
            let tolerance = policy.countTolerance(strategy: old.row.strategy)
            let allowed = abs(old.value) * tolerance
            if new.value > old.value + allowed {
                result.verdict = .regression
            } else if new.value < old.value - allowed {
                result.verdict = .improvement
            }
            result.reason = tolerance == 0 ? "exact count" : "count, ±\(Int(tolerance * 100))% tolerance (asynchronous strategy)"
        case .timing:
            let threshold = policy.threshold(workload: old.row.workload, metric: old.row.metric)
            let change = result.change ?? 0
            let fewest = min(old.roundMedians.count, new.roundMedians.count)
            guard fewest >= GatePolicy.minimumRounds, !old.sharedSamples, !new.sharedSamples else {
                result.verdict = .informational
                result.reason = old.sharedSamples || new.sharedSamples
                    ? "not judged: its samples cannot be told apart from another row's (samples.csv has no concurrency or executor column)"
                    : "not judged: \(fewest) worker round(s) on a side, and samples of one process are not independent (needs \(GatePolicy.minimumRounds)+ rounds, --rounds)"
                return (result, test)
            }
            test.judged = true
            guard abs(change) > threshold else {
                result.reason = "within the \(percent(threshold)) noise threshold"
                return (result, test)
            }
            test.pendingP = change > 0 ? MannWhitneyU.pValue(new.roundMedians, exceeds: old.roundMedians) : MannWhitneyU.pValue(old.roundMedians, exceeds: new.roundMedians)
            result.reason = "beyond \(percent(threshold))"
        }
        return (result, test)
    }

    static func percent(_ fraction: Double) -> String {
        fraction * 100 == (fraction * 100).rounded() ? "\(Int(fraction * 100))%" : "\(fraction * 100)%"
    }

    static func format(_ p: Double) -> String {
        p < 0.0001 ? "<0.0001" : String((p * 10_000).rounded() / 10_000)
    }
}
