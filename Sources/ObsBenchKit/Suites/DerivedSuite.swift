import ObservationStrategies

extension Suite {
    /// `--suite derived`: derived state (a searched, filtered, sorted list; a diamond; chains;
    /// fan-out; a dynamic dependency), in every derivation style each strategy has: time to
    /// quiescence per write, view re-runs, avoidable re-runs, evaluations and glitches, every
    /// view's output checked against a from-scratch computation first.
    public static let derived = Suite(
        name: "derived",
        summary: "derived state: filtered-sorted list, diamond, chain-D, fan-out-W, dynamic; ns per write to quiescence, re-runs, avoidable re-runs, evaluations, glitches",
        defaultObjects: 1_000,
        tables: { SummaryTable.derivedTables(of: $0, rows: $1, strategies: $2) },
        secondsPerWorker: 4.3,
        workloads: FilteredSortedWorkload.Write.allCases.map { FilteredSortedWorkload($0) as any Workload } + [DiamondWorkload() as any Workload]
            + ChainWorkload.depths.map { ChainWorkload(depth: $0) as any Workload } + FanOutWorkload.widths.map { FanOutWorkload(width: $0) as any Workload }
            + [DynamicWorkload() as any Workload]
    )
}

extension SummaryTable {
    /// The derived tables: per write, each workload's cost beside its view re-runs and avoidable
    /// re-runs ("1.2 µs · 181 r · 180 a"), for filtered-sorted's writes, the diamond and dynamic;
    /// then the growth over chain depth D and fan-out width W. A strategy's other derivation
    /// styles are rows of their own (`observable+cached`).
    static func derivedTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let rows = allRows.filter { $0.suite == suite.name }
        guard !rows.isEmpty else { return [] }
        let measures = costMeasures(in: rows, suite: suite.name)
        let workloads = suite.workloads.map(\.name)
        // Each strategy's styles, as its rows name them: "" for its usual one, "+cached" for another.
        func styles(of strategy: String) -> [String] {
            var found = [""]
            for row in rows where row.strategy == strategy && !row.workload.hasSuffix(DerivedRows.concreteSuffix) {
                guard let suffix = DerivedRows.style(of: row.workload, among: workloads) else { continue }
                if !found.contains(suffix) { found.append(suffix) }
            }
            return found
        }
        let labels = strategies.flatMap { strategy in styles(of: strategy).map { (strategy, $0) } }
        func cell(_ strategy: String, _ workload: String, counts: Bool) -> String {
            let failed = rows.contains { $0.strategy == strategy && $0.isError && ($0.workload == workload || $0.workload == RowKey.allWorkloads) }
            let error = rows.first { $0.strategy == strategy && $0.isError && $0.workload == workload }
            let cost = costCell(measures: measures, failed: failed) { measure in
                (rows.first(RowQuery(workload: workload, strategy: strategy, metric: measure.metric)), nil)
            }
            guard counts, error == nil else { return cost }
            // A store that observes nothing, where the write changes what a view shows: a row with no value.
            if let unmeasured = rows.first(RowQuery(workload: workload, strategy: strategy, metric: .rerunsPerWrite)), unmeasured.statistics == nil {
                return "not measurable"
            }
            func count(_ metric: Metric) -> String {
                rows.first(RowQuery(workload: workload, strategy: strategy, metric: metric))?.value.map(NumberFormat.compared) ?? "—"
            }
            // An instruction run writes no counts (the timing run does).
            guard rows.first(RowQuery(workload: workload, strategy: strategy, metric: .rerunsPerWrite)) != nil else { return cost }
            return "\(cost) · \(count(.rerunsPerWrite)) r · \(count(.avoidableRerunsPerWrite)) a"
        }
        let statistic = Self.statistic(measures, rows: rows, suite: suite.name)
        let perWrite = workloads.filter { !$0.hasPrefix("chain-") && !$0.hasPrefix("fan-out-") }
        var table = SummaryTable(
            suite: suite.name, columns: perWrite, unit: "\(statistic) per write to quiescence · view re-runs per write (r) · of them avoidable, showing nothing new (a)", rows: [])
        table.rows = labels.map { strategy, style in (strategy + style, perWrite.map { cell(strategy, $0 + style, counts: true) }) }
        table.footnotes.append(
            "every view's output was checked against a from-scratch computation over the store's records before a number was kept; \"error\": a check or a style failed; \"not measurable\": a store that observes nothing shows a stale value (the rows' notes say why)"
        )
        let growth = workloads.filter { $0.hasPrefix("chain-") || $0.hasPrefix("fan-out-") }
        var growthTable = SummaryTable(suite: suite.name, columns: growth, unit: "\(statistic) per write to quiescence · view re-runs per write (r) · avoidable (a)", rows: [])
        growthTable.title = "\(suite.name) · growth over depth D and width W"
        growthTable.rows = labels.map { strategy, style in (strategy + style, growth.map { cell(strategy, $0 + style, counts: true) }) }
        return [table, growthTable]
            + [harnessShareTable(suite: suite.name, rows: rows, strategies: strategies, workloads: perWrite + growth, measures: measures)].compactMap { $0 }
    }

    /// The harness's share of a derived row, where the run has its concrete loop
    /// (``ConcreteDerivedLoop``, the strategy's usual style written as an app would): per workload, the row through the
    /// harness, the concrete loop, and (harness − concrete) / harness where beyond the noise.
    static func harnessShareTable(suite: String, rows: [ResultRow], strategies: [String], workloads: [String], measures: [CostMeasure]) -> SummaryTable? {
        // What each concrete row is the yardstick of: `fan-out-100+pipeline-concrete` of `fan-out-100+pipeline`.
        let concrete = rows.filter { $0.workload.hasSuffix(DerivedRows.concreteSuffix) && !$0.isError }
        func yardstick(of row: ResultRow) -> String { String(row.workload.dropLast(DerivedRows.concreteSuffix.count)) }
        let columns = workloads.filter { workload in concrete.contains { DerivedRows.isRow(yardstick(of: $0), of: workload) } }
        // Each strategy's styles with a concrete loop ("" its usual one, "+pipeline" another), in the order its rows come.
        let labels = strategies.flatMap { strategy -> [(strategy: String, style: String)] in
            var styles: [String] = []
            for row in concrete where row.strategy == strategy {
                guard let style = DerivedRows.style(of: yardstick(of: row), among: columns) else { continue }
                if !styles.contains(style) { styles.append(style) }
            }
            return styles.sorted().map { (strategy, $0) }
        }
        let measured = Set(labels.map(\.strategy))
        guard !columns.isEmpty, !measured.isEmpty else { return nil }
        func row(_ strategy: String, _ workload: String, _ measure: CostMeasure) -> ResultRow? {
            rows.first(RowQuery(workload: workload, strategy: strategy, metric: measure.metric, valued: true))
        }
        func share(_ strategy: String, _ workload: String, _ measure: CostMeasure) -> HarnessShare? {
            guard let viaHarness = row(strategy, workload, measure), let concrete = row(strategy, DerivedRows.concreteName(workload), measure) else { return nil }
            return HarnessShare.derived(strategy: strategy, workload: workload, measure: measure, viaHarness: viaHarness, concrete: concrete)
        }
        func cost(_ strategy: String, _ workload: String) -> String {
            costCell(measures: measures, failed: false) { (row(strategy, workload, $0), nil) }
        }
        var table = SummaryTable(
            suite: suite, columns: columns,
            unit:
                "\(statistic(measures, rows: rows, suite: suite)) per write through the harness (the strategy's usual derivation style; for published and published-context their +pipeline style too), the same write and derivation written as an app would on the strategy's concrete types in a tight loop (workload-concrete, workload+pipeline-concrete), and the harness's share: (harness − concrete) / harness, where beyond the noise",
            rows: [])
        table.title = "\(suite) · harness share"
        for (strategy, style) in labels {
            table.rows.append((strategy + style, columns.map { cost(strategy, $0 + style) }))
            table.rows.append(("\(strategy + style) concrete", columns.map { cost(strategy, DerivedRows.concreteName($0 + style)) }))
            table.rows.append(
                (
                    "harness share",
                    columns.map { workload in
                        let found = measures.compactMap { share(strategy, workload + style, $0) }
                        return found.isEmpty ? "—" : found.map(\.cell).joined(separator: " · ")
                    }
                ))
        }
        table.footnotes.append(
            "where views re-run and each view body is one or two reads (fan-out, the diamond), the share is the harness's fixed cost per view re-run (the view's output recorded and compared under a lock, its evaluations counted, its nodes called through the graph's closures and any DerivedReader), beside a body that costs little more; where a view re-runs a list over the records, it is a few percent (docs/suites.md, \"The harness's share\")"
        )
        let unmeasured = strategies.filter { strategy in !measured.contains(strategy) && rows.contains { $0.strategy == strategy && !$0.isError } }
        if !unmeasured.isEmpty {
            table.footnotes.append(
                "no concrete loop yet for \(unmeasured.joined(separator: ", ")), nor for the other derivation styles of any strategy but published's and published-context's +pipeline: their harness share is not measured, and their rows above are through the harness"
            )
        }
        table.footnotes.append(
            "the concrete loop: computed properties over the strategy's concrete record types (observable: an @Observable class, each view a withObservationTracking closure; published: an ObservableObject per record; published-context and observable-context: one ObservableObject, or one @Observable class, holding every record in an array; state-subject: one CurrentValueSubject of every record, each view a selector pipeline; struct-vm: struct records in a context keeping @Observable view models in sync, each derived value cached in an @Observable cell computed again at the render pass after an input changed; +pipeline: each view a pipeline, pull.map(compute).removeDuplicates().sink, pulled at the render pass after an objectWillChange of what it reads), each view re-run once after a write that invalidated it; no protocol, store, field enum, or derived-view bookkeeping (outputs, runs and evaluations recorded, every view visited after each write). Not net of plain: plain's views show stale values for a write that changes them. A share is given where the two rows' intervals (counted: their repeats' and layouts' ranges) do not overlap; timed, where every one of at least \(FloorComparison.minimumPairedRounds) rounds agrees"
        )
        return table
    }
}

extension HarnessShare {
    /// A derived row's share against its concrete loop (``ConcreteDerivedLoop``): both figures as
    /// measured, not net of `plain` (whose derived views do not follow most writes). Timed, each
    /// round's pair of medians; counted, the rows' intervals.
    static func derived(strategy: String, workload: String, measure: CostMeasure, viaHarness: ResultRow, concrete: ResultRow) -> HarnessShare {
        if measure == .time {
            let harness = viaHarness.roundValues ?? [:], loop = concrete.roundValues ?? [:]
            let rounds = harness.keys.sorted().filter { loop[$0] != nil }
            return HarnessShare(
                strategy: strategy, operation: workload, roundNets: rounds.map { RoundNets(protocolNet: harness[$0]!, concreteNet: loop[$0]!) })
        }
        return HarnessShare(
            strategy: strategy, operation: workload, measure: measure, protocolNet: viaHarness.value ?? 0, concreteNet: concrete.value ?? 0,
            protocolNetInterval: FloorComparison.interval(of: viaHarness), concreteNetInterval: FloorComparison.interval(of: concrete))
    }
}
