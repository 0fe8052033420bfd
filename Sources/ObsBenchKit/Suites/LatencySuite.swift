extension Suite {
    /// `--suite latency`: read/write cost per operation, each workload's figure against plain's.
    public static let latency = Suite(
        name: "latency",
        summary: "read/write cost per operation (ns/op timed; Ir/op with --measure instructions)",
        defaultObjects: 1_000,
        defaultRounds: 8,
        tables: { SummaryTable.latencyTables(of: $0, rows: $1, strategies: $2) + SummaryTable.referenceCountTables(of: $0, rows: $1, strategies: $2) },
        secondsPerWorker: 0.64,
        workloads: [
            ReadUntrackedWorkload(),
            ReadInsideViewWorkload(),
            ViewScopeWorkload(),
            WriteUnobservedWorkload(),
            WriteObservedWorkload(),
            TwoFieldTransactionWorkload(),
            WriteBurstWorkload(),
            ConcreteReferenceWorkload(),
            IgnoredFieldWorkload(),
            ScanAllWorkload(),
        ]
    )
}

extension SummaryTable {
    /// The latency tables, one per scale: the operations (median per operation, net of `plain` and,
    /// where `plain` is well measured, × `plain`: ``FloorComparison``); the concrete loops (the
    /// same access on the strategy's own record type, without the protocol) with the harness's
    /// share where the intervals support one (``HarnessShare/reading``); the scans (a whole scan
    /// per operation, µs or ms, compared the same way).
    /// Each workload's cost is time (`latency`), instructions, or both side by side, as the run
    /// measured.
    static func latencyTables(of suite: Suite, rows allRows: [ResultRow], strategies: [String]) -> [SummaryTable] {
        let measures = costMeasures(in: allRows, suite: suite.name)
        let measured = allRows.filter { $0.suite == suite.name && measures.map(\.metric).contains($0.metric) }
        // The workloads rows name, in the order they were measured (one workload can write rows
        // for several, as the concrete reference does); the suite's list before any row exists.
        var named: [String] = []
        for row in measured where !named.contains(row.workload) { named.append(row.workload) }
        if named.isEmpty { named = suite.workloads.map(\.name) }
        let isScan = { (workload: String) in workload.hasPrefix("scan") }
        let isConcrete = { (workload: String) in workload.hasSuffix("-concrete") && !isScan(workload) }
        func row(_ measure: CostMeasure, _ strategy: String, _ workload: String, objects: Int? = nil) -> ResultRow? {
            measured.first(RowQuery(workload: workload, strategy: strategy, metric: measure.metric, objects: objects))
        }
        func failed(_ strategy: String) -> Bool {
            allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError && $0.workload == RowKey.allWorkloads }
        }
        let statistic = Self.statistic(measures, rows: allRows, suite: suite.name)
        var tables: [SummaryTable] = []

        let operations = named.filter { !isScan($0) && !isConcrete($0) }
        let comparisonFootnote = FloorComparison.footnote(floorName: RowKey.floorStrategy)
        var table = SummaryTable(suite: suite.name, columns: operations, unit: "\(statistic) (net of plain, × plain)", rows: [])
        table.rows = strategies.map { strategy in
            (
                strategy,
                operations.map { workload in
                    costCell(measures: measures, failed: failed(strategy)) { (row($0, strategy, workload), row($0, RowKey.floorStrategy, workload)) }
                }
            )
        }
        table.footnotes.append(comparisonFootnote)
        if measures.contains(.instructions) { table.footnotes.append(instructionFloorFootnote) }
        if measured.contains(where: { $0.metric == .instructions && $0.note.contains(CountedThreads.mainThread.note) }) {
            table.footnotes.append(countedThreadsFootnote)
        }
        if let drawn = drawnFootnote(rows: measured, suite: suite.name) { table.footnotes.append(drawn) }
        if let bursts = burstFootnote(rows: allRows, suite: suite.name, strategies: strategies) { table.footnotes.append(bursts) }
        tables.append(table)

        let concrete = named.filter(isConcrete)
        let shares = HarnessShare.all(in: allRows, suite: suite.name)
        let withConcrete = strategies.filter { strategy in concrete.contains { workload in measures.contains { row($0, strategy, workload) != nil } } }
        if !withConcrete.isEmpty {
            let shareColumns = HarnessShare.pairs.map { "harness \($0.0)" }
            table = SummaryTable(
                suite: suite.name, columns: concrete.map { String($0.dropLast("-concrete".count)) } + shareColumns,
                unit:
                    "\(statistic) of each access on the concrete record type (workload-concrete), net of the empty loop; harness share = (protocol − concrete) / protocol, both net of plain, where beyond noise",
                rows: [])
            table.title = "\(suite.name) · concrete loops"
            table.rows = withConcrete.map { strategy in
                let loops = concrete.map { workload in
                    costCell(measures: measures, failed: failed(strategy)) { (row($0, strategy, workload), nil) }
                }
                let harness = HarnessShare.pairs.map { pair in
                    let found = measures.compactMap { measure in shares.first { $0.strategy == strategy && $0.operation == pair.0 && $0.measure == measure } }
                    return found.isEmpty ? "—" : found.map(\.cell).joined(separator: " · ")
                }
                return (strategy, loops + harness)
            }
            if !shares.isEmpty {
                table.footnotes.append(
                    "harness share: " + shares.map(\.description).joined(separator: "; ")
                        + ". A share is given only where the protocol path costs more than plain's and than the concrete loop beyond the noise: timed, in every one of at least \(FloorComparison.minimumPairedRounds) rounds (each worker process's medians, the four rows paired by round number; the share is the rounds' median harness over their median protocol net); counted, beyond the layouts' ranges"
                )
            }
            tables.append(table)
        }

        let scans = named.filter(isScan)
        if !scans.isEmpty {
            let sizes = Array(Set(measured.filter { isScan($0.workload) }.map(\.objects))).sorted()
            let columns = scans.flatMap { workload in sizes.map { (workload, $0) } }
                .filter { column in measured.contains { $0.workload == column.0 && $0.objects == column.1 } }
            table = SummaryTable(suite: suite.name, columns: columns.map { "\($0.0) N=\($0.1)" }, unit: "\(statistic) per scan of N records (net of plain, × plain)", rows: [])
            table.title = "\(suite.name) · scans"
            table.rows = strategies.map { strategy in
                (
                    strategy,
                    columns.map { workload, objects in
                        costCell(measures: measures, failed: failed(strategy)) {
                            (row($0, strategy, workload, objects: objects), row($0, RowKey.floorStrategy, workload, objects: objects))
                        }
                    }
                )
            }
            table.footnotes.append(comparisonFootnote)
            tables.append(table)
        }
        return tables
    }

    /// The re-runs each burst of `write-burst-K` gave, per strategy ("observable 1/10/100"): what
    /// its time per burst bought, with the range the worker processes gave where they differ
    /// ("grdb-pool 1/6.002 (1.71–7.90)/…"). Nil when the run has no burst rows.
    static func burstFootnote(rows: [ResultRow], suite: String, strategies: [String]) -> String? {
        let sizes = WriteBurstWorkload.bursts
        let cells = strategies.compactMap { strategy -> String? in
            let counts = sizes.map { size in
                rows.first(RowQuery(suite: suite, workload: WriteBurstWorkload.rowName(size), strategy: strategy, metric: .rerunsPerBurst))
            }
            guard counts.contains(where: { $0?.value != nil }) else { return nil }
            return "\(strategy) " + counts.map { $0.map(Self.countWithProcesses) ?? "—" }.joined(separator: "/")
        }
        guard !cells.isEmpty else { return nil }
        return "re-runs per burst of \(sizes.map(String.init).joined(separator: "/")) writes settled once (write-burst-K: 1 where the strategy coalesces): "
            + cells.joined(separator: " · ")
    }

    /// A count's figure, and the lowest and highest its worker processes gave where they differ.
    static func countWithProcesses(_ row: ResultRow) -> String {
        guard let value = row.value else { return "—" }
        let processes = row.orderedRoundValues
        guard let low = processes.min(), let high = processes.max(), high > low else { return NumberFormat.compared(value) }
        return "\(NumberFormat.compared(value)) (\(NumberFormat.compared(low))–\(NumberFormat.compared(high)) over \(processes.count) processes)"
    }
}
