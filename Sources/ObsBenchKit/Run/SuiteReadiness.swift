/// Which suites' summary tables a run may print while it goes on (``BenchmarkRun/suiteDone``).
///
/// A suite is *ready* once every job of it that the run runs has finished and its rows are pooled
/// into `results.csv` (every strategy, round and measure), and so has every job of the suites
/// whose rows its tables also read (`Suite.tablesAlsoRead`). It is *released* once it is ready and
/// every suite before it in the plan has been released, so tables come out in the plan's order,
/// each suite's once, whatever order the workers end in (strategies interleaved round after
/// round, or suites side by side). A suite with no job to run (a shard that selects none of its
/// jobs, a suite with nothing to measure the way the run asks) is ready once those it reads are.
///
/// A suite's tables read no other rows (`Suite.tables`), so a released suite's tables are final:
/// the rows of suites still running cannot change them.
///
/// ```swift
/// var readiness = SuiteReadiness(suites: plan.suites.map(\.name), jobs: plan.selectedJobs, reads: ["store-isolation": ["memory"]])
/// readiness.finished(job)                            // the job's rows are pooled
/// for suite in readiness.release() { print(suite) }  // ready, and every suite before it released
/// ```
public struct SuiteReadiness: Sendable {
    /// The suites, in the order their tables are printed.
    public let order: [String]
    /// Each suite's jobs that have not finished yet.
    private var unfinished: [String: Set<RunJob>]
    /// The other suites whose rows each suite's tables read.
    private let reads: [String: [String]]
    /// How many suites of ``order``, from the first, have been released.
    public private(set) var releasedCount = 0

    /// - Parameters:
    ///   - suites: the suites in the plan's order (each once).
    ///   - jobs: every job the run will run (in a shard, those it selects).
    ///   - reads: for a suite whose tables read other suites' rows, those suites
    ///     (`Suite.tablesAlsoRead`); one the run does not run has no job to wait for.
    public init(suites: [String], jobs: [RunJob], reads: [String: [String]] = [:]) {
        order = suites
        unfinished = Dictionary(grouping: jobs, by: \.suite).mapValues { Set($0) }
        self.reads = reads
    }

    /// Records that `job` has finished and its rows are pooled. A job the run does not run, or
    /// one already recorded, changes nothing.
    public mutating func finished(_ job: RunJob) {
        unfinished[job.suite]?.remove(job)
    }

    /// Whether every job of `suite`, and of the suites whose rows its tables read, has finished
    /// (true for suites with no jobs).
    public func isReady(_ suite: String) -> Bool {
        ([suite] + (reads[suite] ?? [])).allSatisfy { unfinished[$0]?.isEmpty ?? true }
    }

    /// The suites released since the last call, in order: those after the last one released that
    /// are ready, up to the first that is not. Each suite is returned once in all.
    public mutating func release() -> [String] {
        var released: [String] = []
        while releasedCount < order.count, isReady(order[releasedCount]) {
            released.append(order[releasedCount])
            releasedCount += 1
        }
        return released
    }

    /// Whether every suite has been released.
    public var isComplete: Bool { releasedCount == order.count }
}
