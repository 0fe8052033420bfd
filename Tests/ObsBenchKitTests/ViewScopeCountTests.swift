import Foundation
import Testing

@testable import ObsBenchKit

/// view-scope's instruction counts: checked on counts under Callgrind with the release binary,
/// never on time.
@Suite("view-scope instruction counts")
struct ViewScopeCountTests {
    @Test(
        "view-scope is counted on a store of 10 records, where state-subject's scope (403 Ir) counts the same in every layout, to 0.5 Ir (on 1,000 records its layouts ranged 391–418)",
        .enabled(if: SameMachineGateTests.canCount, "needs valgrind and the release build"))
    func stateSubjectScopeRepeatsAcrossLayouts() throws {
        let run = try CountedRun(
            ["--suite", "latency", "--strategy", "state-subject", "--measure", "instructions", "--quick", "--layouts", "3", "--draws", "1", "--workload", "view-scope"])
        #expect(Set(run.rows.map(\.workload)) == ["view-scope"], "--workload view-scope runs view-scope alone")
        let workload = ViewScopeWorkload().name
        let row = try run.instructions(workload)
        #expect(row.objects == ViewScopeWorkload.storeSize)
        #expect(row.note.contains("record 1 of \(ViewScopeWorkload.storeSize)"), "\(row.note)")
        let samples = run.instructionSamples(workload)
        #expect(samples.count == 9, "3 pairs in each of 3 layouts")
        // A layout's value is the median of its pairs (the first pair after the warm-up is now and
        // then 402.9 or 404.7; the others 403.0).
        let layouts = Dictionary(grouping: samples, by: \.round).values.map { pairs in Statistics.percentile(pairs.map(\.value).sorted(), 0.5) }
        let low = try #require(layouts.min()), high = try #require(layouts.max())
        #expect(layouts.count == 3 && low > 100 && high - low <= 0.5, "\(samples.map(\.value))")
    }
}
