import ObservationStrategies

/// How the gate judges each metric: timings need a change beyond a noise threshold that is also
/// statistically significant across worker rounds; exact counts must not grow beyond a tolerance.
public struct GatePolicy: Sendable {
    /// A timing is a regression only if its median grows by more than this fraction (default 5%)...
    public var timingThreshold: Double
    /// ...and a one-sided exact Mann-Whitney U test on the per-round medians passes Holm's
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
    /// Judge asynchronous strategies' counts (off: reported only; see `asynchronousCountTolerance`).
    public var gatesAsynchronousCounts: Bool

    public init(timingThreshold: Double = 0.05, significance: Double = 0.05, timingThresholds: [String: Double] = [:], asynchronousCountTolerance: Double = 0.05,
                normalizeToPlain: Bool = false, gatesTimings: Bool = true, gatesAsynchronousCounts: Bool = true) {
        self.timingThreshold = timingThreshold
        self.significance = significance
        self.timingThresholds = timingThresholds
        self.asynchronousCountTolerance = asynchronousCountTolerance
        self.normalizeToPlain = normalizeToPlain
        self.gatesTimings = gatesTimings
        self.gatesAsynchronousCounts = gatesAsynchronousCounts
    }

    /// Rounds (worker processes) each side needs before a timing is judged. Samples of one process
    /// are not independent (its memory layout and the machine's regime at the time hold for all of
    /// them), so a change is tested across processes: each round's median is one observation.
    public static let minimumRounds = 4

    /// What kind of number a metric is, for the gate.
    public enum MetricClass: String, Sendable {
        /// Sampled time per operation: threshold plus significance.
        case timing
        /// An exact count (bytes, allocations, re-runs, torn observations): must not grow.
        case count
        /// Reported, never gated: fixed by the workload, derived from timings, or known to move
        /// with allocator bookkeeping outside the strategy (see `informationalMetrics`).
        case informational
    }

    /// Metrics the gate reports but does not judge, and why.
    public static let informationalMetrics: [String: String] = [
        "loop_overhead": "the harness's empty loop",
        "transactions": "fixed by the workload",
        "reruns_needed_per_write": "fixed by the topology",
        "growth_exponent": "derived from timings; the timings are gated",
        "bytes_left_after_teardown": "moves with runtime and dispatch caches released on their own schedule",
        "throughput": "derived from the latency timing, which is gated",
        "voluntary_switches_per_1000_hops": "kernel scheduling: moves with the machine's load",
        "involuntary_switches_per_1000_hops": "kernel scheduling: moves with the machine's load",
        "threads": "the runtime's thread pools grow on their own schedule",
        "caller_threads_observed": "the runtime's thread pools grow on their own schedule",
    ]

    public static func metricClass(_ metric: String) -> MetricClass {
        if metric == "latency" { return .timing }
        if informationalMetrics[metric] != nil { return .informational }
        return .count
    }

    /// The timing threshold for one row.
    public func threshold(workload: String, metric: String) -> Double {
        timingThresholds["\(workload)/\(metric)"] ?? timingThresholds[metric] ?? timingThreshold
    }

    /// Whether `strategy` delivers asynchronously (its counts then depend on thread timing).
    public static func isAsynchronous(_ strategy: String) -> Bool {
        StrategyRegistry.entry(named: strategy)?.descriptor.capabilities.delivery == .asynchronous
    }

    /// The relative growth a count of `strategy` may show.
    public func countTolerance(strategy: String) -> Double {
        Self.isAsynchronous(strategy) ? asynchronousCountTolerance : 0
    }
}
