import Foundation
import Testing

@testable import ObsBenchKit

/// The gate that needs no committed baseline: a base binary and a head binary counted on this
/// machine, interleaved, and judged. Checked on counts under Callgrind, never on time.
@Suite("Same-machine gate")
struct SameMachineGateTests {
    init() { BuiltInStrategiesKnown.declare() }

    static var canCount: Bool { InstructionCountTests.canCount && InstructionCountTests.releaseObsbench != nil }

    /// Runs `obsbench gate ARGUMENTS` (the release binary) and returns its exit status and both streams.
    static func gate(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: InstructionCountTests.releaseObsbench!)
        process.arguments = ["gate"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-ab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a comparison that judged no row has no verdict: exit 5, never \"no regression\"")
    func nothingJudgedIsNoVerdict() {
        let informational = GateTests.row("plain", Metric.loopOverhead.name, 1.6, unit: "ns/op")
        let comparison = RunComparison(baseline: GateTests.run([informational]), current: GateTests.run([informational]))
        #expect(comparison.judgedCount == 0)
        #expect(comparison.exitStatus == .baselineUnusable)
        let report = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b")
        #expect(report.headline.hasPrefix("NO VERDICT"))
        #expect(!report.text().contains("no regression"))
        #expect(report.judged.contains("judged: 0 of 1 rows"))
        // One row judged: a verdict, and the summary names the mode.
        let count = GateTests.row("plain", Metric.rerunsPerWrite.name, 1)
        let judged = ComparisonReport(
            comparison: RunComparison(baseline: GateTests.run([count]), current: GateTests.run([count])), baselineSource: "a", currentSource: "b",
            mode: .sameMachine)
        #expect(judged.headline.hasPrefix("no regression"))
        #expect(
            judged.judged.contains("mode: same-machine A/B") && judged.judged.contains("judged: 1 of 1 rows") && judged.judged.contains("behaviour counts may not move either way"))
    }

    @Test(
        "a gate that cannot count a side exits 5 and says why",
        .enabled(if: InstructionCountTests.releaseObsbench != nil, "needs the release build: swift build -c release"))
    func cannotJudgeExitsFive() throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let (status, output) = try Self.gate(["--base-binary", "/nonexistent/obsbench", "--suite", "latency", "--strategy", "plain", "--quick", "--work-dir", work.path])
        #expect(status == ExitStatus.baselineUnusable.rawValue)
        #expect(output.contains("cannot judge") && output.contains("/nonexistent/obsbench"))
        let (passed, warned) = try Self.gate([
            "--base-binary", "/nonexistent/obsbench", "--suite", "latency", "--strategy", "plain", "--quick", "--work-dir", work.path, "--no-verdict-ok",
        ])
        #expect(passed == 0)
        #expect(warned.contains("no verdict"))
    }

    @Test(
        "one binary against itself (A/A): rows judged, no verdict either way",
        .enabled(if: canCount, "needs Valgrind and the release build"))
    func sameBinaryAgrees() throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let binary = InstructionCountTests.releaseObsbench!
        // Two drawn rows (write-observed, transaction-2-fields) with two rows counted in full, in 2
        // layouts a side: a drawn row's passes used to count libdispatch's other threads too, whose
        // ticks follow the wall clock, and this A/A flagged one of them in two runs of five (at 2
        // layouts, write-observed once moved +0.7% between the sides; it then ran 5 layouts). A
        // synchronous strategy's workers now count their main thread alone, and the two sides of
        // plain's rows agree to the last digit in every layout (three runs at 2 layouts, one at 5:
        // docs/gate.md, "Threads that follow the clock").
        let (status, output) = try Self.gate([
            "--base-binary", binary, "--current-binary", binary, "--suite", "latency", "--strategy", "plain", "--quick", "--layouts", "2",
            "--work-dir", work.path,
            "--workload", "read-untracked", "--workload", "write-unobserved", "--workload", "write-observed", "--workload", "transaction-2-fields",
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("mode: same-machine A/B"))
        #expect(output.contains("no regression"))
        #expect(!output.contains("judged: 0 "))
    }

    @Test(
        "a head that does extra work in one function (the canary, +10% of observable's write): a regression, with that function named",
        .enabled(if: canCount, "needs Valgrind and the release build"))
    func injectedCallIsARegressionNamingIt() throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: work) }
        let binary = InstructionCountTests.releaseObsbench!
        // The head: the same binary with the canary on, as its own executable.
        let head = work.appendingPathComponent("head-obsbench")
        try Data("#!/bin/sh\n\(Canary.variable)=observable:10 exec '\(binary)' \"$@\"\n".utf8).write(to: head)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: head.path)
        // Two layouts a side, not the default 5 (each layout is a Callgrind worker per side): the
        // canary's +10% is 20 times the tolerance. At 2 layouts a row that moves with the heap may be
        // flagged beside it (see the A/A test), so the canary's row is looked for among the regressions.
        let (status, output) = try Self.gate([
            "--base-binary", binary, "--current-binary", head.path, "--suite", "latency", "--strategy", "observable", "--quick", "--layouts", "2",
            "--work-dir", work.appendingPathComponent("runs").path, "--workload", "write-unobserved", "--workload", "write-observed",
        ])
        #expect(status == ExitStatus.regression.rawValue, "\(output)")
        #expect(!output.contains("read-in-view"), "--workload reaches both sides: no other workload is counted")
        let regressions = output.split(separator: "\n").filter { $0.hasPrefix("regression") }
        #expect(regressions.contains { $0.contains("write-unobserved/observable/instructions ") }, "\(output)")
        // Under the regression, the function that grew first.
        let movers = try #require(output.range(of: "which functions moved in latency/write-unobserved/observable"), "\(output)")
        let firstMover = output[movers.upperBound...].split(separator: "\n").dropFirst(2).first ?? ""  // after the header
        #expect(firstMover.contains("Canary.spin"), "\(output)")
    }
}
