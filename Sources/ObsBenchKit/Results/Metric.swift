/// A kind of number in `results.csv`: its name in the `metric` column, its unit, and how the gate
/// judges it (as package-benchmark's `BenchmarkMetric` does). Every metric a workload writes is a
/// static here and in `Metric.all`. Rows, samples, keys and queries hold a `Metric`, never its name:
///
/// ```swift
/// rows.first(RowQuery(suite: "latency", strategy: "observable", metric: .instructions))
/// row.metric == .latency            // two metrics are the same when their names are
/// Metric.named("instructions")      // .instructions, as a CSV reader decodes the column
/// Metric.named("cpu_seconds")       // a name this version does not list: an exact count
/// ```
///
/// A name this version does not list (a later or earlier version's, read from its CSV) decodes to
/// a metric of that name that the gate treats as an exact count (``named(_:unit:)``), and is
/// written back under the same name.
public struct Metric: Sendable, Hashable, Codable, CustomStringConvertible {
    public var name: String
    public var unit: String
    public var gate: GateTreatment

    /// How the gate treats a metric.
    public enum GateTreatment: Sendable, Hashable {
        /// Sampled wall-clock time: a noise threshold plus a significance test across rounds.
        case timing
        /// Instructions counted under Callgrind: a tight relative tolerance, no significance test.
        case instructions
        /// A cost count (bytes, allocations, retains): must not grow, and a fall beyond
        /// ``GatePolicy/implausibleFraction`` is flagged as implausible rather than passed as an
        /// improvement.
        case count
        /// What a strategy *does* (re-runs, notifications, torn states, lost writes): judged both
        /// ways, since a view that stops re-running is a failure, not an improvement.
        case behaviour
        /// Reported, never judged, for the reason given.
        case informational(String)

        /// `timing`, `instructions`, `count` or `informational`.
        public var name: String {
            switch self {
            case .timing: "timing"
            case .instructions: "instructions"
            case .count: "count"
            case .behaviour: "behaviour"
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

    /// Whether the metric counts allocations (its unit is allocations per object, write, ...)
    /// rather than bytes, time or instructions: a memory row's heap-profile sites then sum to it
    /// by their allocations, not their bytes.
    public var countsAllocations: Bool { unit.hasPrefix("allocations/") }

    /// The metric called `name` in a CSV file: the listed one, else (a name from another version)
    /// one of that name and `unit`, judged as an exact count.
    public static func named(_ name: String, unit: String = "") -> Metric {
        all[name] ?? (name == error.name ? error : Metric(name, unit: unit, gate: .count))
    }

    /// Two metrics are the same when their names are: a name is what a CSV file holds.
    public static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The name, as the `metric` column and the gate's report print it.
    public var description: String { name }

    /// Encoded as its name (a `RowKey` in JSON), decoded by ``named(_:unit:)``.
    public init(from decoder: any Decoder) throws {
        self = Self.named(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// The `metric` of a row saying a worker failed (``ResultRow/error(runID:suite:strategy:message:)``).
    public static let error = Metric("error", unit: "", gate: .informational("a worker failed: its note says why, and its rows are missing"))

    // Reasons shared by several informational metrics.
    private static let emptyLoop = GateTreatment.informational("the harness's empty loop")
    private static let derivedFromTimings = GateTreatment.informational("derived from timings; the timings are gated")
    private static let derivedFromCounts = GateTreatment.informational("derived from the instruction counts at each S, which are gated")
    private static let whichViewFirst = GateTreatment.informational("follows which of two views re-runs first after a commit: hash order and thread timing")
    private static let kernelScheduling = GateTreatment.informational("kernel scheduling: moves with the machine's load")
    private static let poolGrowth = GateTreatment.informational("the runtime's thread pools grow on their own schedule")

    // Cost per operation (every suite that times or counts an operation).

    /// Wall-clock time per operation, the empty loop's subtracted.
    public static let latency = Metric("latency", unit: "ns/op", gate: .timing)
    /// The empty loop's time per iteration that was subtracted from `latency`.
    public static let loopOverhead = Metric("loop_overhead", unit: "ns/op", gate: emptyLoop)
    /// Instructions per operation under Callgrind (the threads ``CountedThreads`` says), the empty
    /// loop's subtracted.
    public static let instructions = Metric("instructions", unit: "Ir/op", gate: .instructions)
    /// The empty loop's instructions per iteration that were subtracted from `instructions`.
    public static let instructionLoopOverhead = Metric("instruction_loop_overhead", unit: "Ir/op", gate: emptyLoop)
    /// The metrics of the instruction mode: counted under Callgrind, one worker per memory layout.
    /// (A counted sweep's b, ``instructionsPerView``, is one of them: its layouts' mean is the b of
    /// their mean counts.)
    public static var countedUnderCallgrind: Set<Metric> {
        [instructions, instructionLoopOverhead, estimatedCycles, instructionsPerView, l1Misses, lastLevelMisses]
    }
    /// iai-callgrind's cycle estimate from Callgrind's simulated caches.
    public static let estimatedCycles = Metric("estimated_cycles", unit: "cycles/op", gate: .informational("an estimate from simulated caches; the instruction count is gated"))
    /// L1 misses per operation in Callgrind's simulated caches (`--cache-sim`: I1 and D1 32 KiB
    /// 8-way, 64 B lines): instruction and data, reads and writes, the empty loop's removed. Exact
    /// for one memory layout; pooled and judged over layouts as instructions are.
    public static let l1Misses = Metric("l1_misses", unit: "L1 misses/op", gate: .instructions)
    /// Last-level misses per operation (LL 8 MiB 16-way): the accesses that went to memory.
    public static let lastLevelMisses = Metric("ll_misses", unit: "LL misses/op", gate: .instructions)
    /// Calls into the runtime's strong-retain entry points per operation (`swift_retain` and its
    /// forms), from Callgrind's call counts, the empty loop's removed (``ReferenceCounts``): one
    /// beside every counted `instructions` row, pooled over the layouts as a count is (the
    /// median of the layouts' values). A synchronous strategy's count is the same in every layout,
    /// so it is judged as an exact count; an asynchronous strategy's includes its delivery
    /// threads' calls and gets the gate's count tolerance.
    public static let retains = Metric("retains", unit: "retains/op", gate: .count)
    /// Calls into the runtime's strong-release entry points per operation (`swift_release` and its
    /// forms), counted as ``retains`` are.
    public static let releases = Metric("releases", unit: "releases/op", gate: .count)

    // Re-runs (latency, scaling).

    /// View re-runs delivered per write.
    public static let rerunsPerWrite = Metric("reruns_per_write", unit: "reruns/write", gate: .behaviour)
    /// View re-runs per burst of K writes settled once (`write-burst-K`): 1 where the strategy
    /// coalesces the burst, K where it re-runs the view for every write.
    public static let rerunsPerBurst = Metric("reruns_per_burst", unit: "reruns/burst", gate: .behaviour)
    /// View re-runs that reached the view only after `write` returned, per write (untimed, after
    /// the measured loop): 0 for a strategy whose delivery is synchronous, as it declares.
    public static let rerunsAfterWriteReturned = Metric("reruns_after_write_returned", unit: "reruns/write", gate: .behaviour)
    /// View re-runs a write called for (views that read what it changed).
    public static let rerunsNeededPerWrite = Metric("reruns_needed_per_write", unit: "reruns/write", gate: .informational("fixed by the topology"))
    /// Share of delivered re-runs that no read field called for.
    public static let spuriousFraction = Metric("spurious_fraction", unit: "fraction", gate: .behaviour)
    /// Nanoseconds per further view: b of latency = a + b·S.
    public static let costPerView = Metric("cost_per_view", unit: "ns/view", gate: derivedFromTimings)
    /// Log-log slope of latency between the sweep's two largest S.
    public static let lastDecadeSlope = Metric("last_decade_slope", unit: "log-log slope", gate: derivedFromTimings)
    /// Log-log least-squares slope of latency over the whole sweep.
    public static let growthExponent = Metric("growth_exponent", unit: "log-log slope", gate: derivedFromTimings)
    /// R² of the `growth_exponent` fit.
    public static let growthExponentR2 = Metric("growth_exponent_r2", unit: "R²", gate: derivedFromTimings)
    /// Instructions per further view: b of Ir/write = a + b·S over a counted sweep (one layout's,
    /// pooled as the mean over layouts). Informational: the counted rows at each S it is fitted to
    /// are judged, exactly for synchronous strategies.
    public static let instructionsPerView = Metric("instructions_per_view", unit: "Ir/view", gate: derivedFromCounts)
    /// Log-log slope of the counts between a counted sweep's two largest S (pooled as a count is:
    /// the median of the layouts').
    public static let instructionsLastDecadeSlope = Metric("instructions_last_decade_slope", unit: "log-log slope", gate: derivedFromCounts)

    // Derived state.

    /// Re-runs, per write, that showed what the view showed before: work that changed nothing on screen.
    public static let avoidableRerunsPerWrite = Metric("avoidable_reruns_per_write", unit: "reruns/write", gate: .behaviour)
    /// Evaluations of derived values per write, every view's together.
    public static let evaluationsPerWrite = Metric("evaluations_per_write", unit: "evaluations/write", gate: .behaviour)
    /// View runs, per write, that showed derived values no single state of the store produces.
    public static let glitchesPerWrite = Metric("glitches_per_write", unit: "glitches/write", gate: .behaviour)

    // Memory.

    /// Live bytes per record of a store just built.
    public static let freshBytesPerObject = Metric("fresh_bytes_per_object", unit: "B/object", gate: .count)
    /// Allocations per record building a store.
    public static let freshAllocationsPerObject = Metric("fresh_allocations_per_object", unit: "allocations/object", gate: .count)
    /// Live bytes per record after one write to every record.
    public static let writtenBytesPerObject = Metric("written_bytes_per_object", unit: "B/object", gate: .count)
    /// Live bytes per record with one view on every record.
    public static let viewedBytesPerObject = Metric("viewed_bytes_per_object", unit: "B/object", gate: .count)
    /// Live bytes left once a store of one size and its views are gone, against just before that
    /// store was built. Reported, not judged: what an earlier size left may be freed inside a later
    /// size's window, so one size's figure can hide another's leak (``peakBytesLeftAfterTeardown``
    /// is judged instead).
    public static let bytesLeftAfterTeardown = Metric(
        "bytes_left_after_teardown", unit: "B",
        gate: .informational("one size of the sweep, against its own start: what an earlier size left may be freed inside its window (peak_bytes_left_after_teardown is judged)"))
    /// The largest of ``bytesLeftAfterTeardown`` over every store size of the sweep, one row per
    /// strategy (its `objects` the sweep's largest size): an exact count, so a leak that grows is
    /// a regression.
    public static let peakBytesLeftAfterTeardown = Metric("peak_bytes_left_after_teardown", unit: "B", gate: .count)
    /// Live bytes per view of one record.
    public static let bytesPerSubscriber = Metric("bytes_per_subscriber", unit: "B/subscriber", gate: .count)
    /// Allocations per write, settled.
    public static let allocationsPerWrite = Metric("allocations_per_write", unit: "allocations/write", gate: .count)
    /// Bytes allocated per write, frees not subtracted.
    public static let bytesAllocatedPerWrite = Metric("bytes_allocated_per_write", unit: "B/write", gate: .count)
    /// Live bytes kept per write.
    public static let retainedBytesPerWrite = Metric("retained_bytes_per_write", unit: "B/write", gate: .count)
    /// Bytes per instance of an isolation primitive (`isolation-footprint`).
    public static let bytesPerInstance = Metric("bytes_per_instance", unit: "B/instance", gate: .count)
    /// Allocations per instance of an isolation primitive or empty store (`isolation-footprint`).
    public static let allocationsPerInstance = Metric("allocations_per_instance", unit: "allocations/instance", gate: .count)
    /// Bytes per empty store of the store-isolation suite, reported only (a dispatch queue's internals).
    public static let bytesPerStore = Metric(
        "bytes_per_store", unit: "B/store", gate: .informational("a dispatch queue's internals are allocated and freed on dispatch's own schedule: ±0.1 B per store between runs"))
    /// Allocations per empty store of the store-isolation suite, reported only, for the same reason.
    public static let allocationsPerStore = Metric(
        "allocations_per_store", unit: "allocations/store",
        gate: .informational("a dispatch queue's internals are allocated and freed on dispatch's own schedule: ±0.0002 allocations per store between builds"))

    // Consistency.

    /// Transactions committed by the background writers.
    public static let transactions = Metric("transactions", unit: "transactions", gate: .informational("fixed by the workload"))
    /// View re-runs per transaction.
    public static let rerunsPerTransaction = Metric("reruns_per_transaction", unit: "reruns/transaction", gate: .behaviour)
    /// Notifications per transaction (below 1: coalesced).
    public static let notificationsPerTransaction = Metric("notifications_per_transaction", unit: "notifications/transaction", gate: .behaviour)
    /// States one observation showed that existed at no commit boundary.
    public static let tornObservations = Metric("torn_observations", unit: "observations", gate: .behaviour)
    /// `torn_observations` per 1,000 transactions.
    public static let tornPer1000Transactions = Metric("torn_per_1000_transactions", unit: "torn/1000 transactions", gate: .behaviour)
    /// States two combined observations showed that existed at no commit boundary.
    public static let combinedTornObservations = Metric("combined_torn_observations", unit: "observations", gate: whichViewFirst)
    /// `combined_torn_observations` per 1,000 transactions.
    public static let combinedTornPer1000Transactions = Metric("combined_torn_per_1000_transactions", unit: "torn/1000 transactions", gate: whichViewFirst)

    // Hops.

    /// Round trips per second, all callers together.
    public static let throughput = Metric("throughput", unit: "hops/s", gate: .informational("derived from the latency timing, which is gated"))
    /// Voluntary context switches per 1,000 round trips.
    public static let voluntarySwitchesPer1000Hops = Metric("voluntary_switches_per_1000_hops", unit: "switches/1000 hops", gate: kernelScheduling)
    /// Involuntary context switches per 1,000 round trips.
    public static let involuntarySwitchesPer1000Hops = Metric("involuntary_switches_per_1000_hops", unit: "switches/1000 hops", gate: kernelScheduling)
    /// Threads in the process after the measurement.
    public static let threads = Metric("threads", unit: "threads", gate: poolGrowth)
    /// Distinct threads the callers ran on.
    public static let callerThreadsObserved = Metric("caller_threads_observed", unit: "threads", gate: poolGrowth)

    // Store isolation.

    /// Voluntary context switches per write to a store.
    public static let voluntarySwitchesPerWrite = Metric("voluntary_switches_per_write", unit: "switches/write", gate: kernelScheduling)
    /// Voluntary context switches per read of a store.
    public static let voluntarySwitchesPerRead = Metric("voluntary_switches_per_read", unit: "switches/read", gate: kernelScheduling)
    /// Writes made by the concurrent writers.
    public static let writes = Metric("writes", unit: "writes", gate: .behaviour)
    /// Writes the store's metrics do not count.
    public static let lostWrites = Metric("lost_writes", unit: "writes", gate: .behaviour)
    /// Wall-clock nanoseconds per write, one reading of the whole run.
    public static let wallNanosecondsPerWrite = Metric("wall_ns_per_write", unit: "ns/write", gate: .informational("one wall-clock reading of the whole run, no samples to judge"))

    // Pool.

    /// Distinct threads that ran 1,000 short pool jobs.
    public static let poolThreadsObserved = Metric("pool_threads_observed", unit: "threads", gate: poolGrowth)
    /// Voluntary context switches per 1,000 items sent to the main actor.
    public static let voluntarySwitchesPer1000Items = Metric("voluntary_switches_per_1000_items", unit: "switches/1000 items", gate: kernelScheduling)

    /// Figures that cannot be negative (bytes held, allocations made): a negative measured value is
    /// below the figure's noise (another allocation freed in the window), printed "≈ 0", never negative.
    public static let cannotBeNegative: Set<Metric> = [
        freshBytesPerObject, freshAllocationsPerObject, writtenBytesPerObject, viewedBytesPerObject, bytesLeftAfterTeardown, peakBytesLeftAfterTeardown,
        bytesPerSubscriber, allocationsPerWrite, bytesAllocatedPerWrite, retainedBytesPerWrite, bytesPerInstance, allocationsPerInstance, bytesPerStore,
        allocationsPerStore,
    ]

    /// Every metric, by name.
    public static let all: [String: Metric] = Dictionary(
        uniqueKeysWithValues: ([
            latency, loopOverhead, instructions, instructionLoopOverhead, estimatedCycles, l1Misses, lastLevelMisses, retains, releases,
            rerunsPerWrite, rerunsPerBurst, rerunsAfterWriteReturned, rerunsNeededPerWrite, spuriousFraction, costPerView, lastDecadeSlope, growthExponent, growthExponentR2,
            instructionsPerView, instructionsLastDecadeSlope, avoidableRerunsPerWrite, evaluationsPerWrite, glitchesPerWrite,
            freshBytesPerObject, freshAllocationsPerObject, writtenBytesPerObject, viewedBytesPerObject, bytesLeftAfterTeardown, peakBytesLeftAfterTeardown,
            bytesPerSubscriber, allocationsPerWrite, bytesAllocatedPerWrite, retainedBytesPerWrite,
            bytesPerInstance, allocationsPerInstance, bytesPerStore, allocationsPerStore,
            transactions, rerunsPerTransaction, notificationsPerTransaction,
            tornObservations, tornPer1000Transactions, combinedTornObservations, combinedTornPer1000Transactions,
            throughput, voluntarySwitchesPer1000Hops, involuntarySwitchesPer1000Hops, threads, callerThreadsObserved,
            voluntarySwitchesPerWrite, voluntarySwitchesPerRead, writes, lostWrites, wallNanosecondsPerWrite,
            poolThreadsObserved, voluntarySwitchesPer1000Items,
        ] as [Metric]).map { ($0.name, $0) })

}
