/// A named list of workloads: what `--suite NAME` runs, one worker process per strategy.
public struct Suite: Sendable {
    public var name: String
    public var summary: String
    /// Records per store, unless `--objects` says otherwise.
    public var defaultObjects: Int
    /// What the suite runs, in order.
    public var workloads: [any Workload]
    /// Worker rounds per strategy unless `--rounds` says otherwise: a timing suite interleaves
    /// several short rounds of every strategy so each one's samples span the run; a suite of exact
    /// counts needs one.
    public var defaultRounds: Int
    /// Store sizes a sweeping workload uses, full and `--quick`, unless `--objects` names one.
    public var objectSweep: [Int]
    public var quickObjectSweep: [Int]
    /// Whether workers run on jemalloc (memory: exact allocator counters) rather than the system
    /// allocator applications run on (timing).
    public var runsOnJemalloc: Bool
    /// Whether the suite measures the strategies. A suite that measures something else (actor
    /// hops, the stores of the migration plan, the cooperative pool) runs in one worker, whatever
    /// `--strategy` says, and its rows name no strategy (`-`).
    public var measuresStrategies: Bool
    /// Whether the suite's workers may run side by side (up to `--jobs`): true for a suite whose
    /// figures are exact counts of each worker's own process (memory: the allocator's counters),
    /// which other processes on the machine cannot move. Timing suites run one worker at a time.
    public var countsOnly: Bool
    /// The suite's summary tables, from a run's rows and the strategies in it (in table order):
    /// one per scale (latency: operations in ns, concrete loops, scans in µs or ms). They read the
    /// suite's own rows and those of ``tablesAlsoRead`` only: a run prints them as soon as those
    /// suites are done, while others may have no rows yet (``SuiteReadiness``; SummaryStreamTests
    /// checks committed runs). The suite's chart is `plots/<name>.svg`, drawn by plot-scripts/plot.py.
    public var tables: @Sendable (_ suite: Suite, _ rows: [ResultRow], _ strategies: [String]) -> [SummaryTable]
    /// Other suites whose rows ``tables`` reads (store-isolation: the memory suite's bytes per
    /// store); a run prints the suite's tables only once these are done too, if it runs them.
    public var tablesAlsoRead: [String]
    /// The wall time one of the suite's workers takes, relative to other suites' (seconds per
    /// worker of a `--quick` run on the 2-core development VM, 2026-12-04: latency 56 s for 88
    /// workers, memory 49 s for 11, derived 47 s for 11, …): how the progress line weighs the jobs
    /// left, scaled by how the run has gone against it so far. Not a limit.
    public var secondsPerWorker: Double
    /// How much longer a worker under Callgrind takes than timed (the latency suite: 6.7 s a
    /// worker counted, 0.64 s timed), for the same weighing.
    public static let instructionSlowdown = 10.0

    /// The suite's chart, relative to the run folder: plot-scripts/plot.py draws it, the report inlines it.
    public var chartFile: String { "plots/\(name).svg" }

    /// The workloads `--measure instructions` runs: those that can count instructions.
    public var instructionWorkloads: [any Workload] { workloads.filter(\.countsInstructions) }

    /// Whether `name` picks `workload`: its own name (what `obsbench list` shows) or the name of
    /// rows it writes (a derived style's `membership-cached`, a concrete loop's
    /// `read-untracked-concrete`), so a name read off a table or a gate report picks its workload.
    public static func picks(_ name: String, _ workload: any Workload) -> Bool {
        workload.name == name || workload.writesRows(named: name)
    }

    /// The suite with only the workloads `names` pick (``picks(_:_:)``), in the suite's order:
    /// what `--workload` runs. Empty `names` keep every workload.
    public func keeping(workloads names: [String]) -> Suite {
        guard !names.isEmpty else { return self }
        var kept = self
        kept.workloads = workloads.filter { workload in names.contains { Self.picks($0, workload) } }
        return kept
    }

    /// The workloads a worker runs when the run measures `measure`.
    public func workloads(measuring measure: CostMeasure) -> [any Workload] {
        measure == .instructions ? instructionWorkloads : workloads
    }

    public init(
        name: String, summary: String, defaultObjects: Int, defaultRounds: Int = 1, objectSweep: [Int]? = nil, quickObjectSweep: [Int]? = nil, runsOnJemalloc: Bool = false,
        measuresStrategies: Bool = true, countsOnly: Bool = false,
        tables: @escaping @Sendable (_ suite: Suite, _ rows: [ResultRow], _ strategies: [String]) -> [SummaryTable], tablesAlsoRead: [String] = [],
        secondsPerWorker: Double = 1, workloads: [any Workload]
    ) {
        self.name = name
        self.summary = summary
        self.defaultObjects = defaultObjects
        self.defaultRounds = defaultRounds
        self.objectSweep = objectSweep ?? [defaultObjects]
        self.quickObjectSweep = quickObjectSweep ?? self.objectSweep
        self.runsOnJemalloc = runsOnJemalloc
        self.measuresStrategies = measuresStrategies
        self.countsOnly = countsOnly
        self.tables = tables
        self.tablesAlsoRead = tablesAlsoRead
        self.secondsPerWorker = secondsPerWorker
        self.workloads = workloads
    }
}

/// Every suite obsbench can run, in the order a run takes them. Adding a suite means one file in
/// `Suites/` (the suite, its workloads named, and its table) and its name in this list.
public enum SuiteRegistry {
    public static let all: [Suite] = [
        .latency,
        .memory,
        .scaling,
        .consistency,
        .hops,
        .storeIsolation,
        .pool,
        .subscription,
        .derived,
    ]

    public static var names: [String] { all.map(\.name) }

    public static func suite(named name: String) -> Suite? {
        all.first { $0.name == name }
    }

    /// The workload of suite `suite` whose rows are named `rowWorkload` (the `workload` column);
    /// nil when no suite of this binary writes such rows.
    public static func workload(suite: String, rowWorkload: String) -> (any Workload)? {
        self.suite(named: suite)?.workloads.first { $0.writesRows(named: rowWorkload) }
    }
}
