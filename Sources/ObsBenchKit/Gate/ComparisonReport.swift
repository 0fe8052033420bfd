import Foundation

/// The gate's printout: a verdict line, then every compared metric (regressions first), as
/// aligned text or as GitHub-flavoured markdown for a pull-request comment or a step summary.
public struct ComparisonReport: Sendable {
    public var comparison: RunComparison
    public var baselineSource: String
    public var currentSource: String

    public init(comparison: RunComparison, baselineSource: String, currentSource: String) {
        self.comparison = comparison
        self.baselineSource = baselineSource
        self.currentSource = currentSource
    }

    public var headline: String {
        let counts = Dictionary(grouping: comparison.comparisons, by: \.verdict).mapValues(\.count)
        let verdict = switch comparison.exitStatus {
        case .regression: counts[.regression] != nil ? "REGRESSION" : "FAILED (metrics missing from the current run)"
        case .onlyImprovements: "improvements only"
        default: "no regression"
        }
        let parts = [Verdict.regression, .improvement, .unchanged, .informational, .missing, .added].compactMap { kind in
            counts[kind].map { "\($0) \(kind.rawValue)" }
        }
        return "\(verdict): " + parts.joined(separator: ", ")
    }

    var table: [[String]] {
        comparison.comparisons.map { item in
            [item.verdict.rawValue, item.key, item.baseline.map(NumberFormat.compared) ?? "—", item.current.map(NumberFormat.compared) ?? "—",
             item.change.map(NumberFormat.change) ?? "—", item.unit, item.reason]
        }
    }

    static let header = ["verdict", "metric", "baseline", "current", "change", "unit", "why"]

    public func text() -> String {
        "baseline: \(baselineSource)\ncurrent:  \(currentSource)\n\(headline)\n\n" + TextTable(header: Self.header, rows: table).text()
            + comparison.notes.map { "\nnote: \($0)\n" }.joined()
    }

    public func markdown() -> String {
        "### obsbench gate: \(headline)\n\nBaseline `\(baselineSource)`, current `\(currentSource)`.\n\n" + TextTable(header: Self.header, rows: table, alignment: .right([2, 3, 4])).markdown()
            + comparison.notes.map { "\n> \($0)\n" }.joined()
    }
}
