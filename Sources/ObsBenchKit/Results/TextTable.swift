import ObservationStrategies

/// A strategy as a row of `list` and of the report: its name, capabilities and dependency.
extension StrategyDescriptor {
    public static let tableHeader = ["strategy", "granularity", "delivery", "transactional", "coalesces", "dedupes", "dependency"]

    public var tableCells: [String] {
        func yesNo(_ flag: Bool) -> String { flag ? "yes" : "no" }
        return [
            name, capabilities.granularity.rawValue, capabilities.delivery.rawValue, yesNo(capabilities.transactional),
            yesNo(capabilities.coalesces), yesNo(capabilities.deduplicates), dependency,
        ]
    }
}

/// A table of text cells, rendered as aligned plain text or as GitHub-flavoured markdown: every
/// table obsbench prints (summaries, the gate's verdicts, `list`, the report) goes through it.
///
/// ```swift
/// TextTable(header: ["strategy", "latency"], rows: [["plain", "1.2 ns"]], alignment: .numbers).text()
/// // strategy  latency
/// // --------  -------
/// // plain      1.2 ns
/// ```
public struct TextTable: Sendable {
    /// How plain text aligns cells.
    public enum Alignment: Sendable {
        /// Every column left-aligned, no rule under the header.
        case left
        /// The first column left-aligned, the others (numbers) right-aligned, a rule under the header.
        case numbers
        /// The columns at these indices right-aligned (numbers), the others left-aligned; no rule.
        case right(Set<Int>)

        func isRight(_ column: Int) -> Bool {
            switch self {
            case .left: false
            case .numbers: column > 0
            case .right(let columns): columns.contains(column)
            }
        }
    }

    public var header: [String]
    public var rows: [[String]]
    public var alignment: Alignment
    /// Put before every plain-text line.
    public var indent: String

    public init(header: [String], rows: [[String]], alignment: Alignment = .left, indent: String = "") {
        self.header = header
        self.rows = rows
        self.alignment = alignment
        self.indent = indent
    }

    /// Aligned columns, two spaces apart; the last column is not padded when left-aligned.
    public func text() -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell -> String in
                let gap = String(repeating: " ", count: max(widths[column] - cell.count, 0))
                if alignment.isRight(column) { return gap + cell }
                return column == cells.count - 1 ? cell : cell + gap
            }
            return indent + padded.joined(separator: "  ")
        }
        var lines = [line(header)]
        if case .numbers = alignment { lines.append(indent + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        return (lines + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// The same table with the cells of `column` shortened in the middle (`…`) just enough that
    /// each plain-text line fits `width` columns, where it can; the other columns keep their cells.
    ///
    /// ```swift
    /// TextTable(header: ["key", "n"], rows: [["latency/write-observed/observable", "1"]])
    ///     .fitted(to: 20, shrinking: 0).rows[0][0]  // "latency/w…observable"
    /// ```
    public func fitted(to width: Int, shrinking column: Int) -> TextTable {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        guard column < columns else { return self }
        let widths = (0..<columns).map { index in all.map { $0.indices.contains(index) ? $0[index].count : 0 }.max() ?? 0 }
        let others = widths.enumerated().filter { $0.offset != column }.map(\.element).reduce(0, +) + 2 * (columns - 1) + indent.count
        let room = max(width - others, header.indices.contains(column) ? header[column].count : 1, 9)
        guard widths[column] > room else { return self }
        var fitted = self
        fitted.rows = rows.map { cells in
            guard cells.indices.contains(column), cells[column].count > room else { return cells }
            var shortened = cells
            let cell = cells[column]
            let head = (room - 1) / 2
            let tail = room - 1 - head
            shortened[column] = String(cell.prefix(head)) + "…" + String(cell.suffix(tail))
            return shortened
        }
        return fitted
    }

    /// A markdown table; `|` in a cell is escaped, and number columns are right-aligned.
    public func markdown() -> String {
        func line(_ cells: [String]) -> String { "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |" }
        let rule = "|" + header.indices.map { alignment.isRight($0) ? "---:" : "---" }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
