import Foundation

/// The end-of-run summary: per suite, a row per strategy with each workload's headline median and
/// its ratio to `plain` measured in the same run.
public struct SummaryTable: Sendable {
    public var suite: String
    public var columns: [String]
    public var unit: String
    /// Strategy name, then one cell per column.
    public var rows: [(strategy: String, cells: [String])]

    /// Builds the table of `suite` from `rows`: metric `latency`, median, ratio to `plain`.
    public init(suite: Suite, rows allRows: [ResultRow], strategies: [String]) {
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
                var cell = Self.format(nanoseconds: value)
                if let floor = median("plain", workload.name), floor > 0 {
                    cell += " (×" + Self.format(ratio: value / floor) + ")"
                }
                return cell
            }
            return (strategy, cells)
        }
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
        let header = ["strategy"] + columns
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
        return "\(suite) — \(unit)\n" + ([line(header), rule] + body.map(line)).joined(separator: "\n") + "\n"
    }

    /// A GitHub-flavoured markdown table.
    public func markdown() -> String {
        let header = "| strategy | " + columns.joined(separator: " | ") + " |"
        let rule = "|---|" + columns.map { _ in "---:" }.joined(separator: "|") + "|"
        let body = rows.map { "| \($0.strategy) | " + $0.cells.joined(separator: " | ") + " |" }
        return "### \(suite) — \(unit)\n\n" + ([header, rule] + body).joined(separator: "\n") + "\n"
    }
}
