extension Suite {
    /// `--suite pool`: the cooperative pool under CPU-bound load; measures no strategy.
    public static let pool = Suite(
        name: "pool",
        summary:
            "the cooperative pool under CPU-bound load: probe latency with K = 0, cores, 4 × cores busy tasks on the pool, a custom TaskExecutor or concurrentPerform; pool width and blocked-thread start delay; 1,000 items to the main actor per item or batched",
        defaultObjects: 0,
        measuresStrategies: false,
        tables: { suite, rows, _ in [SummaryTable(poolOf: suite, rows: rows)] },
        secondsPerWorker: 5.0,
        workloads: ComputePlacement.allCases.map { PoolSaturationWorkload(placement: $0) as any Workload } + [PoolWidthWorkload(), MainActorBatchingWorkload()]
    )
}

extension SummaryTable {
    /// Per compute placement and probe (a row each) and number of CPU-bound tasks (a column
    /// each): the probe's median latency. Under it, the pool's width seen, the start delay of a
    /// new job with blocked pool tasks, and 1,000 items to the main actor per item or batched.
    init(poolOf suite: Suite, rows allRows: [ResultRow]) {
        self.suite = suite.name
        rowLabel = "compute on · probe"
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        let counts = PoolSaturationWorkload.taskCounts
        columns = counts.map { $0 == 0 ? "no busy task" : "\($0) busy tasks" }
        unit = "median latency of one probe, timed by the main actor, while K CPU-bound tasks run"
        let failed = allRows.contains { $0.suite == suite.name && $0.isError }
        func median(_ workload: String, _ executor: String, _ concurrency: Int?, _ metric: Metric = .latency) -> Double? {
            measured.first(RowQuery(workload: workload, executor: executor, metric: metric, concurrency: concurrency))?.statistics?.median
        }
        rows = ComputePlacement.allCases.flatMap { placement in
            PoolSaturationWorkload.Probe.allCases.map { probe in
                let workload = PoolSaturationWorkload(placement: placement).name
                return (
                    "\(placement.rawValue) · \(probe.rawValue)",
                    counts.map { count in
                        median(workload, probe.rawValue, count).map(NumberFormat.nanoseconds) ?? (failed ? "error" : "—")
                    }
                )
            }
        }
        let width = PoolWidthWorkload()
        if let threads = median(width.name, "cooperative-pool", nil, .poolThreadsObserved) {
            let delays = (1...(CPUWork.cores + 1)).compactMap { blocked in
                median(width.name, "blocked-pool-tasks", blocked).map { "B=\(blocked) \(NumberFormat.nanoseconds($0))" }
            }
            footnotes.append(
                "pool width seen: \(NumberFormat.count(threads)) threads on \(CPUWork.cores) cores; start delay of a new job with B pool tasks blocked (released \(PoolWidthWorkload.holdMilliseconds) ms after they started): "
                    + delays.joined(separator: ", "))
        }
        let batching = MainActorBatchingWorkload()
        let perItem = MainActorBatchingWorkload.Delivery.perItem.rawValue, batched = MainActorBatchingWorkload.Delivery.batched.rawValue
        if let one = median(batching.name, perItem, nil), let all = median(batching.name, batched, nil) {
            let switches = { (delivery: String) in median(batching.name, delivery, nil, .voluntarySwitchesPer1000Items).map(NumberFormat.count) ?? "—" }
            footnotes.append(
                "1,000 items to the main actor: a hop per item \(NumberFormat.nanoseconds(one)) (\(switches(perItem)) switches), one batched hop \(NumberFormat.nanoseconds(all)) (\(switches(batched)) switches)"
            )
        }
    }
}
