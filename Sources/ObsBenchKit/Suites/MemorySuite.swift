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
        secondsPerWorker: 4.5,
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
        func row(_ strategy: String, _ metric: Metric, objects: Int? = nil, subscribers: Int? = nil) -> ResultRow? {
            memory.filter { row in
                row.strategy == strategy && row.metric == metric
                    && (objects == nil || row.objects == objects) && (subscribers == nil || row.subscribers == subscribers)
            }.max { $0.objects < $1.objects }
        }
        func value(_ strategy: String, _ metric: Metric, objects: Int? = nil, subscribers: Int? = nil) -> Double? {
            row(strategy, metric, objects: objects, subscribers: subscribers)?.statistics?.median
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
        /// A count's cell (``SummaryTable/countFigure(_:format:)``): its value, or its range over rounds where they differ.
        func figure(_ row: ResultRow?, _ format: @escaping (Double) -> String) -> String { row.map { Self.countFigure($0, format: format) } ?? "—" }
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
                figure(row(strategy, .freshBytesPerObject, objects: largest), NumberFormat.bytes),
                overhead,
                total,
                figure(row(strategy, .writtenBytesPerObject, objects: largest), NumberFormat.bytes),
                figure(row(strategy, .viewedBytesPerObject, objects: viewedAt), NumberFormat.bytes),
                figure(row(strategy, .bytesPerSubscriber, subscribers: subscribersAt), NumberFormat.bytes),
                figure(row(strategy, .allocationsPerWrite, subscribers: 0), NumberFormat.count),
                figure(row(strategy, .allocationsPerWrite, subscribers: 1), NumberFormat.count),
                figure(row(strategy, .peakBytesLeftAfterTeardown), NumberFormat.bytes),
            ]
            if failed && fresh == nil { cells = cells.map { $0 == "—" ? "error" : $0 } }
            return (strategy, cells)
        }
        let shown = memory.filter { strategies.contains($0.strategy) }
        if let repeats = Self.repetitionFootnote(shown) { footnotes.append(repeats) }
        let leftovers = shown.filter { $0.metric == .peakBytesLeftAfterTeardown }
        if !leftovers.isEmpty {
            let how =
                leftovers.allSatisfy(\.isRepeatedExactly)
                ? "every round gave the same count: gated as an exact count"
                : leftovers.allSatisfy({ $0.rounds <= 1 })
                    ? "one process's count, not shown to repeat (it moves from run to run); the gate judges a count of one round as exact"
                    : "exact only where every round gave the same count; a range where they differ, gated on that range"
            footnotes.append("left after tear-down: the most any store size of the sweep left, each against its own start (\(how))")
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

extension SummaryTable {
    /// A count's cell: its value where every round gave it (or one round did); its range over
    /// rounds ("184.5–197.7") where they differ; a figure that cannot be negative
    /// (``Metric/cannotBeNegative``) measured below zero is below its noise: "≈ 0", never negative.
    static func countFigure(_ row: ResultRow, format: (Double) -> String) -> String {
        guard let statistics = row.statistics else { return "—" }
        let nonNegative = Metric.cannotBeNegative.contains(row.metric)
        func shown(_ value: Double) -> String { nonNegative && value < 0 ? "≈ 0" : format(value) }
        if row.rounds > 1, !row.isRepeatedExactly {
            return shown(statistics.min) + "–" + shown(statistics.max)
        }
        return shown(statistics.median)
    }

    /// What a counts table says about repetition: every figure of one process (not shown to repeat),
    /// or which are exact (every round alike) and which are ranges; nil for no rows.
    static func repetitionFootnote(_ rows: [ResultRow]) -> String? {
        guard !rows.isEmpty else { return nil }
        if rows.allSatisfy({ $0.rounds <= 1 }) {
            return "each figure is one worker process's count (1 round): not shown to repeat, so none is labelled exact; --rounds 2 or more "
                + "prints a count that moves between processes as its range over them (\"≈ 0\": a figure that cannot be negative measured below zero)"
        }
        let rounds = rows.map(\.rounds).max() ?? 1
        return "exact where all \(rounds) rounds (worker processes) gave the same count; \"a–b\": the range over rounds where they differ; "
            + "\"≈ 0\": a figure that cannot be negative measured below zero"
    }
}
