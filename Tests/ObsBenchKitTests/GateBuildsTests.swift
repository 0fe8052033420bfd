import Foundation
import Testing

@testable import ObsBenchKit

/// The gate on counts of real builds (`scripts/gate-builds-check.sh`, committed in
/// `results/reference/gate-builds-2026-11-25/`): two builds of the same code that differ by an
/// unrelated change, and builds with a compile-time canary (`OBSBENCH_BUILD_CANARY`), each
/// counted in 5 memory layouts. Their profiles keep only the canaries' rows.
@Suite("Regression gate: real builds")
struct GateBuildsTests {
    init() { BuiltInStrategiesKnown.declare() }

    static let folder = ExportTests.root.appendingPathComponent("results/reference/gate-builds-2026-11-25")

    static func load(_ build: String) throws -> RunResults {
        try RunResults.load(folder.appendingPathComponent(build).path)
    }

    /// The build's profiles, kept only where a canary is judged (`v0` and the canaries).
    static func profile(_ build: String) -> ProfileSummary? {
        try? ProfileSummary.load(folder.appendingPathComponent(build).path)
    }

    static func compare(_ base: String, _ head: String) throws -> ComparisonReport {
        ComparisonReport(
            comparison: RunComparison(baseline: try load(base), current: try load(head)), baselineSource: base, currentSource: head,
            profiles: (profile(base), profile(head)), mode: .sameMachine)
    }

    @Test("A/A: two builds of the same code (a public function added to ObservationStrategies), 5 layouts each: rows judged, no verdict either way")
    func unrelatedChangeIsNoChange() throws {
        let report = try Self.compare("v0", "v4")
        #expect(report.comparison.exitStatus == .success, "\(report.text())")
        #expect(report.comparison.judgedCount > 50)
        #expect(report.judged.contains("layouts per row: 5"))
        // state-subject's view-scope, on a store of 10 records, counts alike in every layout: it is
        // judged to the fixed 0.5%. Its transaction-2-fields (a whole-array copy a write, drawn over
        // 80 records) still moves between layouts, and is judged against that spread.
        func judged(_ prefix: String) throws -> MetricComparison {
            try #require(report.comparison.comparisons.first { $0.key.hasPrefix(prefix) })
        }
        let fixed = try judged("latency/view-scope/state-subject/instructions")
        #expect(fixed.verdict == .unchanged && fixed.reason.contains("(±0.5%, synchronous: no other thread"), "\(fixed.reason)")
        let spread = try judged("latency/transaction-2-fields/state-subject/instructions")
        #expect(spread.verdict == .unchanged && spread.reason.contains("the baseline's layouts spread"), "\(spread.reason)")
    }

    @Test("A/A: every ordered pair of the five builds of the same code, each side the baseline in turn: no verdict either way")
    func everyPairIsQuiet() throws {
        let builds = ["v0", "v1", "v2", "v3", "v4"]
        let runs = try Dictionary(uniqueKeysWithValues: builds.map { ($0, try Self.load($0)) })
        for base in builds {
            for head in builds where head != base {
                let comparison = RunComparison(baseline: runs[base]!, current: runs[head]!)
                let flagged = comparison.comparisons.filter { [.regression, .spread, .improvement].contains($0.verdict) }
                #expect(flagged.isEmpty, "\(base) vs \(head): \(flagged.map { "\($0.key): \($0.reason)" })")
                #expect(comparison.judgedCount == 77)
            }
        }
    }

    @Test("a build with an extra call in observable's write (+1%): that row is a regression, nothing else moves, and the write's function is named")
    func observableCanaryIsCaught() throws {
        let report = try Self.compare("v0", "cobs-a")
        let flagged = report.comparison.comparisons.filter { $0.verdict == .regression || $0.verdict == .improvement }
        #expect(flagged.map(\.key) == ["latency/write-unobserved/observable/instructions objects=1000 S=0 c=1"], "\(report.text())")
        #expect(report.comparison.exitStatus == .regression)
        let movers = try #require(report.regressionMovers.first?.movers)
        #expect(movers.first?.function.contains("ObservableStrategy.write") == true, "\(movers.map(\.function))")
    }

    @Test("a build whose published write with a view calls extra work (+2%): that row is a regression naming BuildCanary.calledWork, nothing else flagged")
    func publishedCanaryIsCaught() throws {
        let report = try Self.compare("v0", "cpub-a")
        let flagged = report.comparison.comparisons.filter { $0.verdict == .regression || $0.verdict == .improvement }
        #expect(flagged.map(\.key) == ["latency/write-observed/published/instructions objects=1000 S=1 c=1"], "\(report.text())")
        let movers = try #require(report.regressionMovers.first?.movers)
        #expect(movers.first?.function.contains("BuildCanary.calledWork") == true, "\(movers.map(\.function))")
    }
}
