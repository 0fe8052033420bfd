import Foundation

/// The end-of-run summary: per suite, a row per strategy with the suite's headline figures, each
/// against `plain` measured in the same run (latency: each workload's median and its ratio to
/// `plain`; memory: bytes per object, the overhead over `plain`, and the rest of the suite's counts).
public struct SummaryTable: Sendable {
    public var suite: String
    public var columns: [String]
    /// What the cells hold, printed after the suite's name.
    public var unit: String
    /// What the first column names: a strategy, or (hops) an isolation kind.
    public var rowLabel = "strategy"
    /// Strategy name, then one cell per column.
    public var rows: [(strategy: String, cells: [String])]
    /// Lines printed under the table (figures that are not per strategy).
    public var footnotes: [String] = []

    /// Builds the table of `suite` from `rows`.
    public init(suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        switch suite.headline {
        case .latency: self.init(latencyOf: suite, rows: allRows, strategies: strategies)
        case .memory: self.init(memoryOf: suite, rows: allRows, strategies: strategies)
        case .scaling: self.init(scalingOf: suite, rows: allRows, strategies: strategies)
        case .consistency: self.init(consistencyOf: suite, rows: allRows, strategies: strategies)
        case .hops: self.init(hopsOf: suite, rows: allRows)
        case .storeIsolation: self.init(storeIsolationOf: suite, rows: allRows)
        case .pool: self.init(poolOf: suite, rows: allRows)
        }
    }

    /// Per isolation kind (a row each) and caller count (a column each): the median round trip and
    /// its ratio to a default actor's with as many callers, measured in the same run.
    init(hopsOf suite: Suite, rows allRows: [ResultRow]) {
        self.suite = suite.name
        let measures = Self.costMeasures(in: allRows, suite: suite.name)
        // The caller counts measured (instruction counts are made at 1 caller only).
        let measuredCallers = Set(allRows.filter { $0.suite == suite.name && measures.map(\.metric.name).contains($0.metric) }.map(\.concurrency))
        let concurrencies = RoundTripHopWorkload.concurrencies.filter { measuredCallers.isEmpty || measuredCallers.contains($0) }
        columns = concurrencies.map { $0 == 1 ? "1 caller" : "\($0) callers" }
        unit = "median \(Self.units(measures)) per round trip per caller (× default actor, same callers)"
        rowLabel = "isolation"
        let failed = allRows.contains { $0.suite == suite.name && $0.isError }
        func median(_ measure: CostMeasure, _ workload: String, _ executor: String?, _ callers: Int) -> Double? {
            allRows.first {
                $0.suite == suite.name && $0.metric == measure.metric.name && $0.workload == workload
                    && (executor == nil || $0.executor == executor) && $0.concurrency == callers
            }?.statistics?.median
        }
        let floor = RoundTripHopWorkload(kind: .defaultActor)
        func cell(_ workload: String, _ executor: String?, _ callers: Int) -> String {
            Self.costCell(measures: measures, failed: failed) { measure in
                (median(measure, workload, executor, callers), median(measure, floor.name, floor.kind.rawValue, callers))
            }
        }
        rows = RoundTripHopWorkload.Kind.allCases.map { kind in
            let workload = RoundTripHopWorkload(kind: kind).name
            return (kind.rawValue, concurrencies.map { cell(workload, kind.rawValue, $0) })
        }
        // The write-to-view cases: one caller (the main actor) each.
        for handoff in WriteToViewHopWorkload.Handoff.allCases {
            let workload = WriteToViewHopWorkload(handoff: handoff).name
            rows.append((workload, [cell(workload, nil, 1)] + Array(repeating: "—", count: concurrencies.count - 1)))
        }
    }

    /// Per topology: the cost of each further view (b of latency = a + b·S), the growth over the
    /// sweep's last decade, and the latency and re-runs at the largest S.
    init(scalingOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        let largest = measured.filter { $0.metric == "latency" }.map(\.subscribers).max()
        columns = suite.workloads.map(\.name)
        unit = "write-to-quiescence latency: per further view (b of a + b·S) · growth over the last decade (log-log slope) · median at S=\(largest.map(String.init) ?? "max") · re-runs/write there"
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let cells = suite.workloads.map { workload -> String in
                func value(_ metric: String, subscribers: Int? = nil) -> Double? {
                    measured.first { $0.strategy == strategy && $0.workload == workload.name && $0.metric == metric && (subscribers == nil || $0.subscribers == subscribers) }?.statistics?.median
                }
                guard let perView = value("cost_per_view"), let slope = value("last_decade_slope") else { return failed ? "error" : "—" }
                var cell = Self.format(nanoseconds: max(0, perView)) + "/view · " + GrowthFit.label(slope) + String(format: " (%.2f)", slope)
                if let largest, let latency = value("latency", subscribers: largest) { cell += " · " + Self.format(nanoseconds: latency) }
                if let largest, let reruns = value("reruns_per_write", subscribers: largest) { cell += " · " + Self.format(count: reruns) }
                return cell
            }
            return (strategy, cells)
        }
    }

    /// Per workload (one observation or two combined, one or two writers): torn observations per
    /// 1,000 transactions, and re-runs per transaction.
    init(consistencyOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        columns = suite.workloads.map(\.name)
        unit = "torn observations per 1000 transactions · view re-runs per transaction"
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let cells = suite.workloads.map { workload -> String in
                func value(_ metric: String) -> Double? {
                    measured.first { $0.strategy == strategy && $0.workload == workload.name && $0.metric == metric }?.statistics?.median
                }
                let metric = (workload as? InvariantWorkload)?.tornPer1000Metric ?? "torn_per_1000_transactions"
                guard let torn = value(metric) else { return failed ? "error" : "—" }
                return Self.format(count: torn) + " torn · " + (value("reruns_per_transaction").map { Self.format(count: $0) } ?? "—") + " re-runs"
            }
            return (strategy, cells)
        }
    }

    /// Each workload's median cost per operation and its ratio to `plain`: time (`latency`),
    /// instructions, or both side by side, as the run measured.
    init(latencyOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measures = Self.costMeasures(in: allRows, suite: suite.name)
        // The workloads rows name, in the order they were measured (one workload can write rows
        // for several, as the concrete reference does); the suite's list before any row exists.
        var named: [String] = []
        for row in allRows where row.suite == suite.name && measures.map(\.metric.name).contains(row.metric) && !named.contains(row.workload) {
            named.append(row.workload)
        }
        columns = named.isEmpty ? suite.workloads.map(\.name) : named
        unit = "median \(Self.units(measures)) (× plain)"
        func median(_ measure: CostMeasure, _ strategy: String, _ workload: String) -> Double? {
            allRows.first { $0.suite == suite.name && $0.metric == measure.metric.name && $0.strategy == strategy && $0.workload == workload }?.statistics?.median
        }
        let columns = self.columns
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError && $0.workload == "*" }
            let cells = columns.map { workload -> String in
                Self.costCell(measures: measures, failed: failed) { measure in
                    (median(measure, strategy, workload), median(measure, "plain", workload))
                }
            }
            return (strategy, cells)
        }
        let shares = HarnessShare.all(in: allRows, suite: suite.name)
        if !shares.isEmpty {
            footnotes.append("harness share (protocol path against the concrete loop, both net of plain): " + shares.map(\.description).joined(separator: "; "))
        }
    }

    /// The cost measures `suite`'s rows carry, time first; time when there are none yet.
    static func costMeasures(in rows: [ResultRow], suite: String) -> [CostMeasure] {
        let found = CostMeasure.allCases.filter { measure in rows.contains { $0.suite == suite && $0.metric == measure.metric.name } }
        return found.isEmpty ? [.time] : found
    }

    static func units(_ measures: [CostMeasure]) -> String {
        measures.map(\.metric.unit).joined(separator: " · ")
    }

    /// One cell per measure, joined: "1.2 µs (×3.4) · 824 Ir (×12)"; `value` gives a measure's
    /// value and the floor it is held against.
    static func costCell(measures: [CostMeasure], failed: Bool, _ value: (CostMeasure) -> (Double?, floor: Double?)) -> String {
        let parts = measures.map { measure -> String? in
            let (value, floor) = value(measure)
            guard let value else { return nil }
            return costCell(value, floor: floor, measure: measure)
        }
        guard parts.contains(where: { $0 != nil }) else { return failed ? "error" : "—" }
        return parts.map { $0 ?? "—" }.joined(separator: " · ")
    }

    /// What the memory table's numbers are, from what the rows say was used: jemalloc's exact
    /// counters, or glibc's `mallinfo2` (chunk bytes, headers included, no allocation counts).
    static func memoryUnit(notes: [String]) -> String {
        let glibc = MemoryProbe.Allocator.glibc.description
        let usedGlibc = notes.contains { $0.contains(glibc) }
        let usedJemalloc = notes.contains { $0.hasPrefix("jemalloc ") }
        switch (usedJemalloc, usedGlibc) {
        case (true, false): return "bytes (B) and allocations, exact counts from jemalloc's own counters"
        case (false, true): return "bytes (B) from glibc's mallinfo2 (chunk bytes, headers included; no allocation counts): jemalloc was not found"
        case (true, true): return "bytes (B) and allocations: jemalloc's counters in some rows, glibc's mallinfo2 in others (see each row's note)"
        case (false, false): return "bytes (B) and allocations"
        }
    }

    /// A cost and, when the floor it is held against was measured, its ratio to it: "1.2 µs (×3.4)", "824 Ir (×12)".
    static func costCell(_ value: Double, floor: Double?, measure: CostMeasure) -> String {
        let text = measure == .time ? format(nanoseconds: value) : format(instructions: value)
        guard let floor, floor > 0 else { return text }
        return text + " (×" + format(ratio: value / floor) + ")"
    }

    /// A fraction as a percentage, whole where it is: "25%", "1%", "0.5%".
    public static func format(percent fraction: Double) -> String {
        let percent = fraction * 100
        return percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }

    static func format(instructions: Double) -> String {
        switch abs(instructions) {
        case ..<100: return String(format: "%.1f Ir", instructions)
        case ..<100_000: return String(format: "%.0f Ir", instructions)
        default: return String(format: "%.1f kIr", instructions / 1_000)
        }
    }

    /// The memory suite: bytes per object at the largest store measured, the overhead over `plain`,
    /// what that whole store cost (100,000 objects unless `--quick` or `--objects`), then per write, per view, per subscriber and after tear-down.
    init(memoryOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let memory = allRows.filter { $0.suite == suite.name && !$0.isError && $0.statistics != nil }
        func value(_ strategy: String, _ metric: String, objects: Int? = nil, subscribers: Int? = nil) -> Double? {
            memory.filter { row in
                row.strategy == strategy && row.metric == metric
                    && (objects == nil || row.objects == objects) && (subscribers == nil || row.subscribers == subscribers)
            }.max { $0.objects < $1.objects }?.statistics?.median
        }
        let largest = memory.filter { $0.metric == "fresh_bytes_per_object" }.map(\.objects).max()
        let viewedAt = memory.filter { $0.metric == "viewed_bytes_per_object" }.map(\.objects).max()
        let subscribersAt = memory.filter { $0.metric == "bytes_per_subscriber" }.map(\.subscribers).max()
        columns = [
            "B/object" + (largest.map { " (N=\($0))" } ?? ""), "over plain", "all \(largest.map(String.init) ?? "N") objects", "after 1st write",
            "with a view" + (viewedAt.map { " (N=\($0))" } ?? ""), "B/subscriber" + (subscribersAt.map { " (S=\($0))" } ?? ""),
            "allocs/write", "allocs/write, 1 view", "left after tear-down",
        ]
        unit = Self.memoryUnit(notes: memory.map(\.note))
        func bytes(_ value: Double?) -> String { value.map { Self.format(bytes: $0) } ?? "—" }
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let fresh = value(strategy, "fresh_bytes_per_object", objects: largest)
            let floor = value("plain", "fresh_bytes_per_object", objects: largest)
            var overhead = "—"
            if let fresh, let floor {
                let difference: Double = fresh - floor
                overhead = (difference >= 0 ? "+" : "") + Self.format(bytes: difference)
            }
            var total = "—"
            if let fresh, let largest { total = String(format: "%.1f MiB", fresh * Double(largest) / 1_048_576) }
            var cells: [String] = [
                bytes(fresh),
                overhead,
                total,
                bytes(value(strategy, "written_bytes_per_object", objects: largest)),
                bytes(value(strategy, "viewed_bytes_per_object", objects: viewedAt)),
                bytes(value(strategy, "bytes_per_subscriber", subscribers: subscribersAt)),
                value(strategy, "allocations_per_write", subscribers: 0).map { Self.format(count: $0) } ?? "—",
                value(strategy, "allocations_per_write", subscribers: 1).map { Self.format(count: $0) } ?? "—",
                bytes(value(strategy, "bytes_left_after_teardown", objects: largest)),
            ]
            if failed && fresh == nil { cells = cells.map { $0 == "—" ? "error" : $0 } }
            return (strategy, cells)
        }
        let footprint = IsolationFootprintWorkload.Kind.allCases.compactMap { kind -> String? in
            allRows.first { $0.suite == suite.name && $0.executor == kind.rawValue && $0.metric == kind.bytesMetric.name }?
                .statistics.map { "\(kind.rawValue) \(Self.format(bytes: $0.median))" }
        }
        if !footprint.isEmpty {
            footnotes.append("isolation, bytes per instance (\(IsolationFootprintWorkload.instances) of each): " + footprint.joined(separator: ", "))
        }
    }

    static func format(bytes: Double) -> String {
        let rounded = (bytes * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(format: "%.0f B", rounded) : String(format: "%.1f B", rounded)
    }

    static func format(count: Double) -> String {
        count == count.rounded() ? String(format: "%.0f", count) : String(format: "%.2f", count)
    }

    static func format(nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<10: return String(format: "%.2f ns", nanoseconds)
        case ..<1_000: return String(format: "%.1f ns", nanoseconds)
        case ..<1_000_000: return String(format: "%.2f µs", nanoseconds / 1_000)
        default: return String(format: "%.2f ms", nanoseconds / 1_000_000)
        }
    }

    static func format(ratio: Double) -> String {
        ratio < 10 ? String(format: "%.2f", ratio) : String(format: "%.0f", ratio)
    }

    /// A plain-text table with aligned columns.
    public func text() -> String {
        let header = [rowLabel] + columns
        let body = rows.map { [$0.strategy] + $0.cells }
        let widths = header.indices.map { index in
            ([header] + body).map { $0[index].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == 0 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                           : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return "\(suite) — \(unit)\n" + ([line(header), rule] + body.map(line) + footnotes).joined(separator: "\n") + "\n"
    }

    /// A GitHub-flavoured markdown table.
    public func markdown() -> String {
        let header = "| \(rowLabel) | " + columns.joined(separator: " | ") + " |"
        let rule = "|---|" + columns.map { _ in "---:" }.joined(separator: "|") + "|"
        let body = rows.map { "| \($0.strategy) | " + $0.cells.joined(separator: " | ") + " |" }
        return "### \(suite) — \(unit)\n\n" + ([header, rule] + body).joined(separator: "\n") + "\n" + footnotes.map { "\n" + $0 + "\n" }.joined()
    }
}
