import ObservationStrategies

/// How the gate judges each metric: timings need a change beyond a noise threshold that is also
/// statistically significant across worker rounds; exact counts must not grow beyond a tolerance.
public struct GatePolicy: Sendable {
    /// A timing is a regression only if its median grows by more than this fraction (default 5%)...
    public var timingThreshold: Double
    /// ...and a two-sided exact Mann-Whitney U test on the per-round medians passes Holm's
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
    public var timingsNotJudgedBecause = "timing, reported only (--counts-only)"
    /// Judge asynchronous strategies' counts (off: reported only; see `asynchronousCountTolerance`).
    public var gatesAsynchronousCounts: Bool
    /// Instruction counts (Ir/op) of synchronous strategies may move by this fraction either way
    /// before they are a regression or an improvement: what ten runs on this machine, half of
    /// them with the other core busy, showed they move by (see the README).
    public var instructionTolerance: Double
    /// The same for rows whose counts include other threads' timing: asynchronous strategies
    /// (their delivery threads) and actor hops (the pool's threads).
    public var asynchronousInstructionTolerance: Double

    /// Default instruction tolerances (README, "Instruction counts"). Runs of one binary repeat
    /// synchronous rows to 0.001%, so 0.5% (`--instruction-tolerance 0.005`) suits them; but a
    /// comparison is usually of two builds, and another binary lays the heap out differently,
    /// which moves rows that hash pointers (Observation's registrar): up to 3.7% measured
    /// (`observable` transaction-2-fields), most under 0.5%. Hence 5%. Asynchronous strategies
    /// moved up to 6.0% within one build (`grdb-pool` write-observed) and hops up to 10% (the
    /// task-executor hop; the others 1.5%): 12%.
    public static let defaultInstructionTolerance = 0.05
    public static let defaultAsynchronousInstructionTolerance = 0.12
    /// Ir/op any instruction count may move whatever its tolerance: another thread's few hundred
    /// stray instructions in a counted window of 400 operations (`state-subject`'s 20 Ir read
    /// moved by 0.5 Ir/op between runs).
    public static let instructionToleranceFloor = 1.0

    public init(
        timingThreshold: Double = 0.05, significance: Double = 0.05, timingThresholds: [String: Double] = [:], asynchronousCountTolerance: Double = 0.05,
        normalizeToPlain: Bool = false, gatesTimings: Bool = true, gatesAsynchronousCounts: Bool = true,
        instructionTolerance: Double = GatePolicy.defaultInstructionTolerance,
        asynchronousInstructionTolerance: Double = GatePolicy.defaultAsynchronousInstructionTolerance
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
    }

    /// Rounds (worker processes) each side needs before a timing is judged. Samples of one process
    /// are not independent (its memory layout and the machine's regime at the time hold for all of
    /// them), so a change is tested across processes: each round's median is one observation.
    public static let minimumRounds = 4

    /// How the gate treats the metric called `metric` (see `Metric`).
    public static func metricClass(_ metric: String) -> Metric.GateTreatment {
        Metric.gate(of: metric)
    }

    /// The timing threshold for one row.
    public func threshold(workload: String, metric: String) -> Double {
        timingThresholds["\(workload)/\(metric)"] ?? timingThresholds[metric] ?? timingThreshold
    }

    /// How far an instruction count may move: wider for a row that counts other threads whose
    /// timing varies (an asynchronous strategy's, or a hop's, whose strategy is `-`).
    public func instructionTolerance(strategy: String, asynchronous: Bool) -> Double {
        strategy == RowKey.noStrategy || asynchronous ? asynchronousInstructionTolerance : instructionTolerance
    }

    func instructionToleranceReason(strategy: String, asynchronous: Bool) -> String {
        strategy == RowKey.noStrategy
            ? "a hop: pool threads' timing moves the count"
            : asynchronous ? "asynchronous strategy: its delivery threads' timing moves the count" : "synchronous strategy"
    }

    /// The relative growth a count may show: none for a synchronous strategy.
    public func countTolerance(asynchronous: Bool) -> Double {
        asynchronous ? asynchronousCountTolerance : 0
    }
}
