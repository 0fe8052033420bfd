/// A named list of workloads: what `--suite NAME` runs, one worker process per strategy.
public struct Suite: Sendable {
    public var name: String
    public var summary: String
    /// Records per store, unless `--objects` says otherwise.
    public var defaultObjects: Int
    /// The workload whose `latency` median heads the summary table, first.
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
    /// What the end-of-run table shows for this suite.
    public var headline: Headline

    /// The kinds of summary table.
    public enum Headline: Sendable {
        /// Each workload's `latency` median and its ratio to `plain`.
        case latency
        /// Bytes per object, overhead over `plain`, cost of 100,000 objects, per subscriber and per write.
        case memory
        /// Per topology: the cost per further view, the last decade's growth, and the latency at
        /// the largest subscriber count.
        case scaling
        /// Per workload: torn observations per 1,000 transactions and re-runs per transaction.
        case consistency
        /// Per isolation kind and caller count: round-trip latency and its ratio to a default actor.
        case hops
        /// Per store of the migration plan: write to view, reads, switches, bytes, lost writes,
        /// next to the design note's predictions.
        case storeIsolation
        /// Per compute placement and task count: probe latencies; the pool's width; batching.
        case pool
    }

    /// The workloads `--measure instructions` runs: those that can count instructions.
    public var instructionWorkloads: [any Workload] { workloads.filter(\.countsInstructions) }

    /// The workloads a worker runs when the run measures `measure`.
    public func workloads(measuring measure: CostMeasure) -> [any Workload] {
        measure == .instructions ? instructionWorkloads : workloads
    }

    /// Whether the suite measures something other than the strategies (actor hops, the stores of
    /// the migration plan, the cooperative pool): it then runs
    /// in one worker, whatever `--strategy` says, and its rows name no strategy (`-`).
    public var independentOfStrategies: Bool { [.hops, .storeIsolation, .pool].contains(headline) }

    public init(name: String, summary: String, defaultObjects: Int, defaultRounds: Int = 1, objectSweep: [Int]? = nil, quickObjectSweep: [Int]? = nil, runsOnJemalloc: Bool = false, headline: Headline = .latency, workloads: [any Workload]) {
        self.name = name
        self.summary = summary
        self.defaultObjects = defaultObjects
        self.defaultRounds = defaultRounds
        self.objectSweep = objectSweep ?? [defaultObjects]
        self.quickObjectSweep = quickObjectSweep ?? self.objectSweep
        self.runsOnJemalloc = runsOnJemalloc
        self.headline = headline
        self.workloads = workloads
    }
}

/// Every suite obsbench can run. Adding a workload means one file in `Workloads/` and a line here.
public enum SuiteRegistry {
    public static let all: [Suite] = [
        Suite(
            name: "latency",
            summary: "read/write latency per operation, ns/op",
            defaultObjects: 1_000,
            defaultRounds: 8,
            workloads: [
                ReadUntrackedWorkload(),
                ReadInsideViewWorkload(),
                ViewScopeWorkload(),
                WriteUnobservedWorkload(),
                WriteObservedWorkload(),
                TwoFieldTransactionWorkload(),
                ConcreteReferenceWorkload(),
                IgnoredFieldWorkload(),
                ScanAllWorkload(),
            ]
        ),
        Suite(
            name: "memory",
            summary: "bytes per object, per subscriber and per write, from the allocator's own counters (jemalloc; glibc's mallinfo2 if jemalloc is missing, said in every row)",
            defaultObjects: 1_000,
            objectSweep: [1_000, 10_000, 100_000],
            quickObjectSweep: [1_000, 10_000],
            runsOnJemalloc: true,
            headline: .memory,
            workloads: [
                StoreLifecycleWorkload(),
                SubscriberMemoryWorkload(),
                WriteAllocationsWorkload(),
                IsolationFootprintWorkload(),
            ]
        ),
        Suite(
            name: "scaling",
            summary: "write-to-quiescence latency and re-runs as subscribed views grow, S = 1...10000 (--quick: ...1000), one store of the largest S + 1 records for every topology",
            defaultObjects: 0,
            headline: .scaling,
            workloads: ScalingTopology.allCases.map { SubscriberScalingWorkload(topology: $0) }
        ),
        Suite(
            name: "consistency",
            summary: "torn observations: states shown that never existed at a commit boundary, one observation against two combined",
            defaultObjects: 20,
            headline: .consistency,
            workloads: InvariantWorkload.Views.allCases.flatMap { views in [1, 2].map { InvariantWorkload(writers: $0, views: views) } }
        ),
        Suite(
            name: "hops",
            summary: "round trips across isolation: default actor, main actor, dedicated-thread executor, TaskExecutor preference, DispatchQueue, Mutex; 1/2/8/64 callers",
            defaultObjects: 0,
            headline: .hops,
            workloads: RoundTripHopWorkload.Kind.allCases.map { RoundTripHopWorkload(kind: $0) as any Workload }
                + WriteToViewHopWorkload.Handoff.allCases.map { WriteToViewHopWorkload(handoff: $0) as any Workload }
        ),
        Suite(
            name: "store-isolation",
            summary: "the design notes' GCD-queue store against its @MainActor and actor replacements: write to view, reads, switches, 100 concurrent writers (bytes per store: memory suite)",
            defaultObjects: 0,
            headline: .storeIsolation,
            workloads: [StoreWriteWorkload(), StoreReadWorkload(caller: .mainActor), StoreReadWorkload(caller: .background), StoreConcurrentWritersWorkload()]
        ),
        Suite(
            name: "pool",
            summary: "the cooperative pool under CPU-bound load: probe latency with K = 0, cores, 4 × cores busy tasks on the pool, a custom TaskExecutor or concurrentPerform; pool width and blocked-thread start delay; 1,000 items to the main actor per item or batched",
            defaultObjects: 0,
            headline: .pool,
            workloads: ComputePlacement.allCases.map { PoolSaturationWorkload(placement: $0) as any Workload } + [PoolWidthWorkload(), MainActorBatchingWorkload()]
        ),
    ]

    public static var names: [String] { all.map(\.name) }

    public static func suite(named name: String) -> Suite? {
        all.first { $0.name == name }
    }
}
