import Foundation
import ObservationStrategies

/// What the gate concluded about one metric.
public enum Verdict: String, Sendable, Comparable {
    case regression, improvement, unchanged, informational
    /// An instruction count whose mean is within its allowance but one of whose current layouts
    /// strayed far from its run's others (``InstructionJudgement``): named, with the layout, and
    /// not a failure. A uniform change of the same mean passes, and runs of one binary stray this
    /// far now and then.
    case spread
    /// Only in the baseline, or only in the current run.
    case missing, added

    /// Regressions first when listing.
    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.order < rhs.order }
    private var order: Int {
        switch self {
        case .regression: 0
        case .spread: 1
        case .improvement: 2
        case .missing: 3
        case .added: 4
        case .unchanged: 5
        case .informational: 6
        }
    }
}

/// One metric compared between a baseline run and the current one.
public struct MetricComparison: Sendable {
    /// The compared row's key.
    public var rowKey: RowKey
    /// The row as the report names it (``RowKey/description``).
    public var key: String { rowKey.description }
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
    /// An instruction count judged on the single-layout tolerance: a side had no spread to judge by.
    var judgedOnOneLayout = false

    /// Whether both runs have the row with a value, so it was compared (not missing, added, or
    /// without a value in the current run).
    public var inBothRuns: Bool { baseline != nil && current != nil }
}

/// Compares every metric two runs share, under a `GatePolicy`, and decides the gate's outcome.
public struct RunComparison: Sendable {
    public var comparisons: [MetricComparison]
    public var policy: GatePolicy
    /// What the reader must know about the comparison as a whole (e.g. too few rounds for any
    /// timing to reach significance).
    public var notes: [String] = []
    /// The memory layouts each side's instruction rows were judged by (the most of any row, from
    /// `samples.csv`): nil when a side has no instruction row.
    public var layoutsPerRow: (baseline: Int, current: Int)?
    /// Why the comparison gives no verdict whatever its rows say: a side lacks a file the gate
    /// reads (``RunResults/absentFiles``), or no row was judged.
    public var noVerdict: NoVerdict?

    /// The gate's exit status: 2 any regression or any metric missing from the current run (a
    /// strategy that now crashes must not pass), 4 improvements and nothing worse, 0 otherwise.
    /// How many rows were judged: a regression, an improvement or unchanged.
    public var judgedCount: Int {
        comparisons.filter { [.regression, .spread, .improvement, .unchanged].contains($0.verdict) }.count
    }

    /// The gate's status. A comparison that judged no row, or that lacks a file the gate reads,
    /// has no verdict to give (``noVerdict``): it ends with `baselineUnusable` (5), never "no
    /// regression".
    public var exitStatus: ExitStatus {
        if noVerdict != nil { return .baselineUnusable }
        if comparisons.contains(where: { [.regression, .missing].contains($0.verdict) }) { return .regression }
        if comparisons.contains(where: { $0.verdict == .improvement }) { return .onlyImprovements }
        return .success
    }

    public init(baseline: RunResults, current: RunResults, policy: GatePolicy = GatePolicy()) {
        self.policy = policy
        let base = Self.index(baseline, policy: policy)
        let now = Self.index(current, policy: policy)
        func layouts(_ index: [RowKey: Measured]) -> Int? {
            index.values.filter { $0.row.metric == .instructions }.map { max($0.roundMedians.count, 1) }.max()
        }
        if let old = layouts(base), let new = layouts(now) { layoutsPerRow = (old, new) }
        let unmeasuredNow = Self.unmeasured(current)
        // Which strategies deliver asynchronously, from each run's run.json (a strategy this
        // binary does not know is described there), else from the built-in strategies.
        let asynchronous = Set(
            (Set(baseline.rows.map(\.strategy)).union(current.rows.map(\.strategy))).filter { strategy in
                RunMetadata.descriptor(of: strategy, in: [current.metadata, baseline.metadata])?.capabilities.delivery == .asynchronous
            })
        var comparisons: [MetricComparison] = []
        // Timings beyond their threshold wait for their p-value to be judged together (Holm).
        var pending: [(index: Int, p: Double, worse: Bool, rounds: (Int, Int))] = []
        var judgedTimings = 0
        var mostRounds: (Int, Int)?
        for (key, old) in base {
            guard let new = now[key] else {
                if case .informational = old.row.metric.gate {
                    // Reported, never judged, and some have no value when an input came out at
                    // zero (a throughput, a growth fit): a crash shows in the gated rows.
                    comparisons.append(
                        MetricComparison(
                            rowKey: key, unit: old.row.unit, baseline: old.value, current: nil, verdict: .informational, reason: "no value in the current run; not gated")
                    )
                    continue
                }
                let reason = unmeasuredNow.contains(key) ? "in the current run without a value (see its note)" : "not in the current run"
                comparisons.append(MetricComparison(rowKey: key, unit: old.row.unit, baseline: old.value, current: nil, verdict: .missing, reason: reason))
                continue
            }
            let (comparison, test) = Self.compare(key: key, old, new, policy: policy, asynchronous: asynchronous.contains(old.row.strategy))
            if test.judged {
                judgedTimings += 1
                // The timing with the most rounds is the one most able to reach significance.
                if mostRounds.map({ test.rounds.0 * test.rounds.1 > $0.0 * $0.1 }) ?? true { mostRounds = test.rounds }
            }
            if let p = test.pendingP { pending.append((comparisons.count, p, (comparison.change ?? 0) > 0, test.rounds)) }
            comparisons.append(comparison)
        }
        // Holm's step-down over every timing judged: the chance of any false verdict in the run
        // stays below the significance level, with more power than a plain Bonferroni division.
        // Its first level is significance / timings judged: with too few rounds a side, no exact
        // p-value can get below it, and the run is told how many rounds a verdict needs.
        let firstLevel = policy.significance / Double(max(judgedTimings, 1))
        if let (m, n) = mostRounds, MannWhitneyU.smallestTwoSidedPValue(m, n) >= firstLevel {
            let needed = MannWhitneyU.roundsNeeded(level: firstLevel)
            notes.append(
                "No timing can be judged a regression or an improvement here: with \(judgedTimings) timings judged, Holm's first level is \(NumberFormat.pValue(policy.significance)) / \(judgedTimings) = \(NumberFormat.pValue(firstLevel)), and the smallest two-sided p that \(m) and \(n) rounds can give is \(NumberFormat.pValue(MannWhitneyU.smallestTwoSidedPValue(m, n))). A verdict needs \(needed) rounds on each side (--rounds \(needed)), or fewer timings judged (--strategy, --suite)."
            )
        }
        var stillRejecting = true
        for (step, candidate) in pending.sorted(by: { $0.p < $1.p }).enumerated() {
            let level = policy.significance / Double(max(judgedTimings - step, 1))
            let test =
                "two-sided exact Mann-Whitney on round medians (\(candidate.rounds.0) vs \(candidate.rounds.1)) p = \(NumberFormat.pValue(candidate.p)), Holm level \(NumberFormat.pValue(level)) (\(NumberFormat.pValue(policy.significance)) over \(judgedTimings) timings)"
            if stillRejecting && candidate.p < level {
                comparisons[candidate.index].verdict = candidate.worse ? .regression : .improvement
                comparisons[candidate.index].reason += ", " + test
            } else {
                stillRejecting = false
                comparisons[candidate.index].reason += " but not significant: " + test
            }
        }
        for (key, new) in now where base[key] == nil {
            comparisons.append(MetricComparison(rowKey: key, unit: new.row.unit, baseline: nil, current: new.value, verdict: .added, reason: "not in the baseline"))
        }
        self.comparisons = comparisons.sorted { ($0.verdict, $0.key) < ($1.verdict, $1.key) }
        let absent = [("the baseline", baseline), ("the current run", current)].filter { !$0.1.absentFiles.isEmpty }
        if !absent.isEmpty {
            noVerdict = NoVerdict(
                .fileMissing,
                absent.map { "\($0.0) has no \($0.1.absentFiles.joined(separator: " or ")) beside \($0.1.source)" }.joined(separator: "; ")
                    + " (samples.csv holds each layout's and round's values, by which instruction counts and timings are judged; run.json how the run was made)")
        } else if judgedCount == 0, !comparisons.contains(where: { $0.verdict == .missing }) {
            noVerdict = NoVerdict(.noRowJudged, "the runs share no row the gate judges")
        }
    }

    /// A row's value (median), its per-round medians, and the row.
    struct Measured {
        var row: ResultRow
        var value: Double
        /// The median of each round's samples: one value per worker process (for an instruction
        /// count, one per memory layout). Empty where the run has no samples of the row, or has
        /// some that cannot be told to be the row's (``samplesUnattributable``).
        var roundMedians: [Double] = []
        /// The round (layout) number of each of `roundMedians`, for messages.
        var roundNumbers: [Int] = []
        /// Whether the run's `samples.csv` predates samples' full key and its samples that match
        /// this row match others too (``SampleAttribution/unattributable``): the row was given none
        /// of them when they were indexed, and a verdict's reason says why.
        var samplesUnattributable = false
    }

    /// Keys of rows present without a value (not measurable, or not measured this time).
    static func unmeasured(_ run: RunResults) -> Set<RowKey> {
        Set(run.rows.filter { !$0.isError && $0.statistics == nil }.map(RowKey.init))
    }

    /// Rows with a value, keyed by what they measured, with the samples that are theirs
    /// (``SampleAttribution``); timings normalised to `plain` if asked.
    static func index(_ run: RunResults, policy: GatePolicy) -> [RowKey: Measured] {
        var floors: [String: Double] = [:]
        if policy.normalizeToPlain {
            for row in run.rows where row.strategy == RowKey.floorStrategy && row.metric == .latency {
                if let median = row.statistics?.median, median > 0 { floors[RowKey(row).plainFloor] = median }
            }
        }
        let attribution = SampleAttribution(rows: run.rows.filter { !$0.isError && $0.statistics != nil }.map(RowKey.init), samples: run.samples)
        var index: [RowKey: Measured] = [:]
        for row in run.rows where !row.isError {
            guard var value = row.value else { continue }
            let key = RowKey(row)
            let rounds = Dictionary(grouping: attribution.samples[key] ?? [], by: \.round)
            // Each round's median alone (no bootstrap interval: the gate never reads one here).
            let ordered = rounds.sorted { $0.key < $1.key }.compactMap { round -> (Int, Double)? in
                let values = round.value.map(\.value)
                guard !values.isEmpty, values.allSatisfy(\.isFinite) else { return nil }
                return (round.key, Statistics.percentile(values.sorted(), 0.5))
            }
            var roundMedians = ordered.map(\.1)
            if policy.normalizeToPlain, row.metric.gate == .timing {
                guard let floor = floors[key.plainFloor] else { continue }
                value /= floor
                roundMedians = roundMedians.map { $0 / floor }
            }
            index[key] = Measured(
                row: row, value: value, roundMedians: roundMedians, roundNumbers: ordered.map(\.0),
                samplesUnattributable: attribution.unattributable.contains(key))
        }
        return index
    }

    /// What the significance test of one timing needs: whether it counts among the timings
    /// judged, and its p-value when its change is beyond the threshold (decided by Holm's procedure).
    struct TimingTest {
        var judged = false
        var pendingP: Double?
        /// Rounds on the baseline's side and the run's.
        var rounds = (0, 0)
    }

    static func compare(key: RowKey, _ old: Measured, _ new: Measured, policy: GatePolicy, asynchronous: Bool) -> (MetricComparison, TimingTest) {
        var result = MetricComparison(
            rowKey: key, unit: policy.normalizeToPlain && old.row.metric.gate == .timing ? "× plain" : old.row.unit,
            baseline: old.value, current: new.value, verdict: .unchanged, reason: "")
        var test = TimingTest()
        // Samples of a run made before they carried the full key that match several rows are no
        // row's: such a row is judged without them, and its reason says why.
        let side =
            switch (old.samplesUnattributable, new.samplesUnattributable) {
            case (true, true): "each run's"
            case (true, false): "the baseline's"
            case (false, true): "the current run's"
            case (false, false): ""
            }
        let notAttributed =
            side.isEmpty
            ? "" : "\(side) samples.csv predates samples' full key (no executor, objects or concurrency column), and its samples of this row match other rows too"
        switch old.row.metric.gate {
        case .informational(let why):
            result.verdict = .informational
            result.reason = why
        case .instructions:
            let judgement = InstructionJudgement(old, new, policy: policy, asynchronous: asynchronous)
            result.verdict = judgement.verdict
            result.reason = judgement.reason + (notAttributed.isEmpty ? "" : "; no layouts: \(notAttributed)")
            result.judgedOnOneLayout = judgement.singleLayout
        case .count where !policy.gatesAsynchronousCounts && asynchronous:
            result.verdict = .informational
            result.reason = "asynchronous strategy's count, reported only (--async-counts report)"
        case .timing where !policy.gatesTimings:
            result.verdict = .informational
            result.reason = policy.timingsNotJudgedBecause
        case .count:
            // A hop's count (strategy `-`, e.g. its retains per round trip) includes the pool's
            // threads, whose timing moves it by a call or two in a counted window: it gets the
            // asynchronous strategies' tolerance, and a floor of `otherThreadsCountFloor` per op.
            let hop = old.row.strategy == RowKey.noStrategy
            let tolerance = policy.countTolerance(asynchronous: asynchronous || hop)
            // A count written back from CSV can differ from an equal one in its last bits: such a
            // difference (shown as +0.0%) is no change.
            let allowed = max(abs(old.value) * tolerance, abs(old.value) * 1e-9, hop ? GatePolicy.otherThreadsCountFloor : 0)
            if new.value > old.value + allowed {
                result.verdict = .regression
            } else if new.value < old.value - allowed {
                result.verdict = .improvement
            }
            result.reason =
                tolerance == 0
                ? "exact count"
                : "count, ±\(Int(tolerance * 100))% tolerance (\(hop ? "a hop: pool threads' timing moves the count" : "asynchronous strategy"))"
        case .timing:
            let threshold = policy.threshold(workload: old.row.workload, metric: old.row.metric)
            let change = result.change ?? 0
            let fewest = min(old.roundMedians.count, new.roundMedians.count)
            guard fewest >= GatePolicy.minimumRounds else {
                result.verdict = .informational
                result.reason =
                    notAttributed.isEmpty
                    ? "not judged: \(fewest) worker round(s) on a side, and samples of one process are not independent (needs \(GatePolicy.minimumRounds)+ rounds, --rounds)"
                    : "not judged: its samples cannot be told apart from another row's: \(notAttributed)"
                return (result, test)
            }
            test.judged = true
            test.rounds = (old.roundMedians.count, new.roundMedians.count)
            guard abs(change) > threshold else {
                result.reason = "within the \(NumberFormat.percent(threshold)) noise threshold"
                return (result, test)
            }
            // Two-sided, so the test is fixed before the data are seen: "did it change", at twice
            // the one-sided p of the direction it moved in.
            test.pendingP = MannWhitneyU.twoSidedPValue(new.roundMedians, old.roundMedians)
            result.reason = "beyond \(NumberFormat.percent(threshold))"
        }
        return (result, test)
    }
}
