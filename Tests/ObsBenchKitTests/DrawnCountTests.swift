import Foundation
import Testing

@testable import ObsBenchKit

/// Synchronous strategies' latency rows counted on many records (`--draws`, ``MeasuredDraw``):
/// checked on counts under Callgrind with the release binary, never on time.
@Suite("Drawn instruction counts")
struct DrawnCountTests {
    /// The workloads the test reads: the three drawn ones and two that are not.
    static let checked = ["write-observed", "transaction-2-fields", "read-in-view", "write-unobserved", "view-scope"]

    /// `strategy`'s latency suite (the ``checked`` workloads) counted in layout 1 on `draws` records.
    static func counted(_ strategy: String, draws: Int) throws -> CountedRun {
        try CountedRun(
            ["--suite", "latency", "--strategy", strategy, "--measure", "instructions", "--quick", "--layouts", "1", "--draws", String(draws)]
                + checked.flatMap { ["--workload", $0] })
    }

    @Test(
        "counted on 8 records, a synchronous strategy's latency rows say they are the mean over records 1–8 and each one's profile sums to it; counted on 1, they are record 1's 3 repeats",
        .enabled(if: SameMachineGateTests.canCount, "needs valgrind and the release build"))
    func drawnRowsAreMeansOverRecordsWithTheirProfiles() throws {
        let one = try Self.counted("observable", draws: 1), eight = try Self.counted("observable", draws: 8)
        for workload in ["write-observed", "transaction-2-fields", "read-in-view"] {
            #expect(try one.instructions(workload).note.contains("3 repeats"))
            let row = try eight.instructions(workload)
            #expect(row.note.contains("mean over records 1–8"), "\(row.note)")
            let value = try #require(row.value)
            let profile = try #require(eight.profiles.rows.first { $0.key == RowKey(row) })
            #expect(abs(profile.total - value) <= max(1, abs(value) * 0.01), "\(workload): profile \(profile.total) against \(value)")
        }
        // Not drawn: write-unobserved writes records 1...N in turn already; view-scope's empty loop
        // must meet the heap its operation left.
        #expect(try eight.instructions("write-unobserved").note.contains("3 repeats"))
        #expect(try eight.instructions("view-scope").note.contains("3 repeats"))
    }
}
