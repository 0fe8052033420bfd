import Foundation

/// The gate's printout: a verdict line, then every compared metric (regressions first), as
/// aligned text or as GitHub-flavoured markdown for a pull-request comment or a step summary.
public struct ComparisonReport: Sendable {
    public var comparison: RunComparison
    public var baselineSource: String
    public var currentSource: String
    /// Both runs' `profile.csv`, when they have one: under each instruction regression, the
    /// functions that moved most.
    public var profiles: (baseline: ProfileSummary?, current: ProfileSummary?)
    /// How many movers to list under each instruction regression.
    public static let moversShown = 5
    /// Where the baseline came from, said in the summary.
    public var mode: GateMode

    public init(
        comparison: RunComparison, baselineSource: String, currentSource: String, profiles: (baseline: ProfileSummary?, current: ProfileSummary?) = (nil, nil),
        mode: GateMode = .committedBaseline
    ) {
        self.comparison = comparison
        self.baselineSource = baselineSource
        self.currentSource = currentSource
        self.profiles = profiles
        self.mode = mode
    }

    /// What was judged, and how: the mode, the layouts per row, each row class's tolerance, and
    /// how many rows were judged.
    public var judged: String {
        let policy = comparison.policy
        let rows = comparison.comparisons
        func has(_ unit: String) -> Bool { rows.contains { $0.unit == unit && $0.verdict != .informational } }
        var tolerances: [String] = []
        if has(Metric.instructions.unit) {
            let oneLayout = rows.filter(\.judgedOnOneLayout).count
            tolerances.append(
                "instructions ±\(NumberFormat.percent(policy.instructionTolerance)) synchronous, ±\(NumberFormat.percent(policy.asynchronousInstructionTolerance)) asynchronous and hops, more where the baseline's layouts spread (\(Int(GatePolicy.layoutStandardErrors)) standard errors of the difference of means), and no current layout far from its run's others"
                    + (oneLayout == 0
                        ? ""
                        : " (\(oneLayout) row(s) with one layout on a side: ±\(NumberFormat.percent(policy.singleLayoutInstructionTolerance)) synchronous, ±\(NumberFormat.percent(policy.singleLayoutAsynchronousInstructionTolerance)) asynchronous and hops)")
            )
        }
        if rows.contains(where: { $0.inBothRuns && $0.rowKey.metric.gate == .count }) {
            tolerances.append(
                "exact counts may not grow, nor fall below \(NumberFormat.percent(GatePolicy.implausibleFraction)) unflagged"
                    + (policy.gatesAsynchronousCounts
                        ? " (other threads' counts: +\(NumberFormat.percent(policy.asynchronousCountTolerance)))" : " (other threads' counts: reported only)"))
        }
        if rows.contains(where: { $0.inBothRuns && $0.rowKey.metric.gate == .behaviour }) {
            tolerances.append(
                "behaviour counts may not move either way"
                    + (policy.gatesAsynchronousCounts ? " (other threads': ±\(NumberFormat.percent(policy.asynchronousCountTolerance)))" : " (other threads': reported only)"))
        }
        if rows.contains(where: { $0.inBothRuns && $0.rowKey.metric.gate == .timing }) {
            tolerances.append(
                policy.gatesTimings
                    ? "timings +\(NumberFormat.percent(policy.timingThreshold)) and significant, not judged where the baseline's rounds spread wider" : "timings reported only")
        }
        let informational = rows.filter { $0.verdict == .informational }.count
        let layouts =
            comparison.layoutsPerRow.map { $0.baseline == $0.current ? "\($0.baseline)" : "\($0.baseline) baseline, \($0.current) current" } ?? "none (no instruction counts)"
        return "mode: \(mode.description); layouts per row: \(layouts); "
            + (tolerances.isEmpty ? "" : "tolerances: " + tolerances.joined(separator: "; ") + "; ")
            + "judged: \(comparison.judgedCount) of \(rows.count) rows (\(informational) informational)"
    }

    /// For each instruction regression: its key, and the top movers (nil when a run has no
    /// profile of the row, with the reason).
    var regressionMovers: [(key: String, movers: [ProfileSummary.Mover]?, missing: String?)] {
        comparison.comparisons.filter { [.regression, .spread, .implausible].contains($0.verdict) && $0.unit == Metric.instructions.unit }.map { item in
            guard item.inBothRuns else { return (item.key, nil, "the row is not in both runs") }
            let rowKey = item.rowKey
            guard let base = profiles.baseline, base.row(rowKey) != nil else {
                return (item.key, nil, "the baseline has no profile of it (a baseline made before profile.csv: remake it to see which function moved)")
            }
            guard let now = profiles.current, now.row(rowKey) != nil else { return (item.key, nil, "the current run has no profile of it") }
            return (item.key, Array(ProfileSummary.movers(base: base, current: now, key: rowKey).prefix(Self.moversShown)), nil)
        }
    }

    public var headline: String {
        let counts = Dictionary(grouping: comparison.comparisons, by: \.verdict).mapValues(\.count)
        let verdict =
            switch comparison.exitStatus {
            case .regression:
                counts[.regression] != nil
                    ? "REGRESSION"
                    : counts[.behaviourChanged] != nil
                        ? "BEHAVIOUR CHANGED"
                        : counts[.implausible] != nil ? "IMPLAUSIBLE (a cost fell too far: remake the baseline if real)" : "FAILED (metrics missing from the current run)"
            case .onlyImprovements: "improvements only"
            case .baselineUnusable: comparison.noVerdict?.headline ?? "NO VERDICT"
            default: counts[.spread] != nil ? "no regression (a layout strayed from its run's others: see `spread`)" : "no regression"
            }
        let parts = Self.verdictOrder.compactMap { kind in
            counts[kind].map { "\($0) \(kind.rawValue)" }
        }
        if comparison.exitStatus == .baselineUnusable {
            // The reason first, where a CI script looks for it; the rows' verdicts stand for nothing.
            return "\(verdict) (rows, not judged as a whole: " + parts.joined(separator: ", ") + ")"
        }
        return "\(verdict): " + parts.joined(separator: ", ")
    }

    /// The order verdicts are counted in, in the headline.
    static let verdictOrder: [Verdict] = [
        .regression, .behaviourChanged, .implausible, .noVerdict, .missing, .spread, .improvement, .notJudged, .unchanged, .informational, .added,
    ]

    /// Rows judged of rows compared, one line per strategy ("  coalescing: 0 of 31 rows judged"):
    /// a gate of a store of one's own shows whether any of its rows was judged.
    public var byStrategy: String {
        let rows = comparison.byStrategy
        let width = rows.map(\.strategy.count).max() ?? 0
        return "rows judged, by strategy:\n"
            + rows.map { "  " + ($0.strategy + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0) + " \($0.judged) of \($0.rows) rows judged\n" }.joined()
    }

    /// The table's cells: without reasons (they follow the table, for the rows that need one), or
    /// with every row's reason (`full`).
    func table(full: Bool) -> [[String]] {
        comparison.comparisons.map { item in
            let values = item.baseline.flatMap { baseline in item.current.map { NumberFormat.compared(baseline, $0) } }
            return [
                item.verdict.rawValue, full ? item.key : item.rowKey.shortDescription,
                values?.baseline ?? item.baseline.map(NumberFormat.compared) ?? "—", values?.current ?? item.current.map(NumberFormat.compared) ?? "—",
                item.change.map(NumberFormat.change) ?? "—", item.seesCell,
            ] + (full ? [item.unit, item.reason] : [])
        }
    }

    static let header = ["verdict", "metric", "baseline", "current", "change", "sees"]
    static let fullHeader = header + ["unit", "why"]

    /// The verdicts whose reasons are printed under the compact table: what fails, what gave no
    /// verdict, what is named.
    static let explained: Set<Verdict> = [.regression, .behaviourChanged, .implausible, .noVerdict, .missing, .spread, .improvement]

    /// The gate's report as text. By default every line fits ``SummaryTable/width`` columns: the
    /// metric column is shortened where it must be, and the reasons follow the table for the rows
    /// that fail, improve or have no verdict. `full` gives every row's whole key and reason.
    public func text(full: Bool = false) -> String {
        let wrap = { (line: String) in SummaryTable.wrap(line) }
        var table = TextTable(header: full ? Self.fullHeader : Self.header, rows: table(full: full), alignment: .right([2, 3, 4, 5]))
        if !full { table = table.fitted(to: SummaryTable.width, shrinking: 1) }
        let explained = comparison.comparisons.filter { Self.explained.contains($0.verdict) }
        let notJudged = comparison.comparisons.filter { $0.verdict == .notJudged }.count
        var why = ""
        if !full {
            why = explained.map { wrap("\($0.verdict.rawValue) \($0.key): \($0.reason)") }.joined()
            if notJudged > 0 {
                why += wrap(
                    "\(notJudged) row(s) not judged: each could see only the change in its `sees` column (the baseline's spread, or too few rounds); --full gives each reason")
            }
            if !why.isEmpty { why = "\nwhy:\n" + why }
        }
        return "baseline: \(baselineSource)\ncurrent:  \(currentSource)\n" + wrap(headline) + wrap(judged) + byStrategy + "\n" + table.text() + why
            + regressionMovers.map { regression in
                wrap("\nwhich functions moved in \(regression.key):")
                    + (regression.movers.map { ProfileSummary.moversTable($0).fitted(to: SummaryTable.width, shrinking: 4).text() }
                        ?? wrap("  not known: \(regression.missing ?? "")"))
            }.joined()
            + comparison.notes.map { "\n" + wrap("note: \($0)") }.joined()
    }

    public func markdown() -> String {
        "### obsbench gate: \(headline)\n\nBaseline `\(baselineSource)`, current `\(currentSource)`.\n\n\(judged).\n\n\(byStrategy.replacingOccurrences(of: "\n  ", with: "\n- "))\n"
            + TextTable(header: Self.fullHeader, rows: table(full: true), alignment: .right([2, 3, 4, 5])).markdown()
            + regressionMovers.map { regression in
                "\n#### Which functions moved in `\(regression.key)`\n\n"
                    + (regression.movers.map { ProfileSummary.moversTable($0, indent: "").markdown() } ?? "Not known: \(regression.missing ?? "")\n")
            }.joined()
            + comparison.notes.map { "\n> \($0)\n" }.joined()
    }
}
