import ObservationStrategies

/// How the gate judges each metric: timings need a change beyond a noise threshold that is also
/// statistically significant across worker rounds; exact counts must not grow beyond a tolerance.
public struct GatePolicy: Sendable {
    /// A timing is a regression only if its median grows by more than this fraction (default 5%)...
    public var timingThreshold: Double
    /// ...and a two-sided Yuen test (``YuenTest``) on the logarithms of the per-round medians passes Holm's
    /// step-down at this level over every timing judged (the chance of any false verdict in a run,
    /// not per metric).
    public var significance: Double
    /// Per-metric timing thresholds overriding `timingThreshold`, by metric or `workload/metric`.
    public var timingThresholds: [String: Double]
    /// Exact counts of synchronous strategies may not grow at all; those of asynchronous strategies
    /// (whose counts depend on thread timing: coalescing, GRDB's own threads) by this fraction.
    public var asynchronousCountTolerance: Double
    /// Divide each timing by `plain`'s for the same workload and subscriber count in the same run,
    /// so a slower machine is not a regression.
    public var normalizeToPlain: Bool
    /// Judge timings at all (off: timings are reported only, for a gate on exact counts).
    public var gatesTimings: Bool
    /// What a timing's row says when timings are not judged.
    public var timingsNotJudgedBecause = "timing, reported only (--judge-timings to judge it)"

    /// Why `obsbench gate` reports timings unless asked to judge them: what two invocations of one
    /// binary on this machine showed.
    public static let separateInvocationTimings =
        "two --suite all --quick runs of one binary, one after the other on the 2-core VM obsbench is developed on, moved 118 of their 162 timings with 4+ rounds beyond 5% (some by 70-90%), where no exact count of a synchronous strategy moved."
    /// Judge the counts of an asynchronous strategy's rows that include its delivery, instruction
    /// counts among them (off: reported only; see `asynchronousCountTolerance`). Rows with no
    /// asynchronous part, and pool rows (of no strategy: within their tolerance), stay judged.
    public var gatesAsynchronousCounts: Bool
    /// Strategies that must have at least one judged row: a gate in which one has none gives no
    /// verdict (``NoVerdict/Reason/strategyNotJudged``), so a store of one's own cannot pass
    /// with none of its rows judged (`obsbench gate --strategy NAME`).
    public var requiredStrategies: [String] = []
    /// Instruction counts (Ir/op) of synchronous strategies may move by this fraction either way
    /// before they are a regression or an improvement, when both sides were counted in several
    /// memory layouts; a row whose baseline layouts disagree is allowed more
    /// (``layoutAllowance(baseline:currentLayouts:)``).
    public var instructionTolerance: Double
    /// The same for rows whose counts include other threads' timing: asynchronous strategies
    /// (their delivery threads) and actor hops (the pool's threads).
    public var asynchronousInstructionTolerance: Double
    /// The tolerances when a side was counted in one layout, with no spread to judge by.
    public var singleLayoutInstructionTolerance: Double
    public var singleLayoutAsynchronousInstructionTolerance: Double

    /// Default instruction tolerances (docs/gate.md, "Layouts"). Two builds of the same code lay
    /// out code, metadata and heap differently, which moves rows that hash addresses
    /// (Observation's registrar keys its observers by key path): `observable`
    /// transaction-2-fields by 3.7% between two builds. Counted in several layouts (``LayoutSeed``)
    /// that movement becomes each row's spread between layouts, which
    /// ``layoutAllowance(baseline:currentLayouts:)`` allows for row by row, from the baseline's
    /// layouts, so the fixed part can be 0.5% for
    /// synchronous rows. Rows that count other threads' work get 3%, plus their own spread.
    public static let defaultInstructionTolerance = 0.005
    public static let defaultAsynchronousInstructionTolerance = 0.03
    /// With one layout on a side there is no spread to judge by: the movement between builds
    /// measured with one layout each (3.7% synchronous; 6% `grdb-pool`, 10% the task-executor hop)
    /// is allowed instead. A baseline made before layouts existed is judged so.
    public static let defaultSingleLayoutInstructionTolerance = 0.05
    public static let defaultSingleLayoutAsynchronousInstructionTolerance = 0.12
    /// How many standard errors of the difference of two layout means a change must exceed
    /// (``layoutAllowance(baseline:currentLayouts:)``). Layout values are a few discrete levels, not normal; 4 keeps a
    /// run of ~100 rows, a handful of them layout-sensitive, from false alarms between builds.
    public static let layoutStandardErrors = 4.0
    /// Ir/op any instruction count may move whatever its tolerance: another thread's few hundred
    /// stray instructions in a counted window of 400 operations (`state-subject`'s 20 Ir read
    /// moved by 0.5 Ir/op between runs).
    public static let instructionToleranceFloor = 1.0

    /// How far the current run's mean over `currentLayouts` layouts may differ from the baseline's
    /// mean because of layout alone: `layoutStandardErrors` standard errors of the difference of
    /// the two means, with the spread taken from the baseline's layouts only. The baseline is what
    /// was known before the change, so a change that hits one layout harder than the others cannot
    /// widen its own allowance. 0 when the baseline has fewer than two layouts, or they agree.
    ///
    /// ```swift
    /// GatePolicy.layoutAllowance(baseline: [100, 100, 100], currentLayouts: 3)  // 0: layouts agree
    /// GatePolicy.layoutAllowance(baseline: [100, 104, 100], currentLayouts: 3)  // ≈ 7.5 Ir/op
    /// ```
    public static func layoutAllowance(baseline: [Double], currentLayouts: Int) -> Double {
        guard baseline.count >= 2, currentLayouts >= 1 else { return 0 }
        return layoutStandardErrors * standardDeviation(baseline) * (1 / Double(baseline.count) + 1 / Double(currentLayouts)).squareRoot()
    }

    /// How far one layout of the current run may lie from the median of that run's layouts before
    /// its layouts "spread far more than the baseline's": `layoutSpreadFactor` times the row's
    /// fixed allowance (`fixed`, Ir/op) plus the baseline's widest layout from its own median. Both
    /// are known before the change. A single layout is heavy-tailed (now and then one layout of a
    /// build counts far from the others), so the limit is wide; a change that moves one layout by
    /// three tolerances where the baseline's layouts agree is still named.
    ///
    /// ```swift
    /// GatePolicy.layoutSpreadLimit(baseline: [658, 658, 658, 658, 658], fixed: 3.29)  // 9.87 Ir/op
    /// GatePolicy.layoutSpreadLimit(baseline: [100, 104, 100], fixed: 1)              // 15 Ir/op
    /// ```
    public static func layoutSpreadLimit(baseline: [Double], fixed: Double) -> Double {
        let center = Statistics.percentile(baseline.sorted(), 0.5)
        let widest = baseline.map { abs($0 - center) }.max() ?? 0
        return layoutSpreadFactor * (fixed + widest)
    }

    /// How many times the fixed allowance plus the baseline's widest layout one current layout may
    /// stray (``layoutSpreadLimit(baseline:fixed:)``). In the builds check of a02b49d (five builds
    /// of the same code, all 20 ordered pairs, 77 rows each) the widest stray was 2.67 times that
    /// (`deduplicated-object` transaction-2-fields, one layout at 71,553 Ir/op against the others'
    /// 68,000–69,600); a run of one binary against the baseline it had just made later reached 4.2
    /// (`observable-context` view-scope), so a layout beyond it is named (``Verdict/spread``), not
    /// failed.
    public static let layoutSpreadFactor = 3.0

    /// The sample standard deviation (n − 1) of two or more values.
    static func standardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }

    public init(
        timingThreshold: Double = 0.05, significance: Double = 0.05, timingThresholds: [String: Double] = [:], asynchronousCountTolerance: Double = 0.05,
        normalizeToPlain: Bool = false, gatesTimings: Bool = true, gatesAsynchronousCounts: Bool = true,
        instructionTolerance: Double = GatePolicy.defaultInstructionTolerance,
        asynchronousInstructionTolerance: Double = GatePolicy.defaultAsynchronousInstructionTolerance,
        singleLayoutInstructionTolerance: Double = GatePolicy.defaultSingleLayoutInstructionTolerance,
        singleLayoutAsynchronousInstructionTolerance: Double = GatePolicy.defaultSingleLayoutAsynchronousInstructionTolerance
    ) {
        self.timingThreshold = timingThreshold
        self.significance = significance
        self.timingThresholds = timingThresholds
        self.asynchronousCountTolerance = asynchronousCountTolerance
        self.normalizeToPlain = normalizeToPlain
        self.gatesTimings = gatesTimings
        self.gatesAsynchronousCounts = gatesAsynchronousCounts
        self.instructionTolerance = instructionTolerance
        self.asynchronousInstructionTolerance = asynchronousInstructionTolerance
        self.singleLayoutInstructionTolerance = singleLayoutInstructionTolerance
        self.singleLayoutAsynchronousInstructionTolerance = singleLayoutAsynchronousInstructionTolerance
    }

    /// A cost count (instructions, bytes, allocations, retains) that falls below this fraction of
    /// the baseline's is flagged as implausible (``Verdict/implausible``) and fails, rather than
    /// passing as an improvement: a count that halves is more often a measurement that broke
    /// (a loop optimised away, a view that no longer subscribes) than a change to the code
    /// measured. A real one passes once the baseline is remade.
    public static let implausibleFraction = 0.5

    /// Rounds (worker processes) each side needs before a timing is judged. Samples of one process
    /// are not independent (its memory layout and the machine's regime at the time hold for all of
    /// them), so a change is tested across processes: each round's median is one observation.
    public static let minimumRounds = 4

    /// The timing threshold for one row.
    public func threshold(workload: String, metric: Metric) -> Double {
        timingThresholds["\(workload)/\(metric.name)"] ?? timingThresholds[metric.name] ?? timingThreshold
    }

    /// How far an instruction count may move: wider for a row that counts other threads whose
    /// timing varies (an asynchronous strategy's, or a hop's, whose strategy is `-`).
    public func instructionTolerance(strategy: String, asynchronous: Bool) -> Double {
        Self.countsOtherThreads(strategy: strategy, asynchronous: asynchronous) ? asynchronousInstructionTolerance : instructionTolerance
    }

    /// Whether a row's count includes other threads' timing: a hop's (strategy `-`) or an
    /// asynchronous strategy's.
    static func countsOtherThreads(strategy: String, asynchronous: Bool) -> Bool {
        strategy == RowKey.noStrategy || asynchronous
    }

    /// The tolerance when a side was counted in one layout.
    public func singleLayoutInstructionTolerance(strategy: String, asynchronous: Bool) -> Double {
        Self.countsOtherThreads(strategy: strategy, asynchronous: asynchronous) ? singleLayoutAsynchronousInstructionTolerance : singleLayoutInstructionTolerance
    }

    /// Why a row with one layout on a side gets ``singleLayoutInstructionTolerance(strategy:asynchronous:)``:
    /// how far builds moved such rows when each was counted in one layout.
    func singleLayoutReason(strategy: String, asynchronous: Bool) -> String {
        let measured = Self.countsOtherThreads(strategy: strategy, asynchronous: asynchronous) ? "10%" : "3.7%"
        return "no layout spread to judge by, so another build's layout may move it this far (up to \(measured) measured)"
    }

    func instructionToleranceReason(strategy: String, asynchronous: Bool) -> String {
        strategy == RowKey.noStrategy
            ? "a hop: pool threads' timing moves the count"
            : asynchronous ? "asynchronous delivery: its threads' timing moves the count" : "synchronous: no other thread's timing in it"
    }

    /// How far a hop's count per operation (strategy `-`) may move whatever its tolerance: a stray
    /// call of a pool thread in a counted window of 400 round trips is 0.0025 per op
    /// (`hop-dedicated-thread-actor` releases: 2.9975 to 3 between layouts).
    public static let otherThreadsCountFloor = 0.05

    /// The relative growth a count may show: none for a synchronous strategy.
    public func countTolerance(asynchronous: Bool) -> Double {
        asynchronous ? asynchronousCountTolerance : 0
    }
}
