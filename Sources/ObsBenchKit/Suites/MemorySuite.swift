import Foundation

extension Suite {
    /// `--suite memory`: bytes per object, per subscriber and per write from the allocator's own counters.
    public static let memory = Suite(
        name: "memory",
        summary: "bytes per object, per subscriber and per write, from the allocator's own counters (jemalloc; glibc's mallinfo2 if jemalloc is missing, said in every row)",
        defaultObjects: 1_000,
        objectSweep: [1_000, 10_000, 100_000],
        quickObjectSweep: [1_000, 10_000],
        runsOnJemalloc: true,
        countsOnly: true,
        tables: { [SummaryTable(memoryOf: $0, rows: $1, strategies: $2)] },
        workloads: [
            StoreLifecycleWorkload(),
            SubscriberMemoryWorkload(),
            WriteAllocationsWorkload(),
            IsolationFootprintWorkload(),
        ]
    )
}

extension SummaryTable {
    /// The memory suite: bytes per object at the largest store measured, the overhead over `plain`,
    /// what that whole store cost (100,000 objects unless `--quick` or `--objects`), then per write, per view, per subscriber and
    /// the most left after tear-down at any size of the sweep.
    init(memoryOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let memory = allRows.filter { $0.suite == suite.name && !$0.isError && $0.statistics != nil }
        func value(_ strategy: String, _ metric: Metric, objects: Int? = nil, subscribers: Int? = nil) -> Double? {
            memory.filter { row in
                row.strategy == strategy && row.metric == metric
                    && (objects == nil || row.objects == objects) && (subscribers == nil || row.subscribers == subscribers)
            }.max { $0.objects < $1.objects }?.statistics?.median
        }
        let largest = memory.filter { $0.metric == .freshBytesPerObject }.map(\.objects).max()
        let viewedAt = memory.filter { $0.metric == .viewedBytesPerObject }.map(\.objects).max()
        let subscribersAt = memory.filter { $0.metric == .bytesPerSubscriber }.map(\.subscribers).max()
        columns = [
            "B/object" + (largest.map { " (N=\($0))" } ?? ""), "over plain", "all \(largest.map(String.init) ?? "N") objects", "after 1st write",
            "with a view" + (viewedAt.map { " (N=\($0))" } ?? ""), "B/subscriber" + (subscribersAt.map { " (S=\($0))" } ?? ""),
            "allocs/write", "allocs/write, 1 view", "left after tear-down",
        ]
        unit = Self.memoryUnit(notes: memory.map(\.note))
        func bytes(_ value: Double?) -> String { value.map(NumberFormat.bytes) ?? "—" }
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let fresh = value(strategy, .freshBytesPerObject, objects: largest)
            let floor = value(RowKey.floorStrategy, .freshBytesPerObject, objects: largest)
            var overhead = "—"
            if let fresh, let floor {
                let difference: Double = fresh - floor
                overhead = (difference >= 0 ? "+" : "") + NumberFormat.bytes(difference)
            }
            var total = "—"
            if let fresh, let largest { total = NumberFormat.mebibytes(fresh * Double(largest)) }
            var cells: [String] = [
                bytes(fresh),
                overhead,
                total,
                bytes(value(strategy, .writtenBytesPerObject, objects: largest)),
                bytes(value(strategy, .viewedBytesPerObject, objects: viewedAt)),
                bytes(value(strategy, .bytesPerSubscriber, subscribers: subscribersAt)),
                value(strategy, .allocationsPerWrite, subscribers: 0).map(NumberFormat.count) ?? "—",
                value(strategy, .allocationsPerWrite, subscribers: 1).map(NumberFormat.count) ?? "—",
                bytes(value(strategy, .peakBytesLeftAfterTeardown)),
            ]
            if failed && fresh == nil { cells = cells.map { $0 == "—" ? "error" : $0 } }
            return (strategy, cells)
        }
        if memory.contains(where: { $0.metric == .peakBytesLeftAfterTeardown }) {
            footnotes.append("left after tear-down: the most any store size of the sweep left, each against its own start (gated as an exact count)")
        }
        let footprint = IsolationFootprintWorkload.Kind.allCases.compactMap { kind -> String? in
            allRows.first(RowQuery(suite: suite.name, executor: kind.rawValue, metric: kind.bytesMetric))?
                .statistics.map { "\(kind.rawValue) \(NumberFormat.bytes($0.median))" }
        }
        if !footprint.isEmpty {
            footnotes.append("isolation, bytes per instance (\(IsolationFootprintWorkload.instances) of each): " + footprint.joined(separator: ", "))
        }
    }
}
