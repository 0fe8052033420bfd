extension Suite {
    /// `--suite hops`: round trips across isolation boundaries; measures no strategy.
    public static let hops = Suite(
        name: "hops",
        summary: "round trips across isolation: default actor, main actor, dedicated-thread executor, TaskExecutor preference, DispatchQueue, Mutex; 1/2/8/64 callers",
        defaultObjects: 0,
        // Six worker processes, each with a sixth of the budget: a kind is compared with a default
        // actor only where six or more paired rounds agree (``FloorComparison``).
        defaultRounds: 6,
        measuresStrategies: false,
        tables: { suite, rows, _ in [SummaryTable(hopsOf: suite, rows: rows)] },
        secondsPerWorker: 3.0,
        workloads: RoundTripHopWorkload.Kind.allCases.map { RoundTripHopWorkload(kind: $0) as any Workload }
            + WriteToViewHopWorkload.Handoff.allCases.map { WriteToViewHopWorkload(handoff: $0) as any Workload }
    )
}

extension SummaryTable {
    /// Per isolation kind (a row each) and caller count (a column each): the median round trip and
    /// how it compares with a default actor's with as many callers, measured in the same run
    /// (``FloorComparison``: the difference where the intervals allow, the ratio where the floor is
    /// well measured).
    init(hopsOf suite: Suite, rows allRows: [ResultRow]) {
        self.suite = suite.name
        let measures = Self.costMeasures(in: allRows, suite: suite.name)
        // The caller counts measured (instruction counts are made at 1 caller only).
        let measuredCallers = Set(allRows.filter { $0.suite == suite.name && measures.map(\.metric).contains($0.metric) }.map(\.concurrency))
        let concurrencies = RoundTripHopWorkload.concurrencies.filter { measuredCallers.isEmpty || measuredCallers.contains($0) }
        columns = concurrencies.map { $0 == 1 ? "1 caller" : "\($0) callers" }
        unit = "\(Self.statistic(measures, rows: allRows, suite: suite.name)) per round trip per caller (net of default-actor, × default-actor; same callers)"
        rowLabel = "isolation"
        let failed = allRows.contains { $0.suite == suite.name && $0.isError }
        func row(_ measure: CostMeasure, _ workload: String, _ executor: String?, _ callers: Int) -> ResultRow? {
            allRows.first(RowQuery(suite: suite.name, workload: workload, executor: executor, metric: measure.metric, concurrency: callers))
        }
        let floor = RoundTripHopWorkload(kind: .defaultActor)
        func cell(_ workload: String, _ executor: String?, _ callers: Int) -> String {
            Self.costCell(measures: measures, failed: failed) { measure in
                (row(measure, workload, executor, callers), row(measure, floor.name, floor.kind.rawValue, callers))
            }
        }
        rows = RoundTripHopWorkload.Kind.allCases.map { kind in
            let workload = RoundTripHopWorkload(kind: kind).name
            return (kind.rawValue, concurrencies.map { cell(workload, kind.rawValue, $0) })
        }
        footnotes.append(FloorComparison.footnote(floorName: floor.kind.rawValue))
        if allRows.contains(where: { $0.suite == suite.name && $0.note.contains(RoundTripHopWorkload.countedThreadsNote) }) {
            footnotes.append(
                "\(RoundTripHopWorkload.Kind.taskExecutorToActor.rawValue): timed on an executor of \(RoundTripHopWorkload.taskExecutorThreads(.time)) threads, \(RoundTripHopWorkload.countedThreadsNote)"
            )
        }
        // The write-to-view cases: one caller (the main actor) each.
        for handoff in WriteToViewHopWorkload.Handoff.allCases {
            let workload = WriteToViewHopWorkload(handoff: handoff).name
            rows.append((workload, [cell(workload, nil, 1)] + Array(repeating: "—", count: concurrencies.count - 1)))
        }
    }
}
