import Foundation
import Testing

@testable import ObsBenchKit

/// The gate on instruction counts (a tight tolerance, no significance test), and its refusal to
/// compare runs made differently: another measure, Valgrind, threads counted, allocator, `--quick` or
/// round count.
@Suite("Regression gate: instructions and comparability")
struct GateInstructionTests {
    init() { BuiltInStrategiesKnown.declare() }

    static func metadata(
        measures: [CostMeasure] = [.time], valgrind: String = "valgrind-3.19.0", allocator: String = "jemalloc", quick: Bool = false,
        suites: [String] = ["latency"], rounds: [String: Int] = ["latency": 8], options: [String] = ["--tool=callgrind", "--cache-sim=no"],
        countedThreads: String? = CountedThreads.rule
    ) -> RunMetadata {
        RunMetadata(
            runID: "r", time: "t", gitRevision: "g", host: "h", cpuModel: "c", coreCount: 2, swiftVersion: "6.3", buildConfiguration: "release",
            allocator: allocator, suites: suites, strategies: ["plain"], quick: quick, commandLine: [], status: .completed, finishedTime: nil,
            clockResolutionNanoseconds: 1, clockCallCostNanoseconds: 20, measures: measures,
            instructionCounting: measures.contains(.instructions)
                ? InstructionFacts(
                    valgrindVersion: valgrind, tool: "callgrind", options: options, environment: ["SWIFT_DETERMINISTIC_HASHING=1"],
                    addressRandomization: "off", settings: .quick(), countedThreads: countedThreads)
                : nil,
            toolchain: "Swift version 6.3.1", rounds: rounds)
    }

    static func run(_ rows: [ResultRow], _ metadata: RunMetadata?) -> RunResults {
        RunResults(rows: rows, samples: [], source: "test", metadata: metadata)
    }

    @Test(
        "an instruction count is judged by a tight tolerance: +1% of a synchronous write is a regression, +0.3% is not; asynchronous rows and hops get theirs, and tiny rows a 1 Ir/op floor"
    )
    func tolerances() {
        let base = GateTests.counted([
            GateTests.row("plain", "instructions", 10_000, unit: "Ir/op"),
            GateTests.row("observable", "instructions", 10_000, workload: "x", unit: "Ir/op"),
            GateTests.row("grdb-queue", "instructions", 10_000, unit: "Ir/op"),
            GateTests.row("-", "instructions", 10_000, unit: "Ir/op"),
        ])
        let current = GateTests.counted([
            GateTests.row("plain", "instructions", 10_100, unit: "Ir/op"),
            GateTests.row("observable", "instructions", 10_030, workload: "x", unit: "Ir/op"),
            GateTests.row("grdb-queue", "instructions", 10_200, unit: "Ir/op"),
            GateTests.row("-", "instructions", 11_500, unit: "Ir/op"),
        ])
        // A row of a few Ir/op: stray instructions of another thread move it by less than the 1 Ir/op floor.
        let small = RunComparison(
            baseline: GateTests.counted([GateTests.row("state-subject", "instructions", 19.6, unit: "Ir/op")]),
            current: GateTests.counted([GateTests.row("state-subject", "instructions", 20.1, unit: "Ir/op")]))
        #expect(small.exitStatus == .success)
        // Runs of one binary in one layout each: the tight tolerance, when asked for.
        let oneBinary = GatePolicy(instructionTolerance: 0.005, singleLayoutInstructionTolerance: 0.005)
        let verdicts = GateTests.verdicts(RunComparison(baseline: base, current: current, policy: oneBinary))
        #expect(verdicts["s/w/plain/instructions objects=1 S=0 c=1"] == .regression)
        #expect(verdicts["s/x/observable/instructions objects=1 S=0 c=1"] == .unchanged)
        #expect(verdicts["s/w/grdb-queue/instructions objects=1 S=0 c=1"] == .unchanged, "asynchronous: +2% is within its tolerance")
        #expect(verdicts["s/w/-/instructions objects=1 S=0 c=1"] == .regression, "a hop's +15% is beyond its 12% tolerance")
        let fewer = GateTests.counted([GateTests.row("plain", "instructions", 9_800, unit: "Ir/op")])
        #expect(
            RunComparison(
                baseline: GateTests.counted([GateTests.row("plain", "instructions", 10_000, unit: "Ir/op")]), current: fewer,
                policy: oneBinary
            ).exitStatus == .onlyImprovements)
        // One layout a side, by default: room for another build's layout, +1% passes, +6% does not.
        let one = GateTests.counted([GateTests.row("plain", "instructions", 10_100, unit: "Ir/op")])
        let six = GateTests.counted([GateTests.row("plain", "instructions", 10_600, unit: "Ir/op")])
        let base10k = GateTests.counted([GateTests.row("plain", "instructions", 10_000, unit: "Ir/op")])
        #expect(RunComparison(baseline: base10k, current: one).exitStatus == .success)
        #expect(RunComparison(baseline: base10k, current: six).exitStatus == .regression)
    }

    @Test("an equal count read back with a different last bit is no change, never a +0.0% regression")
    func noZeroPercentRegression() {
        let comparison = RunComparison(
            baseline: GateTests.run([GateTests.row("plain", "fresh_bytes_per_object", 128)]),
            current: GateTests.run([GateTests.row("plain", "fresh_bytes_per_object", 128.000_000_000_01)]))
        #expect(comparison.exitStatus == .success)
    }

    @Test(
        "runs made differently are refused with both sides named",
        arguments: [
            (
                "allocator", metadata(allocator: "memory suite: jemalloc", suites: ["memory"]), metadata(allocator: "memory suite: glibc malloc counters", suites: ["memory"]),
                "fresh_bytes_per_object"
            ),
            ("--quick", metadata(quick: true), metadata(quick: false), "fresh_bytes_per_object"),
            ("Valgrind", metadata(measures: [.instructions], valgrind: "valgrind-3.19.0"), metadata(measures: [.instructions], valgrind: "valgrind-3.22.0"), "instructions"),
            (
                "Callgrind options", metadata(measures: [.instructions]),
                metadata(measures: [.instructions], options: ["--tool=callgrind", "--cache-sim=no", "--collect-systime=yes"]), "instructions"
            ),
            (
                // A run made before synchronous strategies' workers counted their main thread alone.
                "threads counted", metadata(measures: [.instructions], countedThreads: nil), metadata(measures: [.instructions]), "instructions"
            ),
            ("measure", metadata(measures: [.instructions]), metadata(measures: [.time]), "instructions"),
            ("worker rounds", metadata(rounds: ["latency": 8]), metadata(rounds: ["latency": 4]), "latency"),
        ])
    func refusals(what: String, old: RunMetadata, new: RunMetadata, metric: String) {
        let rows = [GateTests.row("plain", metric, 100)]
        let problems = RunCompatibility.problems(baseline: Self.run(rows, old), current: Self.run(rows, new), policy: GatePolicy())
        #expect(problems.count == 1 && problems[0].hasPrefix(what), "\(problems)")
        // Both values are named, so the user sees what to make alike.
        #expect(problems.first.map { $0.contains("the baseline's is") && $0.contains("the run's is") } == true)
    }

    @Test("what does not decide the compared numbers is not a refusal")
    func accepted() {
        // Different allocators, but no allocator count is compared.
        let timings = [GateTests.row("plain", "instructions", 100)]
        #expect(
            RunCompatibility.problems(
                baseline: Self.run(timings, Self.metadata(measures: [.instructions], allocator: "a", suites: ["latency", "memory"])),
                current: Self.run(timings, Self.metadata(measures: [.instructions], allocator: "b", suites: ["latency", "memory"])), policy: GatePolicy()
            ).isEmpty)
        // Rounds differ, but timings are not judged.
        let latency = [GateTests.row("plain", "latency", 100)]
        #expect(
            RunCompatibility.problems(
                baseline: Self.run(latency, Self.metadata(rounds: ["latency": 8])),
                current: Self.run(latency, Self.metadata(rounds: ["latency": 4])), policy: GatePolicy(gatesTimings: false)
            ).isEmpty)
        // Cache simulation on one side only: it adds estimates, Ir is the same.
        #expect(
            RunCompatibility.problems(
                baseline: Self.run(timings, Self.metadata(measures: [.instructions])),
                current: Self.run(timings, Self.metadata(measures: [.instructions], options: ["--tool=callgrind", "--cache-sim=yes"] + CallgrindInvocation.cacheOptions)),
                policy: GatePolicy()
            ).isEmpty)
        // No run.json on one side: nothing to tell.
        #expect(RunCompatibility.problems(baseline: Self.run(latency, nil), current: Self.run(latency, Self.metadata()), policy: GatePolicy()).isEmpty)
    }
}

/// The gate's statistics on timings, and the labels the summary puts on allocator counts.
@Suite("Regression gate: rounds and labels")
struct GateRoundsTests {
    init() { BuiltInStrategiesKnown.declare() }

    @Test("with many timings and 4 rounds a side, every timing doubled is a regression: the test weighs how far rounds move, not only their order")
    func fourRoundsSuffice() {
        var baseRows: [ResultRow] = [], baseSamples: [SampleRow] = [], nowRows: [ResultRow] = [], nowSamples: [SampleRow] = []
        for index in 0..<45 {
            let (old, oldSamples) = GateTests.timing("plain", (0..<40).map { 100 + Double($0 % 4) }, workload: "w\(index)", rounds: 4)
            let (new, newSamples) = GateTests.timing("plain", (0..<40).map { 200 + Double($0 % 4) }, workload: "w\(index)", rounds: 4)
            baseRows.append(old); baseSamples += oldSamples; nowRows.append(new); nowSamples += newSamples
        }
        let comparison = RunComparison(baseline: GateTests.run(baseRows, baseSamples), current: GateTests.run(nowRows, nowSamples))
        // Every timing doubled. 4 against 4 rounds cannot give a rank test's p below 0.05 / 45
        // (its smallest is 2 / 70); Yuen's test on how far the rounds moved flags every one.
        #expect(abs(MannWhitneyU.smallestTwoSidedPValue(4, 4) - 2.0 / 70) < 1e-12)
        #expect(comparison.comparisons.allSatisfy { $0.verdict == .regression }, "\(comparison.comparisons.first?.reason ?? "")")
        #expect(comparison.exitStatus == .regression && comparison.notes.isEmpty)
    }

    @Test("the two-sided test gives the same p whichever way the change went")
    func twoSided() {
        let low: [Double] = [1, 2, 3, 4], high: [Double] = [5, 6, 7, 8]
        #expect(MannWhitneyU.twoSidedPValue(high, low) == MannWhitneyU.twoSidedPValue(low, high))
        #expect(abs(MannWhitneyU.twoSidedPValue(high, low) - 2.0 / 70) < 1e-12)
    }

    @Test("the memory table names the allocator its rows used: jemalloc's exact counters, or glibc's mallinfo2")
    func memoryUnit() {
        #expect(
            SummaryTable.memoryUnit(notes: ["jemalloc 5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c, stats.allocated (size classes, all threads, thread cache off)"]).contains(
                "from jemalloc's own counters, exact counts of each strategy's one worker process"))
        let glibc = SummaryTable.memoryUnit(notes: ["glibc malloc (mallinfo2): chunk bytes incl. headers, thread cache off; jemalloc not found"])
        #expect(glibc.contains("glibc's mallinfo2") && !glibc.contains("exact"))
    }
}

/// The gate on instruction counts made in several memory layouts: the mean of the layouts is
/// judged against a 0.5% tolerance, or against the layouts' own spread where they disagree.
@Suite("Regression gate: layouts")
struct GateLayoutTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// An instruction row counted in one layout per value, and its samples (one per layout, as
    /// the median repeat of each layout's worker).
    static func counted(_ strategy: String, _ layouts: [Double], workload: String = "w") -> (ResultRow, [SampleRow]) {
        let row = ResultRow(
            runID: "r", suite: "s", workload: workload, strategy: strategy, executor: "main-actor", objects: 1, subscribers: 0, concurrency: 1,
            metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics(layouts), rounds: layouts.count)
        let samples = layouts.enumerated().map { SampleRow(runID: "r", key: RowKey(row), index: 0, value: $1, round: $0 + 1) }
        return (row, samples)
    }

    static func run(_ rows: [(ResultRow, [SampleRow])]) -> RunResults {
        GateTests.run(rows.map(\.0), rows.flatMap(\.1))
    }

    /// `observable` transaction-2-fields as six layouts of one build counted it (Ir/op).
    static let sensitive: [Double] = [21_807, 21_807, 22_555, 22_345, 22_413, 22_345]

    @Test("layouts that agree: the mean is judged to 0.5%, so +1% is a regression and +0.3% is not")
    func agreeingLayouts() throws {
        let base = Self.run([Self.counted("observable", [654, 654, 654]), Self.counted("plain", [100, 100, 100], workload: "v")])
        let current = Self.run([Self.counted("observable", [660.6, 660.6, 660.6]), Self.counted("plain", [100.3, 100.3, 100.3], workload: "v")])
        let comparison = RunComparison(baseline: base, current: current)
        let verdicts = GateTests.verdicts(comparison)
        #expect(verdicts["s/w/observable/instructions objects=1 S=0 c=1"] == .regression)
        #expect(verdicts["s/v/plain/instructions objects=1 S=0 c=1"] == .unchanged)
        #expect(comparison.layoutsPerRow?.baseline == 3 && comparison.layoutsPerRow?.current == 3)
        let report = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b", mode: .sameMachine)
        #expect(report.judged.contains("layouts per row: 3"))
        let reason = try #require(comparison.comparisons.first { $0.verdict == .regression }?.reason)
        #expect(reason.contains("±0.5%") && reason.contains("3 layout(s) a side"), "\(reason)")
    }

    /// `write-unobserved` (a calling-thread row) of `grdb-queue`, a strategy declared asynchronous.
    static func asynchronousStoreWrite(_ layouts: [Double]) -> (ResultRow, [SampleRow]) {
        let row = ResultRow(
            runID: "r", suite: "latency", workload: "write-unobserved", strategy: "grdb-queue", executor: "main-actor", objects: 1_000, subscribers: 0,
            concurrency: 1, metric: .instructions, unit: Metric.instructions.unit, statistics: Statistics(layouts), rounds: layouts.count)
        return (row, layouts.enumerated().map { SampleRow(runID: "r", key: RowKey(row), index: 0, value: $1, round: $0 + 1) })
    }

    @Test(
        "a calling-thread row of an asynchronous store: exact where the baseline's layouts agree (+1% fails), judged on their spread where they disagree (A/A redraws pass, +100% fails), under --async-counts report too"
    )
    func callingThreadOfAsynchronousStore() throws {
        let report = GatePolicy(gatesAsynchronousCounts: false)
        let steady = Self.run([Self.asynchronousStoreWrite([10_000, 10_000, 10_000])])
        let plusOne = RunComparison(baseline: steady, current: Self.run([Self.asynchronousStoreWrite([10_100, 10_100, 10_100])]), policy: report)
        #expect(plusOne.exitStatus == .regression, "layouts that agree: the calling thread's alone, to 0.5%")
        // Examples/CustomStore's actor-streams write-unobserved, per layout, in three runs of one
        // binary (Ir/op): a write copies the array when the store's actor still holds the last state.
        let base = Self.run([Self.asynchronousStoreWrite([78_732, 67_984, 79_621, 81_349, 78_854])])
        let redraws: [[Double]] = [[89_100, 76_733, 83_445, 88_524, 81_371], [81_418, 35_055, 76_228, 42_163, 89_346]]
        for redraw in redraws {
            let again = RunComparison(baseline: base, current: Self.run([Self.asynchronousStoreWrite(redraw)]), policy: report)
            #expect(again.exitStatus == .success, "\(again.comparisons.map(\.reason))")
            let reason = try #require(again.comparisons.first?.reason)
            let range = NumberFormat.irPerOperation(67_984) + "–" + NumberFormat.irPerOperation(81_349)
            #expect(reason.contains("moving with the store's own threads") && reason.contains(range), "\(reason)")
        }
        let doubled = RunComparison(baseline: base, current: Self.run([Self.asynchronousStoreWrite([157_464, 135_968, 159_242, 162_698, 157_708])]), policy: report)
        #expect(doubled.exitStatus == .regression, "judged, not reported, under --async-counts report")
    }

    @Test("a row whose layouts disagree is judged against their spread: another draw of the same levels passes, +10% does not")
    func disagreeingLayouts() throws {
        let base = Self.run([Self.counted("observable", Self.sensitive)])
        let redrawn = Self.run([Self.counted("observable", [22_345, 22_413, 21_807, 22_555, 22_555, 21_807])])
        let same = RunComparison(baseline: base, current: redrawn)
        #expect(same.exitStatus == .success)
        let reason = try #require(same.comparisons.first?.reason)
        #expect(reason.contains("the baseline's layouts spread"), "\(reason)")
        let slower = Self.run([Self.counted("observable", Self.sensitive.map { $0 * 1.1 })])
        #expect(RunComparison(baseline: base, current: slower).exitStatus == .regression)
        // The allowance: 4 standard errors of the difference of means, from the baseline's spread.
        #expect(GatePolicy.layoutAllowance(baseline: [100, 100, 100], currentLayouts: 3) == 0)
        #expect(abs(GatePolicy.layoutAllowance(baseline: [100, 104, 100], currentLayouts: 3) - 7.54) < 0.01)
        #expect(GatePolicy.layoutAllowance(baseline: [100], currentLayouts: 2) == 0, "one layout has no spread")
    }

    @Test("a hop's layouts are found by its callers (its samples' subscribers column): judged on their spread and the 3% tolerance, not as one layout")
    func hopLayouts() throws {
        let base = Self.run([Self.counted(RowKey.noStrategy, [4_952, 5_255, 5_188, 4_869, 5_015])])
        let current = Self.run([Self.counted(RowKey.noStrategy, [5_229, 5_100, 5_300, 4_990, 5_140])])
        let comparison = RunComparison(baseline: base, current: current)
        #expect(comparison.exitStatus == .success)
        let reason = try #require(comparison.comparisons.first?.reason)
        #expect(reason.contains("5 layout(s) a side") && !reason.contains("no layout spread"), "\(reason)")
        let slower = Self.run([Self.counted(RowKey.noStrategy, [5_700, 6_000, 5_950, 5_600, 5_750])])
        #expect(RunComparison(baseline: base, current: slower).exitStatus == .regression, "+15% is beyond what the layouts' spread allows (about 7%)")
    }

    @Test("a baseline counted in one layout: judged with room for another build's layout (5%), and the reason says so")
    func oneLayoutSide() throws {
        let base = GateTests.counted([GateTests.row("observable", Metric.instructions.name, 654, unit: Metric.instructions.unit)])
        let current = Self.run([Self.counted("observable", [680, 680, 680])])
        let comparison = RunComparison(baseline: base, current: current)
        #expect(comparison.exitStatus == .success, "+4% is within 5% when a side has one layout")
        let reason = try #require(comparison.comparisons.first?.reason)
        #expect(reason.contains("no layout spread"), "\(reason)")
        #expect(ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b").judged.contains("layouts per row: 1 baseline, 3 current"))
    }
}
