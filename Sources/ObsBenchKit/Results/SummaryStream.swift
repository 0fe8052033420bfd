import ObservationStrategies

/// A run's summary tables as text, one suite at a time, for printing each suite's as soon as it is
/// done (``BenchmarkRun/suiteDone``, in the plan's order). The pieces, then ``ending``, join into
/// exactly the text of every suite's tables printed at once after the run: the same tables, a
/// blank line between two, in the same order.
///
/// ```swift
/// var stream = SummaryStream(style: .text, strategies: ["plain", "observable"])
/// Console.print(stream.text(of: .latency, rows: rowsSoFar))  // when latency is done
/// Console.print(stream.ending)                               // after the last suite
/// ```
public struct SummaryStream: Sendable {
    /// How the tables are written.
    public enum Style: Sendable {
        /// Aligned plain text (``SummaryTable/text()``).
        case text
        /// GitHub-flavoured markdown (``SummaryTable/markdown()``).
        case markdown
    }

    public let style: Style
    /// The run's strategies, in table order.
    public let strategies: [String]
    /// What the run's strategies declare, for the footnotes that name a declaration the rows
    /// contradict (``DeclarationCheck``); a strategy not among them is looked up among the built-in ones.
    public let descriptors: [StrategyDescriptor]
    /// Whether a table has been written: every later one is preceded by a blank line.
    private var wroteTable = false

    public init(style: Style, strategies: [String], descriptors: [StrategyDescriptor] = []) {
        self.style = style
        self.strategies = strategies
        self.descriptors = descriptors
    }

    /// `suite`'s tables, each after the blank line that parts it from the table before it (if
    /// any, of this suite or an earlier one). `rows` may be every row pooled so far: a suite's
    /// tables read only its own rows and those of `Suite.tablesAlsoRead`, once those are done.
    public mutating func text(of suite: Suite, rows: [ResultRow]) -> String {
        var text = ""
        for table in SummaryTable.tables(suite: suite, rows: rows, strategies: strategies, descriptors: descriptors) {
            if wroteTable { text += "\n" }
            text += style == .text ? table.text() : table.markdown()
            wroteTable = true
        }
        return text
    }

    /// What follows the last suite's tables: in plain text, when `plain` was not run, a line
    /// saying the tables have no ratios; otherwise nothing.
    public var ending: String {
        style == .text && !strategies.contains(RowKey.floorStrategy) ? "(no ratios: `\(RowKey.floorStrategy)` was not run)\n" : ""
    }
}
