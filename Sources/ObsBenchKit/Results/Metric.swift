/// A kind of number in `results.csv`: its name in the `metric` column, its unit, and how the gate
/// judges it (as package-benchmark's `BenchmarkMetric` does). Metrics not listed in `Metric.all`
/// are exact counts (bytes, allocations, re-runs, torn observations), which the gate holds strictly.
public struct Metric: Sendable, Hashable {
    public var name: String
    public var unit: String
    public var gate: GateTreatment

    /// How the gate treats a metric.
    public enum GateTreatment: Sendable, Hashable {
        /// Sampled wall-clock time: a noise threshold plus a significance test across rounds.
        case timing
        /// Instructions counted under Callgrind: a tight relative tolerance, no significance test.
        case instructions
        /// An exact count: must not grow.
        case count
        /// Reported, never judged, for the reason given.
        case informational(String)

        /// `timing`, `instructions`, `count` or `informational`.
        public var name: String {
            switch self {
            case .timing: "timing"
            case .instructions: "instructions"
            case .count: "count"
            case .informational: "informational"
            }
        }

        /// Why an informational metric is not judged; nil for the others.
        public var reason: String? {
            if case .informational(let reason) = self { return reason }
            return nil
        }
    }

    public init(_ name: String, unit: String, gate: GateTreatment) {
        self.name = name
        self.unit = unit
        self.gate = gate
    }

    /// Wall-clock time per operation, the empty loop's subtracted.
    public static let latency = Metric("latency", unit: "ns/op", gate: .timing)
    /// The empty loop's time per iteration that was subtracted from `latency`.
    public static let loopOverhead = Metric("loop_overhead", unit: "ns/op", gate: .informational("the harness's empty loop"))
    /// Instructions per operation under Callgrind, every thread, the empty loop's subtracted.
    public static let instructions = Metric("instructions", unit: "Ir/op", gate: .instructions)
    /// The empty loop's instructions per iteration that were subtracted from `instructions`.
    public static let instructionLoopOverhead = Metric("instruction_loop_overhead", unit: "Ir/op", gate: .informational("the harness's empty loop"))
    /// iai-callgrind's cycle estimate from Callgrind's simulated caches.
    public static let estimatedCycles = Metric("estimated_cycles", unit: "cycles/op", gate: .informational("an estimate from simulated caches; the instruction count is gated"))

    /// Bytes per instance of an isolation primitive (`isolation-footprint`): an exact count.
    public static let bytesPerInstance = Metric("bytes_per_instance", unit: "B/instance", gate: .count)
    /// Bytes per empty store of the store-isolation suite, reported only: a dispatch queue's
    /// internals are allocated and freed on dispatch's own schedule.
    public static let bytesPerStore = Metric("bytes_per_store", unit: "B/store", gate: .informational("a dispatch queue's internals are allocated and freed on dispatch's own schedule: ±0.1 B per store between runs"))

    /// Every metric that is not an exact count, by name.
    public static let all: [String: Metric] = Dictionary(uniqueKeysWithValues: ([
        latency, loopOverhead, instructions, instructionLoopOverhead, estimatedCycles, bytesPerStore,
        Metric("transactions", unit: "transactions", gate: .informational("fixed by the workload")),
        Metric("reruns_needed_per_write", unit: "reruns/write", gate: .informational("fixed by the topology")),
        Metric("growth_exponent", unit: "log-log slope", gate: .informational("derived from timings; the timings are gated")),
        Metric("growth_exponent_r2", unit: "R²", gate: .informational("derived from timings; the timings are gated")),
        Metric("last_decade_slope", unit: "log-log slope", gate: .informational("derived from timings; the timings are gated")),
        Metric("cost_per_view", unit: "ns/view", gate: .informational("derived from timings; the timings are gated")),
        Metric("combined_torn_observations", unit: "observations", gate: .informational("follows which of two views re-runs first after a commit: hash order and thread timing")),
        Metric("combined_torn_per_1000_transactions", unit: "torn/1000 transactions", gate: .informational("follows which of two views re-runs first after a commit: hash order and thread timing")),
        Metric("bytes_left_after_teardown", unit: "B", gate: .informational("moves with runtime and dispatch caches released on their own schedule")),
        Metric("throughput", unit: "hops/s", gate: .informational("derived from the latency timing, which is gated")),
        Metric("voluntary_switches_per_1000_hops", unit: "switches/1000 hops", gate: .informational("kernel scheduling: moves with the machine's load")),
        Metric("involuntary_switches_per_1000_hops", unit: "switches/1000 hops", gate: .informational("kernel scheduling: moves with the machine's load")),
        Metric("voluntary_switches_per_write", unit: "switches/write", gate: .informational("kernel scheduling: moves with the machine's load")),
        Metric("voluntary_switches_per_read", unit: "switches/read", gate: .informational("kernel scheduling: moves with the machine's load")),
        Metric("voluntary_switches_per_1000_items", unit: "switches/1000 items", gate: .informational("kernel scheduling: moves with the machine's load")),
        Metric("wall_ns_per_write", unit: "ns/write", gate: .informational("one wall-clock reading of the whole run, no samples to judge")),
        Metric("pool_threads_observed", unit: "threads", gate: .informational("the runtime's thread pools grow on their own schedule")),
        Metric("threads", unit: "threads", gate: .informational("the runtime's thread pools grow on their own schedule")),
        Metric("caller_threads_observed", unit: "threads", gate: .informational("the runtime's thread pools grow on their own schedule")),
    ] as [Metric]).map { ($0.name, $0) })

    /// How the gate treats the metric called `name`: listed, or else an exact count.
    public static func gate(of name: String) -> GateTreatment {
        all[name]?.gate ?? .count
    }
}
