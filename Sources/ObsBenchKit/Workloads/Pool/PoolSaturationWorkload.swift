import Dispatch
import ObservationStrategies

/// What K CPU-bound tasks without suspension points do to other async work, and what moving them
/// off the pool buys: while K tasks of `busyMilliseconds` each run (K = 0, cores, 4 × cores),
/// placed on the pool, on a custom `TaskExecutor`, or in `DispatchQueue.concurrentPerform`
/// (`ComputePlacement`), the main actor makes one probe, timed: a round trip into a default actor
/// (which needs a pool thread) from a new task at the compute's priority or from the main actor
/// at its own (higher) priority, or a main-actor job (which needs the main thread only). Each
/// trial starts the compute, lets it take its threads (1 ms), probes once, and waits for the
/// compute to end; the rows hold the trials' probe latencies.
public struct PoolSaturationWorkload: Workload {
    /// What the main actor times while the compute runs.
    public enum Probe: String, Sendable, CaseIterable {
        /// A round trip into a default actor from a new task at the compute's priority (medium):
        /// other async work of the same kind.
        case actorRoundTrip = "actor-round-trip"
        /// The same round trip made by the main actor itself, at its user-initiated priority.
        case actorRoundTripFromMain = "actor-round-trip-from-main"
        /// A job on the main actor, made and awaited by the main actor (needs the main thread only).
        case mainActorJob = "main-actor-job"

        /// What the probe is, for its row's note.
        var what: String {
            switch self {
            case .actorRoundTrip: "a default-actor round trip from a new task at medium priority, timed by the main actor"
            case .actorRoundTripFromMain: "a default-actor round trip made by the main actor (user-initiated)"
            case .mainActorJob: "a main-actor job made and awaited by the main actor"
            }
        }
    }

    public let placement: ComputePlacement
    public var name: String { "saturation-\(placement.rawValue)" }
    public var summary: String {
        "K = 0, cores, 4 × cores CPU-bound tasks (\(Self.busyMilliseconds(quick: false)) ms each, no suspension) on \(placement.rawValue); the main actor times default-actor round trips (at the compute's priority and its own) and a main-actor job"
    }

    /// Its rows count the runtime's or dispatch's threads, whose timing moves them.
    public let measuredThreads = MeasuredThreads.poolThreads

    public init(placement: ComputePlacement) {
        self.placement = placement
    }

    static func busyMilliseconds(quick: Bool) -> UInt64 { quick ? 10 : 20 }
    static func trials(quick: Bool) -> Int { quick ? 7 : 15 }

    /// The compute task counts: none, one per core, four per core.
    public static var taskCounts: [Int] { [0, CPUWork.cores, 4 * CPUWork.cores] }

    public func run(_ context: WorkloadContext) async throws -> WorkloadOutput {
        let executor = ThreadPoolTaskExecutor(name: "obsbench-pool-compute", threads: 2)
        defer { executor.shutdown() }
        let actor = PoolProbeActor()
        let busy = Self.busyMilliseconds(quick: context.quick) * 1_000_000
        var output = WorkloadOutput()
        for count in Self.taskCounts {
            for probe in Probe.allCases {
                var latencies: [Double] = []
                for _ in 0..<Self.trials(quick: context.quick) {
                    let placement = placement
                    let compute = Task.detached { await placement.run(count, nanoseconds: busy, executor: executor) }
                    if count > 0 { CPUWork.sleep(milliseconds: 1) }
                    let begin = MonotonicClock.now()
                    switch probe {
                    case .actorRoundTrip: blackHole(await Task.detached(priority: .medium) { await actor.touch() }.value)
                    case .actorRoundTripFromMain: blackHole(await actor.touch())
                    case .mainActorJob: await Task { @MainActor in blackHole(1) }.value
                    }
                    latencies.append(Double(MonotonicClock.now() - begin))
                    await compute.value
                }
                // Busy tasks per core in `subscribers`, so a claim can name "4 per core" on any machine.
                output.append(
                    context.latencyTrialsOutput(
                        workload: name, trials: latencies, executor: probe.rawValue, callers: count, subscribers: count / CPUWork.cores,
                        note:
                            "\(probe.what) while \(count) CPU-bound task(s) of \(busy / 1_000_000) ms run on \(placement.rawValue); \(latencies.count) trials, one probe each; \(CPUWork.cores) cores"
                    ))
            }
        }
        return output
    }
}
