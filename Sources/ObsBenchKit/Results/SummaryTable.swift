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
        }
    }

    /// Per isolation kind (a row each) and caller count (a column each): the median round trip and
    /// its ratio to a default actor's with as many callers, measured in the same run.
    init(hopsOf suite: Suite, rows allRows: [ResultRow]) {
        self.suite = suite.name
        let latency = allRows.filter { $0.suite == suite.name && $0.metric == "latency" }
        let concurrencies = RoundTripHopWorkload.concurrencies
        columns = concurrencies.map { $0 == 1 ? "1 caller" : "\($0) callers" }
        unit = "median round trip per caller (× default actor, same callers)"
        rowLabel = "isolation"
        let failed = allRows.contains { $0.suite == suite.name && $0.isError }
        func median(_ executor: String, _ callers: Int) -> Double? {
            latency.first { $0.executor == executor && $0.concurrency == callers }?.statistics?.median
        }
        let floor = RoundTripHopWorkload.Kind.defaultActor.rawValue
        rows = RoundTripHopWorkload.Kind.allCases.map { kind in
            let cells = concurrencies.map { callers -> String in
                guard let value = median(kind.rawValue, callers) else { return failed ? "error" : "—" }
                return Self.latencyCell(value, floor: median(floor, callers))
            }
            return (kind.rawValue, cells)
        }
        // The write-to-view cases: one caller (the main actor) each.
        for handoff in WriteToViewHopWorkload.Handoff.allCases {
            let workload = WriteToViewHopWorkload(handoff: handoff).name
            let value = latency.first { $0.workload == workload }?.statistics?.median
            let first = value.map { Self.latencyCell($0, floor: median(floor, 1)) } ?? (failed ? "error" : "—")
            rows.append((workload, [first] + Array(repeating: "—", count: concurrencies.count - 1)))
        }
    }

    /// Per topology: the fitted growth of write latency with S, and the latency at the largest S.
    init(scalingOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        let measured = allRows.filter { $0.suite == suite.name && !$0.isError }
        let largest = measured.filter { $0.metric == "latency" }.map(\.subscribers).max()
        columns = suite.workloads.map(\.name)
        unit = "growth of write-to-quiescence latency with subscribers S (log-log slope) · median at S=\(largest.map(String.init) ?? "max") · re-runs/write there"
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError }
            let cells = suite.workloads.map { workload -> String in
                func value(_ metric: String, subscribers: Int? = nil) -> Double? {
                    measured.first { $0.strategy == strategy && $0.workload == workload.name && $0.metric == metric && (subscribers == nil || $0.subscribers == subscribers) }?.statistics?.median
                }
                guard let slope = value("growth_exponent") else { return failed ? "error" : "—" }
                var cell = GrowthFit.label(slope) + String(format: " (%.2f)", slope)
                if let largest, let latency = value("latency", subscribers: largest) { cell += " · " + Self.format(nanoseconds: latency) }
                if let largest, let reruns = value("reruns_per_write", subscribers: largest) { cell += " · " + Self.format(count: reruns) }
                return cell
            }
            return (strategy, cells)
        }
    }

    /// Per writer count: torn observations per 1,000 transactions, and re-runs per transaction.
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
                guard let torn = value("torn_per_1000_transactions") else { return failed ? "error" : "—" }
                return Self.format(count: torn) + " torn · " + (value("reruns_per_transaction").map { Self.format(count: $0) } ?? "—") + " re-runs"
            }
            return (strategy, cells)
        }
    }

    /// Metric `latency`: each workload's median and its ratio to `plain`.
    init(latencyOf suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
        self.suite = suite.name
        columns = suite.workloads.map(\.name)
        unit = "median ns/op (× plain)"
        let latency = allRows.filter { $0.suite == suite.name && $0.metric == "latency" }
        func median(_ strategy: String, _ workload: String) -> Double? {
            latency.first { $0.strategy == strategy && $0.workload == workload }?.statistics?.median
        }
        rows = strategies.map { strategy in
            let failed = allRows.contains { $0.suite == suite.name && $0.strategy == strategy && $0.isError && $0.workload == "*" }
            let cells = suite.workloads.map { workload -> String in
                guard let value = median(strategy, workload.name) else { return failed ? "error" : "—" }
                return Self.latencyCell(value, floor: median("plain", workload.name))
            }
            return (strategy, cells)
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
        unit = "bytes (B) and allocations, exact allocator counts"
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
            allRows.first { $0.suite == suite.name && $0.executor == kind.rawValue && $0.metric == "bytes_per_instance" }?
                .statistics.map { "\(kind.rawValue) \(Self.format(bytes: $0.median))" }
        }
        if !footprint.isEmpty {
            footnotes.append("isolation, bytes per instance (\(IsolationFootprintWorkload.instances) of each): " + footprint.joined(separator: ", "))
        }
    }

    /// A latency and, when the floor it is held against was measured, its ratio to it: "1.2 µs (×3.4)".
    static func latencyCell(_ value: Double, floor: Double?) -> String {
        guard let floor, floor > 0 else { return format(nanoseconds: value) }
        return format(nanoseconds: value) + " (×" + format(ratio: value / floor) + ")"
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
