import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchKit

/// The derived suite under `--measure instructions`: every workload counted, on pairs of writes,
/// with a profile that sums to each count. Checked on a real run under Callgrind with the release
/// binary (counts are deterministic), never on what a count is.
@Suite("Derived instruction counts")
struct DerivedCountTests {
    @Test(
        "every derived workload is counted for observable in both its styles, filtered-sorted's writes and fan-out-1000 included, beside the concrete loops; each profile sums to its Ir/op",
        .enabled(if: SameMachineGateTests.canCount, "needs valgrind and the release build"))
    func everyWorkloadCounted() throws {
        // On 30 records, the fewest whose filtered list holds two tasks: what is checked is that
        // every row is counted, not what a filtered list of many costs (37 s here, 44 s on 100).
        let run = try CountedRun(["--suite", "derived", "--strategy", "observable", "--measure", "instructions", "--quick", "--layouts", "1", "--objects", "30"])
        #expect(!run.rows.contains { $0.isError }, "\(run.rows.filter(\.isError).map(\.note))")
        let styles = ObservableStrategy.derivationStyles
        var expected = Suite.derived.workloads.flatMap { workload in
            styles.enumerated().map { DerivedRows.name(workload.name, style: $0.element, usual: $0.offset == 0) }
        }
        expected += FilteredSortedWorkload.Write.allCases.map { DerivedRows.concreteName(FilteredSortedWorkload($0).name) }
        expected.append(DerivedRows.concreteName(DiamondWorkload().name))
        expected += FanOutWorkload.widths.map { DerivedRows.concreteName(FanOutWorkload(width: $0).name) }
        for workload in expected {
            let row = try run.instructions(workload)
            let value = try #require(row.value, "\(workload)")
            #expect(value > 0, "\(workload): \(value) Ir/op")
            #expect(row.note.contains("pairs of writes"), "\(workload): \(row.note)")
            let profile = try #require(run.profiles.row(RowKey(row)), "\(workload) has no profile")
            #expect(profile.error == nil)
            #expect(abs(profile.total - value) <= max(abs(value) * 0.01, 0.01), "\(workload): profile \(profile.total) against \(value) Ir/op")
        }
        let counted = Set(run.rows.filter { $0.metric == .instructions }.map(\.workload))
        #expect(counted == Set(expected), "rows counted but not expected: \(counted.subtracting(expected)); expected, not counted: \(Set(expected).subtracting(counted))")
    }

    @Test("a counted pair of writes is reported per write: the count and its empty loop halved, the profile's operations doubled")
    func pairsArePerWrite() {
        let dumps = ProfileDumps(operationShort: "a", operationLong: "b", emptyShort: "c", emptyLong: "d", operations: 3)
        let counted = Counted(
            instructionsPerOperation: [2_000, 2_002, 2_004], loopOverheadInstructions: 40, cachePerOperation: nil, settings: .quick(), profileDumps: dumps)
        guard case .instructions(let perWrite) = CostPerOperation.instructions(counted).perWrite(writesPerOperation: 2) else {
            Issue.record("not a count")
            return
        }
        #expect(perWrite.instructionsPerOperation == [1_000, 1_001, 1_002])
        #expect(perWrite.loopOverheadInstructions == 20)
        #expect(perWrite.profileDumps?.operations == 6)
        // Timed, a write is one operation: nothing changes.
        let context = WorkloadContext(runID: "r", suite: "derived", strategy: nil, sampler: SamplerSettings.standard, objects: 10)
        #expect(CountedWrites(context).writesPerOperation == 1)
        var counting = context
        counting.measure = .instructions
        #expect(CountedWrites(counting).writesPerOperation == 2)
        #expect(CountedWrites(counting).context.instructionSettings.pairInstructions == context.instructionSettings.pairInstructions / CountedWrites.pairInstructionsDivisor)
    }
}
