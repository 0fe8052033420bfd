import Foundation

extension Suite {
    /// `--suite scaling`: write-to-quiescence latency as subscribed views grow.
    public static let scaling = Suite(
        name: "scaling",
        summary: "write-to-quiescence latency and re-runs as subscribed views grow, S = 1...10000 (--quick: ...1000), one store of the largest S + 1 records for every topology",
        defaultObjects: 0,
        // Two worker processes: a sweep is fitted (cost per view, growth class) only from points
        // measured in more than one process, each point's interval the range of its rounds' medians.
        defaultRounds: 2,
        tables: { SummaryTable.scalingTables(of: $0, rows: $1, strategies: $2) + SummaryTable.countedScalingTables(of: $0, rows: $1, strategies: $2) },
        secondsPerWorker: 0.77,
        workloads: ScalingTopology.allCases.map { SubscriberScalingWorkload(topology: $0) }
    )
}

extension SummaryTable {
    /// Two tables: how write-to-quiescence latency grows with the views (b of a + b·S per
    /// further view, and the growth class over the last decade), and the figures at the largest S
    /// (the median, re-runs per write). Both growth figures are fitted to the latency rows' medians
    /// and printed only where their 95% intervals support them (``GrowthFit/costPerView(_:)``,
    /// ``GrowthFit/supportedLabel(slopeInterval:grows:stopped:variable:)``): b "within noise" where
    /// its interval includes zero or its rise over the sweep is under ``GrowthFit/minimumRise``,
    /// signed otherwise (never clamped); a class only where the slope's interval decides one.
    static func scalingTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        // A run that only counted instructions has its own tables (countedScalingTables).
        if !measured.contains(where: { $0.metric == .latency }) && measured.contains(where: { $0.metric == .instructions }) { return [] }
        let largest = measured.filter { $0.metric == .latency }.map(\.subscribers).max()
        let columns = suite.workloads.map(\.name)
        func value(_ strategy: String, _ workload: String, _ metric: Metric, subscribers: Int? = nil) -> Double? {
            measured.first(RowQuery(workload: workload, strategy: strategy, metric: metric, subscribers: subscribers))?.value
        }
        /// The sweep's latency points, by S, each with the range of its rounds' medians (one per
        /// worker process: the process is the unit of replication); empty where a point was
        /// measured in fewer than two processes (``measuredInOneProcess``), as no fit is supported then.
        func points(_ strategy: String, _ workload: String) -> [GrowthFit.IntervalPoint] {
            let rows = measured.matching(RowQuery(workload: workload, strategy: strategy, metric: .latency, valued: true)).sorted { $0.subscribers < $1.subscribers }
            let ranges = rows.map(FloorComparison.roundRange(of:))
            guard !ranges.contains(where: { $0 == nil }) else { return [] }
            return zip(rows, ranges).map { row, range in (Double(row.subscribers), row.value ?? 0, range!.lowerBound, range!.upperBound) }
        }
        /// Whether the sweep has points, some measured in fewer than two processes.
        func measuredInOneProcess(_ strategy: String, _ workload: String) -> Bool {
            let rows = measured.matching(RowQuery(workload: workload, strategy: strategy, metric: .latency, valued: true))
            return !rows.isEmpty && rows.contains { FloorComparison.roundRange(of: $0) == nil }
        }
        /// The largest S a sweep reached when it stopped before the run's largest S (its growth
        /// already S^``SubscriberScalingWorkload/stopSlope`` or steeper, the next point costly); nil otherwise.
        func sweptTo(_ strategy: String, _ workload: String) -> Int? {
            let reached = measured.filter { $0.strategy == strategy && $0.workload == workload && $0.metric == .latency }.map(\.subscribers).max()
            guard let reached, let largest, reached < largest else { return nil }
            return reached
        }
        /// The class the sweep supports, nil where none.
        func growthClass(_ strategy: String, _ workload: String) -> String? {
            let sweep = points(strategy, workload)
            guard let perView = GrowthFit.costPerView(sweep), let slope = GrowthFit.lastStepSlopeInterval(sweep) else { return nil }
            return GrowthFit.supportedLabel(slopeInterval: slope, grows: perView.beyondNoise && perView.value > 0, stopped: sweptTo(strategy, workload) != nil)
        }
        func failed(_ strategy: String) -> Bool { allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError } }
        var growth = SummaryTable(
            suite: suite.name, columns: columns,
            unit: "write-to-quiescence latency per further view (b of a + b·S) · growth over the last decade (log-log slope)", rows: [])
        growth.rows = strategies.map { strategy in
            (
                strategy,
                columns.map { workload in
                    if measuredInOneProcess(strategy, workload) { return Self.oneProcessSweep }
                    guard let perView = GrowthFit.costPerView(points(strategy, workload)) else { return failed(strategy) ? "error" : "—" }
                    let cost = perView.beyondNoise ? NumberFormat.smallNanoseconds(perView.value) : "within noise"
                    switch (!perView.beyondNoise, growthClass(strategy, workload)) {
                    case (true, nil): return cost
                    case (false, nil): return cost + " · class within noise"
                    case (_, let label?): return cost + " · " + label
                    }
                }
            )
        }
        growth.footnotes = [
            "each point's interval is the range of its rounds' medians (one per worker process: samples of one process are not independent); "
                + "\"\(Self.oneProcessSweep)\": a point was measured in one process (the suite's default, 1 round; --rounds 2 or more fits it, 3 or more recommended). "
                + "b is the least-squares slope over the sweep's medians, \"within noise\" where its interval includes zero (the wider of: each median moved "
                + "within its own interval; the points' scatter about the line, t with n − 2 degrees of freedom) or the line rises over the sweep by less than "
                + "\(GrowthFit.minimumRise == 1 ? "" : NumberFormat.count(GrowthFit.minimumRise) + "× ")its smallest median (a regime change between points moves a flat "
                + "sweep that far). The class is the log-log slope between the two "
                + "largest S, from the two medians' intervals: O(1) where all of it is below \(NumberFormat.fixed(GrowthFit.constantBelow, digits: 1)), "
                + "else only where b grows beyond noise and the slope's interval is above zero (its range where it spans classes); ≥: a sweep stopped early, "
                + "its growth from the interval's lower end (docs/method.md, \"Comparisons\")"
        ]
        var atLargest = SummaryTable(
            suite: suite.name, columns: columns,
            unit: "median write-to-quiescence latency · re-runs per write, at S=\(largest.map(String.init) ?? "max")", rows: [])
        atLargest.title = "\(suite.name) · largest S"
        atLargest.rows = strategies.map { strategy in
            (
                strategy,
                columns.map { workload in
                    if let sweptTo = sweptTo(strategy, workload) {
                        let reached = value(strategy, workload, .latency, subscribers: sweptTo).map { " (\(NumberFormat.nanoseconds($0)))" } ?? ""
                        return "stopped at S=\(sweptTo)\(reached)" + (growthClass(strategy, workload).map { ": " + $0 } ?? "")
                    }
                    guard let largest, let latency = value(strategy, workload, .latency, subscribers: largest) else { return failed(strategy) ? "error" : "—" }
                    return NumberFormat.nanoseconds(latency) + (value(strategy, workload, .rerunsPerWrite, subscribers: largest).map { " · " + NumberFormat.count($0) } ?? "")
                }
            )
        }
        return [growth, atLargest]
    }

    /// A sweep cell with a point measured in one process: no cost per view, no class.
    static let oneProcessSweep = "one process: not fitted"
}

extension SummaryTable {
    /// The tables of a counted sweep (`--measure instructions`, ``CountedScalingSweep``): b of
    /// Ir/write = a + b·S per further view with the growth class the counts decide
    /// (``GrowthFit/countedGrowth(_:stopped:)``), and Ir per write at the largest S. Each point is the
    /// row's mean over its layouts, its interval their range; an asynchronous strategy's is widened
    /// by the gate's tolerance for it (``GatePolicy/defaultAsynchronousInstructionTolerance``).
    /// Empty when the run counted nothing.
    static func countedScalingTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let counted = allRows.filter { $0.suite == suite.name && !$0.isError && $0.metric == .instructions && $0.value != nil }
        guard !counted.isEmpty else { return [] }
        let columns = suite.workloads.map(\.name)
        let layouts = counted.filter(\.isMeanOverLayouts).map(\.rounds).max()
        let statistic = layouts.map { "mean over \($0) layouts" } ?? "one layout"
        let tolerance = GatePolicy.defaultAsynchronousInstructionTolerance
        func sweep(_ strategy: String, _ workload: String) -> [ResultRow] {
            counted.filter { $0.strategy == strategy && $0.workload == workload }.sorted { $0.subscribers < $1.subscribers }
        }
        func points(_ rows: [ResultRow]) -> [GrowthFit.IntervalPoint] {
            rows.map { row in
                let value = row.value ?? 0
                var (low, high) = row.interval ?? (value, value)
                if CountedScalingSweep.isAsynchronous(row) { (low, high) = (low * (1 - tolerance), high * (1 + tolerance)) }
                return (Double(row.subscribers), value, low, high)
            }
        }
        func stopped(_ rows: [ResultRow]) -> Bool { rows.contains { $0.note.contains("sweep stopped before") } }
        func failed(_ strategy: String) -> Bool { allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError } }
        var growth = SummaryTable(
            suite: suite.name, columns: columns,
            unit: "Ir per further view (b of Ir/write = a + b·S, \(statistic)) · growth over the last decade, from the counts", rows: [])
        growth.title = "\(suite.name) · counted"
        growth.rows = strategies.map { strategy in
            (
                strategy,
                columns.map { workload in
                    let rows = sweep(strategy, workload)
                    guard let fit = GrowthFit.countedGrowth(points(rows), stopped: stopped(rows)) else { return failed(strategy) ? "error" : "—" }
                    return fit.cell + (rows.contains(where: CountedScalingSweep.isAsynchronous) ? " ±" : "")
                }
            )
        }
        growth.footnotes = [
            "b is the least-squares slope through the counts at each S; its interval is what b takes as each count moves within its layouts' range "
                + "(±: an asynchronous strategy's, widened by the gate's \(NumberFormat.percent(tolerance)) for it); \"within noise\" where that interval "
                + "includes zero. The class is the log-log slope between the two largest S, from the same intervals: O(1) where all of it is below "
                + "\(NumberFormat.fixed(GrowthFit.constantBelow, digits: 1)), else only where b is above zero and the slope's interval decides a class "
                + "(its range where it spans classes); ≥: a sweep stopped early (docs/suites.md, \"scaling\")"
        ]
        let largest = counted.map(\.subscribers).max()
        var atLargest = SummaryTable(
            suite: suite.name, columns: columns, unit: "Ir per write (\(statistic)), at S=\(largest.map(String.init) ?? "max")", rows: [])
        atLargest.title = "\(suite.name) · counted, largest S"
        atLargest.rows = strategies.map { strategy in
            (
                strategy,
                columns.map { workload in
                    let rows = sweep(strategy, workload)
                    guard let last = rows.last, let value = last.value else { return failed(strategy) ? "error" : "—" }
                    let text = NumberFormat.instructions(value) + (last.drawnRecords == nil ? "" : drawnMark)
                    return last.subscribers == largest ? text : "stopped at S=\(last.subscribers) (\(text))"
                }
            )
        }
        if atLargest.rows.contains(where: { $0.cells.contains { $0.contains(drawnMark) } }) {
            atLargest.footnotes.append(
                "\(drawnMark) the mean over the records a synchronous strategy's point is drawn on in each layout: the latency rows' 80, fewer where "
                    + "S views each or a costly write would make a pass long (docs/suites.md); other counts are record 1's, the median of its pairs")
        }
        return [growth, atLargest]
    }
}
