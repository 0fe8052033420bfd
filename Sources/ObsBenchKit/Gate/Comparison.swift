import Foundation
import ObservationStrategies

/// What the gate concluded about one metric.
public enum Verdict: String, Sendable, Comparable, CaseIterable {
    case regression, improvement, unchanged, informational
    /// A behaviour count (re-runs, notifications, torn states, lost writes) that moved either way:
    /// what the strategy does changed. A view that stops re-running fails as one that re-runs
    /// twice does.
    case behaviourChanged = "behaviour-changed"
    /// A cost count (instructions, bytes, allocations, retains) that fell below
    /// ``GatePolicy/implausibleFraction`` of the baseline's: more likely a measurement that broke
    /// than a code change. It fails until the baseline is remade.
    case implausible
    /// An instruction count whose mean is within its allowance but one of whose current layouts
    /// strayed far from its run's others (``InstructionJudgement``): named, with the layout, and
    /// not a failure. A uniform change of the same mean passes, and runs of one binary stray this
    /// far now and then.
    case spread
    /// A gated row without the evidence to judge it (no samples on a side, samples that cannot be
    /// told to be its own, a strategy declared differently or not at all): the gate ends with no
    /// verdict (exit 5), never judges it on another tolerance.
    case noVerdict = "no-verdict"
    /// A timing the baseline's own spread makes blind to a change within its threshold: it could
    /// see only a change of at least ``MetricComparison/sees``. Not "unchanged", and not a failure.
    case notJudged = "not-judged"
    /// Only in the baseline, or only in the current run.
    case missing, added
    /// An error row of the current run: a worker failed, or a view showed what the store did not
    /// hold (the row's note names which and what). It fails the gate whatever the run's status.
    case workerFailed = "error"

    /// Failures first when listing.
    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.order < rhs.order }
    private var order: Int {
        switch self {
        case .workerFailed: -1
        case .regression: 0
        case .behaviourChanged: 1
        case .implausible: 2
        case .noVerdict: 3
        case .missing: 4
        case .spread: 5
        case .improvement: 6
        case .added: 7
        case .notJudged: 8
        case .unchanged: 9
        case .informational: 10
        }
    }

    /// The verdicts that say a row was judged.
    public static let judged: Set<Verdict> = [.regression, .behaviourChanged, .implausible, .spread, .improvement, .unchanged]
    /// The verdicts that fail the gate (exit 2).
    public static let failing: Set<Verdict> = [.workerFailed, .regression, .behaviourChanged, .implausible, .missing]
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
    /// The smallest relative change the judgement could have seen, from what was known before the
    /// change (the baseline's spread, the tolerance, the test): 0 for an exact count (any change),
    /// nil where it could see none (too few rounds) or the row is not judged at all.
    public var sees: Double?
    /// An instruction count judged on the single-layout tolerance: the baseline was counted in one.
    var judgedOnOneLayout = false

    /// Whether both runs have the row with a value, so it was compared (not missing, added, or
    /// without a value in the current run).
    public var inBothRuns: Bool { baseline != nil && current != nil }

    /// The `sees` column: "any" for an exact count, "±x%" for a tolerance, "≥ x%" for a row not
    /// judged because it could see only that much, "—" where nothing.
    public var seesCell: String {
        guard let sees else { return verdict == .notJudged ? "nothing" : "—" }
        if sees == 0 { return "any" }
        return (verdict == .notJudged ? "≥ " : "±") + NumberFormat.sensitivity(sees)
    }
}

/// Compares every metric two runs share, under a `GatePolicy`, and decides the gate's outcome.
///
/// How a row is judged comes from its metric, its workload and the baseline (``RowClass``); the
/// run under test gives only numbers, and they are checked against its samples first. Missing
/// evidence is no verdict (``NoVerdict``), never a wider tolerance.
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
    /// reads (``RunResults/absentFiles``), a row's figure disagrees with its samples, a gated row
    /// lacks evidence, a required strategy has no judged row, or no row was judged.
    public var noVerdict: NoVerdict?

    /// How many rows were judged: a regression, a changed behaviour, an implausible fall, a
    /// spread, an improvement or unchanged.
    public var judgedCount: Int {
        comparisons.filter { Verdict.judged.contains($0.verdict) }.count
    }

    /// Rows judged and rows compared, per strategy (in first-seen order, `-` for rows of no
    /// strategy): "coalescing: 0 of 31 rows judged" is what a gate of a store of one's own must show.
    public var byStrategy: [(strategy: String, judged: Int, rows: Int)] {
        var order: [String] = []
        var counts: [String: (Int, Int)] = [:]
        for item in comparisons where item.verdict != .added {
            let strategy = item.rowKey.strategy
            if counts[strategy] == nil { order.append(strategy) }
            var count = counts[strategy] ?? (0, 0)
            count.1 += 1
            if Verdict.judged.contains(item.verdict) { count.0 += 1 }
            counts[strategy] = count
        }
        return order.map { (strategy: $0, judged: counts[$0]!.0, rows: counts[$0]!.1) }
    }

    /// The gate's status. A comparison without a verdict (``noVerdict``) ends with
    /// `baselineUnusable` (5), never "no regression"; any failing row (``Verdict/failing``) with
    /// `regression` (2); improvements and nothing worse with `onlyImprovements` (4).
    public var exitStatus: ExitStatus {
        if noVerdict != nil { return .baselineUnusable }
        if comparisons.contains(where: { Verdict.failing.contains($0.verdict) }) { return .regression }
        if comparisons.contains(where: { $0.verdict == .improvement }) { return .onlyImprovements }
        return .success
    }

    public init(baseline: RunResults, current: RunResults, policy: GatePolicy = GatePolicy()) {
        self.policy = policy
        let (base, baseDisagreements) = Self.index(baseline, policy: policy)
        let (now, nowDisagreements) = Self.index(current, policy: policy)
        func layouts(_ index: [RowKey: Measured]) -> Int? {
            index.values.filter { $0.row.metric == .instructions }.map { max($0.roundMedians.count, 1) }.max()
        }
        if let old = layouts(base), let new = layouts(now) { layoutsPerRow = (old, new) }
        let unmeasuredNow = Self.unmeasured(current)
        let classes = RowClass.Resolver(baseline: baseline, current: current)
        var comparisons: [MetricComparison] = []
        // Timings beyond their threshold wait for their p-value to be judged together (Holm).
        var pending: [(index: Int, p: Double, worse: Bool, rounds: (Int, Int))] = []
        // Every timing judged, with its rounds a side and the baseline's round values as tested,
        // so that what each could see is known once Holm's first level is.
        var judgedTimings: [(index: Int, rounds: (Int, Int), baseline: [Double], logarithms: Bool)] = []
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
                let reason =
                    unmeasuredNow.contains(key)
                    ? "in the current run without a value (see its note)"
                    : "not in the current run" + (current.metadata?.workloads.map { " (it ran --workload \($0.joined(separator: ", ")) only)" } ?? "")
                comparisons.append(MetricComparison(rowKey: key, unit: old.row.unit, baseline: old.value, current: nil, verdict: .missing, reason: reason))
                continue
            }
            var (comparison, test) = Self.compare(key: key, old, new, policy: policy, rowClass: classes.resolve(key))
            // A row from fewer processes than its run says it ran has lost some (or its run.json
            // overstates them): judged, its allowance or its rank test would be a run's own
            // choice. No verdict for it.
            if Verdict.judged.contains(comparison.verdict) || comparison.verdict == .notJudged,
                let short = Self.fewerProcesses(old, baseline.metadata, side: "the baseline") ?? Self.fewerProcesses(new, current.metadata, side: "the current run")
            {
                comparison.verdict = .noVerdict
                comparison.reason = "no verdict: " + short
                test = TimingTest()
            }
            if test.judged { judgedTimings.append((comparisons.count, test.rounds, test.baselineValues, test.logarithms)) }
            if let p = test.pendingP { pending.append((comparisons.count, p, (comparison.change ?? 0) > 0, test.rounds)) }
            comparisons.append(comparison)
        }
        // A plain row that did not move with the machine cannot normalise anything.
        let unsteady = policy.normalizeToPlain ? Self.unsteadyFloors(baseline: baseline, current: current, threshold: policy.timingThreshold) : [:]
        if !unsteady.isEmpty {
            for index in comparisons.indices where comparisons[index].rowKey.metric.gate == .timing {
                let verdict = comparisons[index].verdict
                guard let why = unsteady[comparisons[index].rowKey.plainFloor], Verdict.judged.contains(verdict) || verdict == .notJudged else { continue }
                comparisons[index].verdict = .noVerdict
                comparisons[index].reason = "no verdict under --normalize-to-plain: " + why
                comparisons[index].sees = nil
                pending.removeAll { $0.index == index }
                judgedTimings.removeAll { $0.index == index }
            }
        }
        // Holm's step-down over every timing judged: the chance of any false verdict in the run
        // stays below the significance level, with more power than a plain Bonferroni division.
        let timingCount = judgedTimings.count
        let firstLevel = policy.significance / Double(max(timingCount, 1))
        // What each timing could see, from the baseline's rounds alone: the smallest change Yuen's
        // test finds significant at Holm's first level (its best case) if the current rounds spread
        // as the baseline's do, or the threshold if that is larger. A timing that moved less than
        // its threshold is unchanged only where that is the threshold.
        let tested = Set(pending.map(\.index))
        for (index, rounds, baselineValues, logarithms) in judgedTimings {
            let rowKey = comparisons[index].rowKey
            let threshold = policy.threshold(workload: rowKey.workload, metric: rowKey.metric)
            let smallest = YuenTest.smallestSignificantDifference(baseline: baselineValues, currentCount: rounds.1, level: firstLevel)
            comparisons[index].sees = max(threshold, smallest.map { Self.relativeChange(ofTestedDifference: $0, values: baselineValues, logarithms: logarithms) } ?? .infinity)
            // A timing beyond its threshold is decided by its test, below.
            if comparisons[index].verdict == .unchanged, !tested.contains(index) { Self.notJudgedIfBlind(&comparisons[index], threshold: threshold) }
        }
        var stillRejecting = true
        for (step, candidate) in pending.sorted(by: { $0.p < $1.p }).enumerated() {
            let level = policy.significance / Double(max(timingCount - step, 1))
            let test =
                "two-sided Yuen test on log round medians (\(candidate.rounds.0) vs \(candidate.rounds.1), 20% trimmed) p = \(NumberFormat.pValue(candidate.p)), Holm level \(NumberFormat.pValue(level)) (\(NumberFormat.pValue(policy.significance)) over \(timingCount) timings)"
            if stillRejecting && candidate.p < level {
                comparisons[candidate.index].verdict = candidate.worse ? .regression : .improvement
                comparisons[candidate.index].reason += ", " + test
            } else {
                stillRejecting = false
                // It moved beyond its threshold and the test cannot tell that from noise: not
                // "unchanged" (the comparison then has no verdict, ``NoVerdict/Reason/changeNotJudgeable``).
                comparisons[candidate.index].reason += " but not significant: " + test
                let rowKey = comparisons[candidate.index].rowKey
                Self.notJudgedIfBlind(&comparisons[candidate.index], threshold: policy.threshold(workload: rowKey.workload, metric: rowKey.metric))
                if comparisons[candidate.index].verdict == .unchanged {
                    comparisons[candidate.index].verdict = .notJudged
                    comparisons[candidate.index].reason = "not judged: moved " + comparisons[candidate.index].reason
                }
            }
        }
        for (key, new) in now where base[key] == nil {
            comparisons.append(MetricComparison(rowKey: key, unit: new.row.unit, baseline: nil, current: new.value, verdict: .added, reason: "not in the baseline"))
        }
        // Whatever run.json says of the run, an error row is a worker that failed or a view that
        // showed the wrong thing: the gate fails on it, naming it.
        for row in current.rows where row.isError {
            comparisons.append(
                MetricComparison(
                    rowKey: RowKey(row), unit: "", baseline: nil, current: nil, verdict: .workerFailed,
                    reason: "error row in the current run (\(row.suite) · \(row.strategy)): \(row.note)"))
        }
        // Each row's key is text made once, not at every comparison of the sort.
        self.comparisons = comparisons.map { ($0, $0.key) }.sorted { ($0.0.verdict, $0.1) < ($1.0.verdict, $1.1) }.map(\.0)
        let absent = [("the baseline", baseline), ("the current run", current)].filter { !$0.1.absentFiles.isEmpty }
        let disagreements = baseDisagreements.map { "the baseline's \($0)" } + nowDisagreements.map { "the current run's \($0)" }
        let withoutEvidence = self.comparisons.filter { $0.verdict == .noVerdict }
        // A timing that moved beyond its threshold where its rounds cannot tell that from noise:
        // what the run shows cannot pass as "no regression".
        let unjudgeable = self.comparisons.filter { item in
            item.verdict == .notJudged && abs(item.change ?? 0) > policy.threshold(workload: item.rowKey.workload, metric: item.rowKey.metric)
        }
        let unjudgedStrategies = policy.requiredStrategies.filter { strategy in
            !self.comparisons.contains { $0.rowKey.strategy == strategy && Verdict.judged.contains($0.verdict) }
        }
        if !absent.isEmpty {
            noVerdict = NoVerdict(
                .fileMissing,
                absent.map { "\($0.0) has no \($0.1.absentFiles.joined(separator: " or ")) beside \($0.1.source)" }.joined(separator: "; ")
                    + " (samples.csv holds each layout's and round's values, by which instruction counts and timings are judged; run.json how the run was made)")
        } else if !disagreements.isEmpty {
            noVerdict = NoVerdict(
                .resultsDisagree,
                "\(disagreements.count) row(s) of results.csv disagree with their samples.csv, from which each row's value, layouts and rounds are recomputed: "
                    + Self.listed(disagreements))
        } else if !withoutEvidence.isEmpty {
            noVerdict = NoVerdict(
                .rowsWithoutEvidence,
                "\(withoutEvidence.count) gated row(s) have no evidence to be judged by: " + Self.listed(withoutEvidence.map { "\($0.key): \($0.reason)" }))
        } else if !unjudgeable.isEmpty {
            noVerdict = NoVerdict(
                .changeNotJudgeable,
                "\(unjudgeable.count) timing(s) moved beyond their threshold where the evidence cannot tell that from noise: "
                    + Self.listed(unjudgeable.map { "\($0.key) \($0.change.map(NumberFormat.change) ?? "")" })
                    + " (each could see only the change in its `sees` column; judge counts instead: --counts-only, or --measure instructions)")
        } else if !unjudgedStrategies.isEmpty {
            noVerdict = NoVerdict(
                .strategyNotJudged,
                unjudgedStrategies.map { strategy in
                    let rows = self.comparisons.filter { $0.rowKey.strategy == strategy && $0.verdict != .added }.count
                    return "\(strategy): 0 of \(rows) rows judged"
                }.joined(separator: "; ") + " (named with --strategy, so its rows must be judged; see each row's reason)")
        } else if judgedCount == 0, !comparisons.contains(where: { $0.verdict == .missing }) {
            noVerdict = NoVerdict(.noRowJudged, "the runs share no row the gate judges")
        }
    }

    /// Why a row comes from fewer worker processes than its run's `run.json` says every row of
    /// its suite does (layouts under `--measure instructions`, rounds otherwise), or nil.
    static func fewerProcesses(_ measured: Measured, _ metadata: RunMetadata?, side: String) -> String? {
        guard let metadata else { return nil }
        let row = measured.row
        let measures = Set(metadata.measuresOrDefault)
        let declared: Int?
        let what: String
        if measures == [.instructions], let layouts = metadata.instructionCounting?.settings.layouts {
            (declared, what) = (layouts, "memory layouts")
        } else if measures == [.time], let rounds = metadata.rounds?[row.suite] {
            (declared, what) = (rounds, "worker rounds")
        } else {
            return nil
        }
        let processes = measured.roundMedians.isEmpty ? row.rounds : measured.roundMedians.count
        guard let declared, processes < declared else { return nil }
        return "\(side)'s run.json says each \(row.suite) row comes from \(declared) \(what); this one from \(processes) (see its note)"
    }

    /// The first few of `items`, and how many more.
    static func listed(_ items: [String], first: Int = 3) -> String {
        items.prefix(first).joined(separator: "; ") + (items.count > first ? "; and \(items.count - first) more" : "")
    }

    /// A timing not significant whose baseline could see only changes beyond its threshold is not
    /// "unchanged": it is not judged.
    static func notJudgedIfBlind(_ comparison: inout MetricComparison, threshold: Double) {
        guard let sees = comparison.sees, sees > threshold, comparison.verdict == .unchanged else { return }
        comparison.verdict = .notJudged
        comparison.reason =
            "not judged: could see only ≥ \(NumberFormat.sensitivity(sees)) (the smallest change its test finds significant where the current rounds spread as the baseline's do); "
            + comparison.reason
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
    /// (``SampleAttribution``); timings normalised to `plain` if asked. Each row with samples of
    /// its own is recomputed from them (``recomputationProblem(_:rounds:)``): the rows whose
    /// `results.csv` figures disagree come back as `disagreements`, which the gate refuses.
    static func index(_ run: RunResults, policy: GatePolicy) -> (rows: [RowKey: Measured], disagreements: [String]) {
        let floors = policy.normalizeToPlain ? plainFloors(run) : [:]
        let attribution = SampleAttribution(rows: run.rows.filter { !$0.isError && $0.statistics != nil }.map(RowKey.init), samples: run.samples)
        var index: [RowKey: Measured] = [:]
        var disagreements = roundsDisagreements(run, sampled: Set(attribution.samples.filter { !$0.value.isEmpty }.keys))
        for row in run.rows where !row.isError {
            guard var value = row.value else { continue }
            let key = RowKey(row)
            let rounds = Dictionary(grouping: attribution.samples[key] ?? [], by: \.round)
            if let problem = recomputationProblem(row, rounds: rounds.mapValues { $0.map(\.value) }) {
                disagreements.append("\(key): \(problem)")
            }
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
        return (index, disagreements)
    }

    /// `plain`'s latency per workload and subscriber count (``RowKey/plainFloor``), which
    /// `--normalize-to-plain` divides each timing by.
    static func plainFloors(_ run: RunResults) -> [String: Double] {
        var floors: [String: Double] = [:]
        for row in run.rows where row.strategy == RowKey.floorStrategy && row.metric == .latency {
            if let median = row.statistics?.median, median > 0 { floors[RowKey(row).plainFloor] = median }
        }
        return floors
    }

    /// Under `--normalize-to-plain`, the `plain` rows (``RowKey/plainFloor``) that did not move
    /// with the machine, each with why: a slower or faster machine moves every `plain` row by
    /// about one factor, so a floor whose own factor departs from the median of all floors'
    /// factors by more than the timing threshold changed by itself, and a row divided by it would
    /// show `plain`'s change as its own. With fewer than three floors shared, plain's own change
    /// cannot be told from the machine's, and every floor is named.
    static func unsteadyFloors(baseline: RunResults, current: RunResults, threshold: Double) -> [String: String] {
        let old = plainFloors(baseline), new = plainFloors(current)
        let factors = old.compactMapValues { $0 }.reduce(into: [String: Double]()) { result, entry in
            if let now = new[entry.key] { result[entry.key] = now / entry.value }
        }
        guard factors.count >= 3 else {
            return factors.mapValues { _ in
                "with \(factors.count) plain row(s) shared, plain's own change cannot be told from the machine's (--normalize-to-plain needs 3 or more)"
            }
        }
        let median = Statistics.percentile(factors.values.sorted(), 0.5)
        return factors.filter { abs($0.value / median - 1) > threshold }.mapValues { factor in
            "plain's own row here moved ×\(String(format: "%.3f", factor)) where plain's rows moved ×\(String(format: "%.3f", median)) (their median): plain changed, not the machine, so a row divided by it would show plain's change as its own"
        }
    }

    /// The gated rows of `results.csv` summarised from one value a process (a count, or an
    /// instruction count's layouts) that `rounds.csv`, each process's own rows, does not give:
    /// another number of processes, or another median, least or greatest. Empty where the run has
    /// no `rounds.csv`.
    static func roundsDisagreements(_ run: RunResults, sampled withSamples: Set<RowKey>) -> [String] {
        guard let roundRows = run.roundRows else { return [] }
        var byKey: [RowKey: [Double]] = [:]
        for row in roundRows where !row.isError {
            if let value = row.statistics?.median { byKey[RowKey(row), default: []].append(value) }
        }
        var found: [String] = []
        // The gated rows whose figures are summaries of one value a process (counts, and layouts'
        // instruction counts); a timing's figures pool its samples, which are checked instead.
        for row in run.rows where !row.isError && [.count, .behaviour, .instructions].contains(row.metric.gate) {
            guard let statistics = row.statistics else { continue }
            let key = RowKey(row)
            guard !withSamples.contains(key) || row.isMeanOverLayouts else { continue }
            guard let values = byKey[key], let recomputed = Statistics(values) else {
                if row.rounds > 1 { found.append("\(key): its rounds column says \(row.rounds), rounds.csv has no row of it") }
                continue
            }
            if values.count != row.rounds {
                found.append("\(key): its rounds column says \(row.rounds), rounds.csv has \(values.count) process(es) of it")
                continue
            }
            let pairs = [("median", statistics.median, recomputed.median), ("min", statistics.min, recomputed.min), ("max", statistics.max, recomputed.max)]
            if let (name, written, given) = pairs.first(where: { abs($0.1 - $0.2) > max(abs($0.1), 1) * 1e-6 }) {
                found.append("\(key): results.csv's \(name) is \(NumberFormat.compared(written)) \(row.unit), its processes in rounds.csv give \(NumberFormat.compared(given))")
            }
        }
        return found
    }

    /// Why a row's figure in `results.csv` is not what its samples give, or nil when it is (or it
    /// has no samples to check against). The samples decide, as the run computed the row: an
    /// instruction row counted in several layouts is the mean of its layouts' medians, with
    /// `rounds` the layouts; any other row with samples is the median of them all, pooled over
    /// its `rounds`.
    static func recomputationProblem(_ row: ResultRow, rounds: [Int: [Double]]) -> String? {
        guard !rounds.isEmpty, let written = row.value else { return nil }
        if rounds.count != row.rounds {
            return "its rounds column says \(row.rounds), its samples come from \(rounds.count) round(s)"
        }
        let recomputed: Double
        if row.isMeanOverLayouts {
            let medians = rounds.values.map { Statistics.percentile($0.sorted(), 0.5) }
            recomputed = medians.reduce(0, +) / Double(medians.count)
        } else {
            recomputed = Statistics.percentile(rounds.values.flatMap { $0 }.sorted(), 0.5)
        }
        guard abs(recomputed - written) > max(abs(written), 1) * 1e-6 else { return nil }
        return "results.csv says \(NumberFormat.compared(written)) \(row.unit), its samples give \(NumberFormat.compared(recomputed))"
    }

    /// What the significance test of one timing needs: whether it counts among the timings
    /// judged, and its p-value when its change is beyond the threshold (decided by Holm's procedure).
    struct TimingTest {
        var judged = false
        var pendingP: Double?
        /// Rounds on the baseline's side and the run's.
        var rounds = (0, 0)
        /// The baseline's round medians as the test takes them (``testedValues(_:alongside:)``),
        /// and whether those are logarithms.
        var baselineValues: [Double] = []
        var logarithms = false
    }

    static func compare(key: RowKey, _ old: Measured, _ new: Measured, policy: GatePolicy, rowClass: RowClass) -> (MetricComparison, TimingTest) {
        guard case .callingThreadOfAsynchronousStore = rowClass else { return compare(key: key, old, new, policy: policy, judged: rowClass) }
        // The baseline's own processes decide: where they agree, the calling thread's alone;
        // where they disagree, a row its other threads move, its instructions judged still.
        guard let moved = baselineProcessesDisagree(old, gate: old.row.metric.gate, policy: policy) else {
            return compare(key: key, old, new, policy: policy, judged: .judged(otherThreads: false))
        }
        if old.row.metric.gate == .instructions, !new.roundMedians.isEmpty {
            return judgeMovingCallingThread(key: key, old, new, moved: moved, policy: policy)
        }
        var (result, test) = compare(key: key, old, new, policy: policy, judged: .judged(otherThreads: true), judgesInstructions: true)
        if result.verdict != .noVerdict {
            result.reason =
                "the calling thread's count, which the baseline's processes show moving with the store's own threads (\(NumberFormat.compared(moved.low))–\(NumberFormat.compared(moved.high)) \(old.row.unit)), so judged as a row its other threads move: "
                + result.reason
        }
        return (result, test)
    }

    /// The instruction count of a calling-thread row of an asynchronous store whose baseline
    /// layouts disagree (`moved`, their range): the current run's mean may move from the
    /// baseline's by the whole width of the baseline's layouts, or by its spread allowance
    /// (``GatePolicy/layoutAllowance(baseline:currentLayouts:)``) or the asynchronous tolerance
    /// where wider, all from the baseline alone. Layouts of one run share that run's regime, so
    /// their spread understates how far another run moves: in 20 A/A pairs of `actor-streams` at
    /// 10 layouts (2026-12-04) the mean moved by up to 27.5%, once below its baseline's lowest
    /// layout, where a standard-error allowance was as narrow as ±9.2%; a +100% canary moved it
    /// +85.5% against a width of ±16%.
    static func judgeMovingCallingThread(key: RowKey, _ old: Measured, _ new: Measured, moved: (low: Double, high: Double), policy: GatePolicy)
        -> (MetricComparison, TimingTest)
    {
        var result = MetricComparison(rowKey: key, unit: old.row.unit, baseline: old.value, current: new.value, verdict: .unchanged, reason: "")
        let fixed = abs(old.value) * policy.asynchronousInstructionTolerance
        let width = max(fixed, moved.high - moved.low, GatePolicy.layoutAllowance(baseline: old.roundMedians, currentLayouts: old.roundMedians.count))
        let high = old.value + width
        let low = old.value - width
        result.sees = old.value == 0 ? nil : width / abs(old.value)
        let unit = old.row.unit
        let how =
            "the calling thread's count, which the baseline's \(old.roundMedians.count) layouts show moving with the store's own threads (\(NumberFormat.irPerOperation(moved.low))–\(NumberFormat.irPerOperation(moved.high)) \(unit)): "
            + "the current mean of \(new.roundMedians.count) layout(s) judged against \(NumberFormat.irPerOperation(low))–\(NumberFormat.irPerOperation(high)) \(unit) "
            + "(the baseline's mean ± the width of its layouts, or its spread's allowance or ±\(NumberFormat.percent(policy.asynchronousInstructionTolerance)) where wider: layouts of one run share its regime)"
        result.reason = how
        if new.value > high {
            result.verdict = .regression
        } else if new.value < low {
            result.verdict = .improvement
            flagImplausible(&result)
        }
        return (result, TimingTest())
    }

    /// ``compare(key:_:_:policy:rowClass:)`` for a row whose class is resolved (`.judged` or
    /// `.noVerdict`); `judgesInstructions`: its instruction count is judged even under
    /// `--async-counts report`.
    private static func compare(key: RowKey, _ old: Measured, _ new: Measured, policy: GatePolicy, judged rowClass: RowClass, judgesInstructions: Bool = false)
        -> (MetricComparison, TimingTest)
    {
        var result = MetricComparison(
            rowKey: key, unit: policy.normalizeToPlain && old.row.metric.gate == .timing ? "× plain" : old.row.unit,
            baseline: old.value, current: new.value, verdict: .unchanged, reason: "")
        var test = TimingTest()
        // Samples of a run made before they carried the full key that match several rows are no
        // row's: such a row has no samples to be judged by, and its reason says why.
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
        func noVerdict(_ why: String) -> (MetricComparison, TimingTest) {
            result.verdict = .noVerdict
            result.reason = "no verdict: " + why
            return (result, test)
        }
        /// The side(s) without samples of the row.
        func withoutSamples() -> String {
            [old.roundMedians.isEmpty ? "the baseline" : nil, new.roundMedians.isEmpty ? "the current run" : nil].compactMap { $0 }.joined(separator: " and ")
        }
        let gate = old.row.metric.gate
        if case .informational(let why) = gate {
            result.verdict = .informational
            result.reason = why
            return (result, test)
        }
        if gate == .timing, !policy.gatesTimings {
            result.verdict = .informational
            result.reason = policy.timingsNotJudgedBecause
            return (result, test)
        }
        let otherThreads: Bool
        switch rowClass {
        case .noVerdict(let why): return noVerdict(why)
        case .judged(let value): otherThreads = value
        case .callingThreadOfAsynchronousStore: preconditionFailure("resolved by compare(key:_:_:policy:rowClass:)")
        }
        switch gate {
        case .informational:
            break  // returned above
        case .instructions where !policy.gatesAsynchronousCounts && otherThreads && key.strategy != RowKey.noStrategy && !judgesInstructions:
            result.verdict = .informational
            result.reason = "instruction count that \(Self.otherThreadsWhy(key)) moves, reported only (--async-counts report)"
        case .instructions:
            guard !old.roundMedians.isEmpty, !new.roundMedians.isEmpty else {
                return noVerdict(
                    notAttributed.isEmpty
                        ? "\(withoutSamples()) has no samples of this row in samples.csv (each layout's counts), so its layouts cannot be judged" : notAttributed)
            }
            let judgement = InstructionJudgement(old, new, policy: policy, asynchronous: otherThreads)
            result.verdict = judgement.verdict
            result.reason = judgement.reason
            result.judgedOnOneLayout = judgement.singleLayout
            result.sees = old.value == 0 ? nil : judgement.allowed / abs(old.value)
            flagImplausible(&result)
        // --async-counts report: an asynchronous strategy's delivering rows are reported; a pool's
        // (rows of no strategy) keep their tolerance and floor, as they always had.
        case .count where !policy.gatesAsynchronousCounts && otherThreads && key.strategy != RowKey.noStrategy,
            .behaviour where !policy.gatesAsynchronousCounts && otherThreads && key.strategy != RowKey.noStrategy:
            result.verdict = .informational
            result.reason = "\(gate == .behaviour ? "behaviour count" : "count") that \(Self.otherThreadsWhy(key)) moves, reported only (--async-counts report)"
        case .count, .behaviour:
            // A count of other threads' work gets the asynchronous tolerance; a pool's count (a
            // row of no strategy, e.g. a hop's retains per round trip) a floor of
            // `otherThreadsCountFloor` per op too, since a pool thread's stray call moves it.
            let tolerance = policy.countTolerance(asynchronous: otherThreads)
            // A count written back from CSV can differ from an equal one in its last bits: such a
            // difference (shown as +0.0%) is no change.
            let pool = otherThreads && key.strategy == RowKey.noStrategy
            func allowed(_ bound: Double) -> Double {
                max(abs(bound) * tolerance, abs(bound) * 1e-9, pool ? GatePolicy.otherThreadsCountFloor : 0)
            }
            // A count measured in several rounds is exact only where every round gave the same
            // value; otherwise it is judged on the range the baseline's rounds gave.
            let range = Self.roundRange(old.row)
            let low = (range?.low ?? old.value) - allowed(range?.low ?? old.value)
            let high = (range?.high ?? old.value) + allowed(range?.high ?? old.value)
            let kind = gate == .behaviour ? "behaviour count" : "count"
            var how = tolerance == 0 ? "exact \(kind)" : "\(kind), ±\(NumberFormat.percent(tolerance)) tolerance (\(Self.otherThreadsWhy(key)) moves it)"
            // One process's count is judged as exact, but nothing showed it repeats: the reason says so.
            if old.row.rounds <= 1 { how += " (the baseline's from one process: not shown to repeat)" }
            result.sees = tolerance
            if let range {
                how =
                    "\(kind) not exact: the baseline's \(old.row.rounds) rounds gave \(NumberFormat.compared(range.low))–\(NumberFormat.compared(range.high)), judged on that range"
                    + (tolerance == 0 ? "" : " ±\(NumberFormat.percent(tolerance)) (\(Self.otherThreadsWhy(key)) moves it)")
                result.sees = old.value == 0 ? nil : (high - low) / 2 / abs(old.value)
            }
            // Every process of the current run counts: its highest and lowest (each a worker's
            // own value) are judged, not only the figure that pools them.
            let (nowLow, nowHigh) = Self.processRange(new)
            let which = { (value: Double) in value == new.value ? "" : " (a process of the current run gave \(NumberFormat.compared(value)))" }
            if gate == .behaviour {
                result.reason = how + ", judged both ways"
                if nowHigh > high || nowLow < low {
                    let moved = nowHigh > high ? nowHigh : nowLow
                    result.verdict = .behaviourChanged
                    result.reason =
                        "behaviour changed: \(NumberFormat.compared(old.value)) → \(NumberFormat.compared(new.value)) \(old.row.unit)\(which(moved)); what the strategy does moved, and a fall fails as a rise does (\(how))"
                }
            } else {
                result.reason = how
                if nowHigh > high {
                    result.verdict = .regression
                    result.reason += which(nowHigh)
                } else if nowLow < low {
                    result.verdict = .improvement
                    flagImplausible(&result)
                }
            }
        case .timing:
            let threshold = policy.threshold(workload: old.row.workload, metric: old.row.metric)
            let change = result.change ?? 0
            guard notAttributed.isEmpty else { return noVerdict(notAttributed) }
            guard !old.roundMedians.isEmpty, !new.roundMedians.isEmpty else {
                return noVerdict("\(withoutSamples()) has no samples of this row in samples.csv (each round's timings)")
            }
            let fewest = min(old.roundMedians.count, new.roundMedians.count)
            guard fewest >= GatePolicy.minimumRounds else {
                result.verdict = .notJudged
                result.reason =
                    "not judged: could see nothing with \(fewest) worker round(s) on a side, since samples of one process are not independent (needs \(GatePolicy.minimumRounds)+ rounds, --rounds)"
                return (result, test)
            }
            test.judged = true
            test.rounds = (old.roundMedians.count, new.roundMedians.count)
            test.baselineValues = Self.testedValues(old.roundMedians, alongside: new.roundMedians)
            test.logarithms = Self.takesLogarithms(old.roundMedians, new.roundMedians)
            // What it could see is set once every timing is counted (Holm's first level).
            result.sees = threshold
            guard abs(change) > threshold else {
                result.reason = "within the \(NumberFormat.percent(threshold)) noise threshold"
                return (result, test)
            }
            // Two-sided, so the test is fixed before the data are seen: "did it change".
            test.pendingP = YuenTest.twoSidedPValue(Self.testedValues(new.roundMedians, alongside: old.roundMedians), test.baselineValues)
            result.reason = "beyond \(NumberFormat.percent(threshold))"
        }
        return (result, test)
    }

    /// The range a count's rounds gave, when it was measured in several and they differ (its
    /// minimum and maximum over rounds); nil for a count every round gave alike, or one round's.
    /// Where a calling-thread row of an asynchronous store moved between the baseline's own
    /// processes beyond what one thread's count moves between layouts (instructions: the
    /// synchronous tolerance; counts: any difference), the range they gave; nil where they agree,
    /// or where one process is all there is.
    static func baselineProcessesDisagree(_ old: Measured, gate: Metric.GateTreatment, policy: GatePolicy) -> (low: Double, high: Double)? {
        switch gate {
        case .instructions:
            guard old.roundMedians.count >= 2, let low = old.roundMedians.min(), let high = old.roundMedians.max(),
                high - low > abs(old.value) * policy.instructionTolerance
            else { return nil }
            return (low, high)
        case .count, .behaviour: return roundRange(old.row)
        default: return nil
        }
    }

    static func roundRange(_ row: ResultRow) -> (low: Double, high: Double)? {
        guard row.rounds > 1, let statistics = row.statistics, statistics.max - statistics.min > max(abs(statistics.max), 1) * 1e-9 else { return nil }
        return (statistics.min, statistics.max)
    }

    /// Round medians as the timing test takes them: their logarithms, so that a change is a
    /// ratio, where both sides' are all positive; else the values themselves.
    static func testedValues(_ values: [Double], alongside other: [Double]) -> [Double] {
        takesLogarithms(values, other) ? values.map { log($0) } : values
    }

    /// Whether the test takes the logarithms of two sides' round medians: all are positive.
    static func takesLogarithms(_ a: [Double], _ b: [Double]) -> Bool {
        (a + b).allSatisfy { $0 > 0 }
    }

    /// A difference of tested values (``testedValues(_:alongside:)``) as a relative change of the
    /// timing: e^d − 1 for logarithms, d over the values' median otherwise.
    static func relativeChange(ofTestedDifference difference: Double, values: [Double], logarithms: Bool) -> Double {
        if logarithms { return exp(difference) - 1 }
        let center = abs(Statistics.percentile(values.sorted(), 0.5))
        return center == 0 ? .infinity : difference / center
    }

    /// The lowest and highest value any process (round or layout) of the row gave: its
    /// statistics' extremes when it pools several processes, else its value.
    static func processRange(_ measured: Measured) -> (low: Double, high: Double) {
        guard measured.row.rounds > 1, let statistics = measured.row.statistics else { return (measured.value, measured.value) }
        return (min(statistics.min, measured.value), max(statistics.max, measured.value))
    }

    /// What moves a count of other threads' work, for its reason.
    static func otherThreadsWhy(_ key: RowKey) -> String {
        key.strategy == RowKey.noStrategy ? "pool threads' timing" : "the strategy's asynchronous delivery (as the baseline declares it)"
    }

    /// A cost that fell below ``GatePolicy/implausibleFraction`` of the baseline's is flagged, not
    /// passed as an improvement.
    static func flagImplausible(_ result: inout MetricComparison) {
        guard result.verdict == .improvement, let old = result.baseline, let new = result.current, old > 0, new < old * GatePolicy.implausibleFraction else { return }
        result.verdict = .implausible
        result.reason =
            "implausible: fell to \(NumberFormat.percent(new / old)) of the baseline, below the \(NumberFormat.percent(GatePolicy.implausibleFraction)) a change is believed without a look; if it is real, remake the baseline (docs/gate.md, 'Refreshing the baselines'); "
            + result.reason
    }
}
