import Foundation
import Testing

@testable import ObsBenchKit

/// The hops suite's instruction counts: checked on counts under Callgrind with the release binary,
/// never on time.
@Suite("Hop instruction counts")
struct HopCountTests {
    @Test(
        "the task-executor hop is counted on an executor of one thread, and its pairs repeat within 2% (with two threads they ranged 4,500–5,400 Ir)",
        .enabled(if: SameMachineGateTests.canCount, "needs valgrind and the release build"))
    func taskExecutorHopRepeats() throws {
        let workload = "hop-\(RoundTripHopWorkload.Kind.taskExecutorToActor.rawValue)"
        let run = try CountedRun(["--suite", "hops", "--measure", "instructions", "--quick", "--layouts", "2", "--workload", workload])
        let row = try run.instructions(workload)
        #expect(row.note.contains(RoundTripHopWorkload.countedThreadsNote), "\(row.note)")
        let samples = run.instructionSamples(workload).map(\.value)
        #expect(samples.count == 6, "3 pairs in each of 2 layouts")
        let low = try #require(samples.min()), high = try #require(samples.max())
        #expect(low > 1_000 && high <= low * 1.02, "\(samples)")
    }

    @Test("timed, the task-executor hop keeps its executor's two threads")
    func timedHopKeepsTwoThreads() {
        #expect(RoundTripHopWorkload.taskExecutorThreads(.time) == 2)
        #expect(RoundTripHopWorkload.taskExecutorThreads(.instructions) == 1)
    }
}
