extension Suite {
    /// `--suite store-isolation`: the design notes' GCD-queue store against its @MainActor and actor replacements; measures no strategy.
    public static let storeIsolation = Suite(
        name: "store-isolation",
        summary:
            "the design notes' GCD-queue store against its @MainActor and actor replacements: write to view, reads, switches, 100 concurrent writers (bytes per store: memory suite)",
        defaultObjects: 0,
        measuresStrategies: false,
        tables: { suite, rows, _ in [SummaryTable(storeIsolationOf: suite, rows: rows)] },
        tablesAlsoRead: [Suite.memory.name],  // bytes per store
        secondsPerWorker: 1.0,
        workloads: [StoreWriteWorkload(), StoreReadWorkload(caller: .mainActor), StoreReadWorkload(caller: .background), StoreConcurrentWritersWorkload()]
    )
}

extension SummaryTable {
    /// The design note's predicted table, shown under the measured one.
    static let storeIsolationPrediction = "the note predicted: write ~50 µs (GCD queue) vs ~10 µs (actor hop); read on the main thread ~5 µs vs ~2 µs; ~200 B vs ~64 B per store"

    /// Per store of the migration plan (a row each): write from a background task until the view
    /// has seen it, reads from the main actor and from a background task, context switches per
    /// write, bytes per empty store (from the memory suite, when it ran), and writes lost by 100
    /// concurrent writers with the wall time per write.
    init(storeIsolationOf suite: Suite, rows allRows: [ResultRow]) {
        self.suite = suite.name
        rowLabel = "store"
        unit = "median per operation; switches per write; bytes per empty store; writes lost of 10,000"
        columns = ["write → view", "read (main)", "read (background)", "switches/write", "B/store", "lost (100 writers)", "wall/write (100 writers)"]
        let failed = allRows.contains { $0.suite == suite.name && $0.isError }
        func value(_ suiteName: String, _ workload: String, _ executor: String, _ metric: Metric) -> Double? {
            allRows.first(RowQuery(suite: suiteName, workload: workload, executor: executor, metric: metric))?.statistics?.median
        }
        rows = StoreKind.allCases.map { kind in
            let store = kind.rawValue
            func cell(_ number: Double?, _ format: (Double) -> String) -> String {
                number.map(format) ?? (failed ? "error" : "—")
            }
            return (
                store,
                [
                    cell(value(suite.name, StoreWriteWorkload().name, store, .latency), NumberFormat.nanoseconds),
                    cell(value(suite.name, StoreReadWorkload(caller: .mainActor).name, store, .latency), NumberFormat.nanoseconds),
                    cell(value(suite.name, StoreReadWorkload(caller: .background).name, store, .latency), NumberFormat.nanoseconds),
                    cell(value(suite.name, StoreWriteWorkload().name, store, .voluntarySwitchesPerWrite), NumberFormat.count),
                    value(Suite.memory.name, IsolationFootprintWorkload().name, store, .bytesPerStore).map(NumberFormat.bytes) ?? "(memory suite)",
                    cell(value(suite.name, StoreConcurrentWritersWorkload().name, store, .lostWrites), NumberFormat.count),
                    cell(value(suite.name, StoreConcurrentWritersWorkload().name, store, .wallNanosecondsPerWrite), NumberFormat.nanoseconds),
                ]
            )
        }
        footnotes = [Self.storeIsolationPrediction]
    }
}
