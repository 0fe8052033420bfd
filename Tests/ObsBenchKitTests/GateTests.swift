import ArgumentParser
import Foundation
import ObsBenchKit
import ObservationStrategies
import Testing

@testable import ObsBenchCLI

/// The gate's decisions on inputs with known answers: what is a regression, an improvement or
/// noise, and which exit status each outcome gives.
@Suite("Regression gate")
struct GateTests {
    init() { BuiltInStrategiesKnown.declare() }

    static func row(_ strategy: String, _ metric: String, _ value: Double, workload: String = "w", unit: String = "u") -> ResultRow {
        ResultRow(
            runID: "r", suite: "s", workload: workload, strategy: strategy, executor: "main-actor", objects: 1, subscribers: 0, concurrency: 1,
            metric: Metric.named(metric, unit: unit), unit: unit, statistics: Statistics(exact: value))
    }

    /// A timing row and its samples, dealt to `rounds` worker rounds in turn.
    static func timing(_ strategy: String, _ samples: [Double], workload: String = "w", rounds: Int = 8) -> (ResultRow, [SampleRow]) {
        let row = ResultRow(
            runID: "r", suite: "s", workload: workload, strategy: strategy, executor: "main-actor", objects: 1, subscribers: 0, concurrency: 1,
            metric: .latency, unit: "ns/op", statistics: Statistics(samples), rounds: min(rounds, samples.count))
        let sampleRows = samples.enumerated().map { SampleRow(runID: "r", key: RowKey(row), index: $0, value: $1, round: 1 + $0 % rounds) }
        return (row, sampleRows)
    }

    static func run(_ rows: [ResultRow], _ samples: [SampleRow] = []) -> RunResults {
        RunResults(rows: rows, samples: samples, source: "test")
    }

    /// A run of instruction rows counted in one layout each: one sample a row, its value (without
    /// samples, an instruction row has no layouts to be judged by, and no verdict).
    static func counted(_ rows: [ResultRow]) -> RunResults {
        run(rows, rows.map { SampleRow(runID: "r", key: RowKey($0), index: 0, value: $0.value ?? 0, round: 1) })
    }

    static func verdicts(_ comparison: RunComparison) -> [String: Verdict] {
        Dictionary(uniqueKeysWithValues: comparison.comparisons.map { ($0.key, $0.verdict) })
    }

    @Test("canary: a timing doubled in 7 of 8 rounds among 320 steady ones is a regression, at the default threshold and at 0.5; the steady ones stay unchanged")
    func doubledAmongManyIsFlagged() throws {
        // Each round one sample; round r of a steady row lies within ±1.5% of 100.
        let steady = (0..<8).map { 100 + [0.0, 1, -1, 0.5, -0.5, 1.5, -1.5, 0.2][$0] }
        var baseRows: [ResultRow] = [], baseSamples: [SampleRow] = [], nowRows: [ResultRow] = [], nowSamples: [SampleRow] = []
        for index in 0..<320 {
            let (b, bRaw) = Self.timing("observable", steady, workload: "w\(index)")
            // The canary: every round doubled but one, which met the baseline's machine.
            let current = index == 7 ? steady.enumerated().map { $0.offset == 3 ? $0.element : 2 * $0.element } : steady.map { $0 * 1.004 }
            let (n, nRaw) = Self.timing("observable", current, workload: "w\(index)")
            baseRows.append(b); baseSamples += bRaw; nowRows.append(n); nowSamples += nRaw
        }
        for threshold in [0.05, 0.5] {
            let comparison = RunComparison(
                baseline: Self.run(baseRows, baseSamples), current: Self.run(nowRows, nowSamples), policy: GatePolicy(timingThreshold: threshold))
            let canary = try #require(comparison.comparisons.first { $0.rowKey.workload == "w7" })
            #expect(canary.verdict == .regression, "\(canary.reason)")
            #expect(canary.reason.contains("Yuen") && canary.reason.contains("over 320 timings"), "\(canary.reason)")
            #expect(comparison.exitStatus == .regression)
            // What each steady one could see: its threshold (these baselines are steady enough).
            let others = comparison.comparisons.filter { $0.rowKey.workload != "w7" }
            #expect(others.count == 319 && others.allSatisfy { $0.verdict == .unchanged && $0.sees == threshold }, "\(others.first.map(\.reason) ?? "")")
        }
        // Yuen's p for the canary alone, and Mann-Whitney's (7.8e-4: its one undoubled round lies
        // mid-baseline), which Holm's first level over more than 64 timings is below.
        let doubled = steady.enumerated().map { $0.offset == 3 ? $0.element : 2 * $0.element }
        #expect(YuenTest.twoSidedPValue(doubled.map { log($0) }, steady.map { log($0) }) < 1e-6)
        #expect(MannWhitneyU.twoSidedPValue(doubled, steady) > 0.05 / 65)
    }

    @Test("Yuen's test: Welch's t on 20%-trimmed means; identical samples give 1, and its p matches a reference value")
    func yuen() {
        #expect(YuenTest.twoSidedPValue([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == 1)
        // scipy.stats.ttest_ind(a, b, equal_var=False, trim=0.2): p = 8.2032e-05
        let a = [10.0, 11, 12, 13, 14, 15, 16, 40], b = [1.0, 2, 3, 4, 5, 6, 7, 8]
        #expect(abs(YuenTest.twoSidedPValue(a, b) - 8.2032e-05) < 1e-8, "\(YuenTest.twoSidedPValue(a, b))")
        // Student's t: two-sided p of t = 2.0 with 10 degrees of freedom is 0.073388.
        #expect(abs(StudentT.twoSidedPValue(t: 2, degreesOfFreedom: 10) - 0.073388) < 1e-5)
        #expect(abs(StudentT.criticalValue(level: 0.073388, degreesOfFreedom: 10) - 2) < 1e-4)
    }

    @Test("Mann-Whitney is exact for small samples: 3 above 3 is 1 of 20 splits, 4 above 4 is 1 of 70")
    func mannWhitneyExact() {
        #expect(abs(MannWhitneyU.pValue([4, 5, 6], exceeds: [1, 2, 3]) - 1.0 / 20) < 1e-12)
        #expect(abs(MannWhitneyU.smallestPValue(4, 4) - 1.0 / 70) < 1e-12)
        #expect(abs(MannWhitneyU.smallestPValue(8, 8) - 1.0 / 12_870) < 1e-15)
        // One pair out of order among 8 vs 8: U = 63 of 64, p = 2 / 12870.
        #expect(abs(MannWhitneyU.pValue([8.5, 10, 11, 12, 13, 14, 15, 16], exceeds: [1, 2, 3, 4, 5, 6, 7, 9]) - 2.0 / 12_870) < 1e-15)
        // Ties share ranks: identical samples are as likely one way as the other.
        #expect(MannWhitneyU.pValue([1, 1, 2], exceeds: [1, 1, 2]) > 0.5)
    }

    @Test("Mann-Whitney: separated samples are significant, identical ones are not")
    func mannWhitney() {
        let low = (0..<30).map { 100 + Double($0) }
        let high = low.map { $0 + 50 }
        #expect(MannWhitneyU.pValue(high, exceeds: low) < 1e-6)
        #expect(MannWhitneyU.pValue(low, exceeds: high) > 0.999)
        let same = MannWhitneyU.pValue(low, exceeds: low)
        #expect(same > 0.4 && same < 0.6)
        #expect(MannWhitneyU.pValue([], exceeds: low) == 1)
    }

    @Test("a synchronous strategy's count may not grow at all; an asynchronous one's within its tolerance")
    func counts() {
        let base = Self.run([
            Self.row("plain", "fresh_bytes_per_object", 57.2), Self.row("grdb-queue", "fresh_bytes_per_object", 28.0),
            Self.row("observable", "allocations_per_write", 12), Self.row("published", "reruns_per_write", 2),
        ])
        let current = Self.run([
            Self.row("plain", "fresh_bytes_per_object", 57.3), Self.row("grdb-queue", "fresh_bytes_per_object", 29.0),
            Self.row("observable", "allocations_per_write", 14), Self.row("published", "reruns_per_write", 1),
        ])
        let comparison = RunComparison(baseline: base, current: current)
        let verdicts = comparison.comparisons.reduce(into: [String: Verdict]()) { $0[$1.key.components(separatedBy: "/")[2]] = $1.verdict }
        #expect(verdicts["plain"] == .regression, "0.1 B more per object is a regression for an exact count")
        #expect(verdicts["grdb-queue"] == .unchanged, "3.6% is within the asynchronous tolerance")
        #expect(verdicts["observable"] == .regression)
        #expect(verdicts["published"] == .behaviourChanged, "views that re-run less: what the strategy does changed, not an improvement")
        #expect(comparison.exitStatus.rawValue == 2)
        let worse = RunComparison(baseline: base, current: Self.run([Self.row("grdb-queue", "fresh_bytes_per_object", 30.0)]))
        #expect(worse.comparisons.contains { $0.key.contains("grdb-queue") && $0.verdict == .regression }, "7% is beyond it")
    }

    @Test("a timing regresses only beyond the threshold and with a significant test on the samples")
    func timings() throws {
        let baseSamples = (0..<40).map { 100 + Double($0 % 10) }
        let (base, baseRaw) = Self.timing("observable", baseSamples)
        // +10%, every sample slower: a regression.
        let (slower, slowerRaw) = Self.timing("observable", baseSamples.map { $0 * 1.10 })
        #expect(RunComparison(baseline: Self.run([base], baseRaw), current: Self.run([slower], slowerRaw)).exitStatus.rawValue == 2)
        // +3%: within the 5% threshold, however significant.
        let (slight, slightRaw) = Self.timing("observable", baseSamples.map { $0 * 1.03 })
        #expect(RunComparison(baseline: Self.run([base], baseRaw), current: Self.run([slight], slightRaw)).exitStatus.rawValue == 0)
        // −10%: an improvement only.
        let (faster, fasterRaw) = Self.timing("observable", baseSamples.map { $0 * 0.90 })
        #expect(RunComparison(baseline: Self.run([base], baseRaw), current: Self.run([faster], fasterRaw)).exitStatus.rawValue == 4)
        // The median moves 20% but the distributions barely differ: not significant, no regression.
        let bimodal = Array(repeating: 80.0, count: 10) + Array(repeating: 120.0, count: 10)
        let shifted = Array(repeating: 80.0, count: 9) + Array(repeating: 120.0, count: 10) + [130]
        let (a, aRaw) = Self.timing("published", bimodal)
        let (b, bRaw) = Self.timing("published", shifted)
        let noisy = RunComparison(baseline: Self.run([a], aRaw), current: Self.run([b], bRaw))
        let item = try #require(noisy.comparisons.first)
        #expect(try #require(item.change) > 0.05)
        // The baseline's own rounds spread wider than the threshold: not "unchanged", not judged.
        #expect(item.verdict == .notJudged)
        #expect(item.reason.contains("not significant") && item.reason.hasPrefix("not judged: could see only"), "\(item.reason)")
        // A per-metric threshold overrides the default.
        let lenient = GatePolicy(timingThresholds: ["w/latency": 0.15])
        #expect(RunComparison(baseline: Self.run([base], baseRaw), current: Self.run([slower], slowerRaw), policy: lenient).exitStatus.rawValue == 0)
    }

    @Test("a timing from one worker process per side is not judged (its samples are not independent), and a change it cannot judge is no verdict")
    func oneRoundIsNotJudged() throws {
        let baseSamples = (0..<40).map { 100 + Double($0 % 10) }
        let (base, baseRaw) = Self.timing("observable", baseSamples, rounds: 1)
        let (slower, slowerRaw) = Self.timing("observable", baseSamples.map { $0 * 1.5 }, rounds: 1)
        let comparison = RunComparison(baseline: Self.run([base], baseRaw), current: Self.run([slower], slowerRaw))
        let item = try #require(comparison.comparisons.first)
        #expect(item.verdict == .notJudged && item.sees == nil)
        #expect(item.reason.contains("not judged: could see nothing with 1 worker round(s) on a side"))
        #expect(comparison.exitStatus == .baselineUnusable, "a +50% the rounds cannot judge: no verdict, never a pass")
        #expect(comparison.noVerdict?.reason == .changeNotJudgeable)
    }

    @Test("the significance level is shared by every timing judged (Holm), so many noisy metrics do not make a false regression")
    func bonferroni() throws {
        // Rounds of the current run mostly, not always, slower: +5.8%, exact p = 244/12870 ≈ 0.019.
        let baseSamples = [100.0, 101, 102, 103, 104, 105, 106, 107]
        let slowerSamples = [100.5, 102.5, 108, 109, 110, 111, 112, 113]
        let (base, baseRaw) = Self.timing("observable", baseSamples)
        let (slower, slowerRaw) = Self.timing("observable", slowerSamples)
        let single = RunComparison(baseline: Self.run([base], baseRaw), current: Self.run([slower], slowerRaw))
        #expect(single.exitStatus.rawValue == 2, "\(single.comparisons.map(\.reason))")
        var baseRows: [ResultRow] = [], baseAll: [SampleRow] = [], nowRows: [ResultRow] = [], nowAll: [SampleRow] = []
        for index in 0..<20 {
            let (b, bRaw) = Self.timing("observable", baseSamples, workload: "w\(index)")
            let (n, nRaw) = Self.timing("observable", index == 0 ? slowerSamples : baseSamples, workload: "w\(index)")
            baseRows.append(b); baseAll += bRaw; nowRows.append(n); nowAll += nRaw
        }
        let many = RunComparison(baseline: Self.run(baseRows, baseAll), current: Self.run(nowRows, nowAll))
        // One p ≈ 0.019 among 20 timings is noise at 0.05 / 20: no false regression. Its +5.8% is
        // beyond the threshold where the evidence cannot judge it, so the gate gives no verdict.
        #expect(!many.comparisons.contains { $0.verdict == .regression }, "one p ≈ 0.019 among 20 timings is noise at 0.05 / 20")
        #expect(many.exitStatus == .baselineUnusable && many.noVerdict?.reason == .changeNotJudgeable)
        #expect(many.comparisons.contains { $0.reason.contains("over 20 timings") })
    }

    @Test("normalised to plain, a uniformly slower machine is not a regression; plain's own row changing gives its rows no verdict")
    func normalisation() throws {
        let spread = (0..<16).map { Double($0 % 4) }
        // Three workloads, plain and observable in each; `factor(workload, strategy)` scales a side.
        func side(_ factor: (String, String) -> Double) -> RunResults {
            var rows: [ResultRow] = [], samples: [SampleRow] = []
            for workload in ["w0", "w1", "w2"] {
                for (strategy, floor) in [("plain", 10.0), ("observable", 100.0)] {
                    let (row, raw) = Self.timing(strategy, spread.map { factor(workload, strategy) * (floor + $0) }, workload: workload)
                    rows.append(row)
                    samples += raw
                }
            }
            return Self.run(rows, samples)
        }
        let base = side { _, _ in 1 }
        let slowMachine = side { _, _ in 2 }
        #expect(RunComparison(baseline: base, current: slowMachine).exitStatus.rawValue == 2)
        #expect(RunComparison(baseline: base, current: slowMachine, policy: GatePolicy(normalizeToPlain: true)).exitStatus.rawValue == 0)
        // plain's own w0 row doubled, nothing else: divided by it, observable's w0 would look twice
        // as fast. Its rows get no verdict, never an improvement.
        let plainChanged = side { workload, strategy in workload == "w0" && strategy == "plain" ? 2 : 1 }
        let comparison = RunComparison(baseline: base, current: plainChanged, policy: GatePolicy(normalizeToPlain: true))
        #expect(comparison.exitStatus == .baselineUnusable && comparison.noVerdict?.reason == .rowsWithoutEvidence)
        #expect(!comparison.comparisons.contains { $0.verdict == .improvement })
        let w0 = try #require(comparison.comparisons.first { $0.rowKey.workload == "w0" && $0.rowKey.strategy == "observable" })
        #expect(w0.verdict == .noVerdict && w0.reason.contains("plain changed, not the machine"), "\(w0.reason)")
        // With one plain row there is nothing to tell plain's change from the machine's by.
        let (plain, plainRaw) = Self.timing("plain", spread.map { 10 + $0 })
        let (plainSlow, plainSlowRaw) = Self.timing("plain", spread.map { 2 * (10 + $0) })
        let (observableSlow, observableSlowRaw) = Self.timing("observable", spread.map { 2 * (100 + $0) })
        let (observable, observableRaw) = Self.timing("observable", spread.map { 100 + $0 })
        let lone = RunComparison(
            baseline: Self.run([plain, observable], plainRaw + observableRaw), current: Self.run([plainSlow, observableSlow], plainSlowRaw + observableSlowRaw),
            policy: GatePolicy(normalizeToPlain: true))
        #expect(lone.exitStatus == .baselineUnusable && lone.comparisons.contains { $0.reason.contains("needs 3 or more") })
    }

    @Test("metrics only in one run are listed and a missing one fails the gate; informational ones never gate; an error row fails, named")
    func missingAddedInformational() throws {
        let base = Self.run([Self.row("plain", "reruns_per_write", 0), Self.row("plain", "loop_overhead", 1), Self.row("plain", "bytes_per_subscriber", 300)])
        var error = ResultRow.error(runID: "r", suite: "s", strategy: "plain", message: "view 3 showed priority=2 where the store holds priority=5")
        error.workload = "w"
        let current = Self.run([Self.row("plain", "loop_overhead", 5), Self.row("plain", "allocations_per_write", 0), error])
        let comparison = RunComparison(baseline: base, current: current)
        #expect(comparison.comparisons.map(\.verdict).sorted() == [.workerFailed, .missing, .missing, .added, .informational])
        let failed = try #require(comparison.comparisons.first { $0.verdict == .workerFailed })
        #expect(failed.reason.contains("view 3 showed priority=2"))
        // An error row alone, every gated row unchanged: the gate still fails.
        let same = [Self.row("plain", "bytes_per_subscriber", 300)]
        #expect(RunComparison(baseline: Self.run(same, []), current: Self.run(same + [error], [])).exitStatus == .regression)
        #expect(comparison.exitStatus.rawValue == 2, "a metric the baseline has and the run lost (a crash) must not pass")
        var valueless = Self.row("plain", "throughput", 0)
        valueless.statistics = nil
        let informationalWithoutValue = RunComparison(baseline: Self.run([Self.row("plain", "throughput", 5)]), current: Self.run([valueless]))
        #expect(informationalWithoutValue.exitStatus == .baselineUnusable, "an informational row without a value this time is not a lost metric; with nothing judged, no verdict")
        var countWithoutValue = Self.row("plain", "allocations_per_write", 0)
        countWithoutValue.statistics = nil
        #expect(
            RunComparison(baseline: Self.run([Self.row("plain", "allocations_per_write", 3)]), current: Self.run([countWithoutValue])).exitStatus.rawValue == 2,
            "a gated count that can no longer be measured fails")
        let onlyAdded = RunComparison(
            baseline: Self.run([Self.row("plain", "loop_overhead", 1)]), current: Self.run([Self.row("plain", "loop_overhead", 2), Self.row("plain", "reruns_per_write", 0)]))
        #expect(onlyAdded.exitStatus == .baselineUnusable, "an added row is not judged: nothing judged, no verdict")
    }

    @Test("gate: a missing baseline exits 5; a malformed one names its file and line; a run without samples.csv and run.json has no verdict; identical runs exit 0")
    func gateCommand() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-gate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let good = root.appendingPathComponent("good")
        try FileManager.default.createDirectory(at: good, withIntermediateDirectories: true)
        let rows = [Self.row("plain", "reruns_per_write", 0), Self.row("observable", "reruns_per_write", 1)]
        try Data((CSV.line(ResultRow.columns) + rows.map { CSV.line($0.fields) }.joined()).utf8).write(to: good.appendingPathComponent("results.csv"))
        let truncated = root.appendingPathComponent("truncated.csv")
        try Data((CSV.line(ResultRow.columns) + "r,s,w,plain,main-actor,1\n").utf8).write(to: truncated)

        let status = obsbenchExitStatus
        #expect(status(["gate", "--baseline", root.appendingPathComponent("absent").path, "--current", good.path]) == 5)
        #expect(status(["gate", "--baseline", truncated.path, "--current", good.path]) == 5)
        #expect(throws: ResultsReader.ReadError.self) { try RunResults.load(truncated.path) }
        do {
            _ = try RunResults.load(truncated.path)
        } catch let error as ResultsReader.ReadError {
            #expect(error.line == 2)
            #expect(error.file == truncated.path)
        }
        // results.csv alone: without samples.csv and run.json beside it there is no verdict,
        // never a judgement on wider tolerances; with them, identical runs pass.
        #expect(status(["compare", good.path, good.path]) == 5)
        try Data(CSV.line(SampleRow.columns).utf8).write(to: good.appendingPathComponent("samples.csv"))
        try JSONEncoder().encode(UnknownStrategyGateTests.metadata(nil)).write(to: good.appendingPathComponent("run.json"))
        // One folder on both sides is one run: refused. Another run with the same figures passes.
        #expect(status(["compare", good.path, good.path]) == 5)
        let again = root.appendingPathComponent("again")
        try FileManager.default.copyItem(at: good, to: again)
        var metadata = UnknownStrategyGateTests.metadata(nil)
        metadata.runID = "r2"
        try JSONEncoder().encode(metadata).write(to: again.appendingPathComponent("run.json"))
        #expect(status(["compare", good.path, again.path]) == 0)
        #expect(status(["compare", good.path, root.appendingPathComponent("absent").path]) == 1)
        #expect(status(["gate", "--baseline", good.path, "--current", good.path, "--metric-threshold", "oops"]) == 64)
    }
}

/// The gate on strategies this binary does not know: their capabilities come from `run.json`.
@Suite("Gate on strategies described only by run.json")
struct UnknownStrategyGateTests {
    init() { BuiltInStrategiesKnown.declare() }

    static func metadata(_ delivery: Delivery?) -> RunMetadata {
        RunMetadata(
            runID: "r", time: "t", gitRevision: "g", host: "h", cpuModel: "c", coreCount: 2, swiftVersion: "6.3", buildConfiguration: "release",
            allocator: "system", suites: ["s"], strategies: ["my-store"], quick: true, commandLine: [], status: .completed, finishedTime: nil,
            clockResolutionNanoseconds: 1, clockCallCostNanoseconds: 20,
            strategyDetails: delivery.map {
                [
                    StrategyDescriptor(
                        name: "my-store", summary: "a store of one's own", dependency: "none",
                        capabilities: Capabilities(granularity: .object, deduplicates: false, delivery: $0, transactional: false, coalesces: true))
                ]
            })
    }

    static func verdict(growingTo current: Double, described delivery: Delivery?) -> MetricComparison? {
        let baseline = RunResults(rows: [GateTests.row("my-store", "reruns_per_write", 100)], samples: [], source: "a", metadata: metadata(delivery))
        let now = RunResults(rows: [GateTests.row("my-store", "reruns_per_write", current)], samples: [], source: "b", metadata: metadata(delivery))
        return RunComparison(baseline: baseline, current: now).comparisons.first
    }

    @Test("an asynchronous store's behaviour count gets the asynchronous tolerance both ways; a synchronous one's is exact; an undeclared one has no verdict")
    func deliveryFromRunJSON() throws {
        #expect(try #require(Self.verdict(growingTo: 103, described: .asynchronous)).verdict == .unchanged)
        #expect(try #require(Self.verdict(growingTo: 103, described: .synchronous)).verdict == .behaviourChanged)
        #expect(try #require(Self.verdict(growingTo: 110, described: .asynchronous)).verdict == .behaviourChanged)
        #expect(try #require(Self.verdict(growingTo: 90, described: .asynchronous)).verdict == .behaviourChanged, "a fall fails as a rise does")
        // Not described by the baseline, nor known to this binary: its delivery is not known, so
        // there is no verdict, never a guess.
        #expect(try #require(Self.verdict(growingTo: 101, described: nil)).verdict == .noVerdict)
    }

    /// The judging flags of the README's two gate recipes: the committed-baseline one
    /// (`--async-counts report`, which leaves asynchronous counts unjudged) and the one it names
    /// for an asynchronous store of one's own. Read from README.md, so the test follows the text.
    static func readmeRecipe(containing flag: String) throws -> [String] {
        let readme = try String(contentsOf: ExportTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.contains("obsbench gate --baseline") && $0.contains(flag) })
        // The flags after --current's value, up to the end of the command (a backtick or a comment).
        let command = line.split(separator: "`").first { $0.contains(flag) }.map(String.init) ?? String(line)
        let words = command.split(separator: "#")[0].split(separator: " ").map(String.init)
        let current = try #require(words.firstIndex(of: "--current"))
        return Array(words[(current + 2)...])
    }

    @Test("an asynchronous store whose re-runs per transaction double: the README's recipe for such stores fails it; the committed-baseline recipe says it leaves them unjudged")
    func readmeRecipeCatchesDoubledReruns() throws {
        func judge(_ flags: [String]) throws -> MetricComparison {
            let policy = try GateOptions.parse(flags).policy()
            let base = RunResults(rows: [GateTests.row("my-store", "reruns_per_transaction", 1.0)], samples: [], source: "a", metadata: Self.metadata(.asynchronous))
            let now = RunResults(rows: [GateTests.row("my-store", "reruns_per_transaction", 2.0)], samples: [], source: "b", metadata: Self.metadata(.asynchronous))
            return try #require(RunComparison(baseline: base, current: now, policy: policy).comparisons.first)
        }
        let judging = try Self.readmeRecipe(containing: "--async-count-tolerance")
        #expect(judging.contains("--async-counts") && judging.contains("gate"))
        #expect(try judge(judging).verdict == .behaviourChanged, "\(judging)")
        // The committed-baseline recipe: the gate's defaults.
        let reporting = try Self.readmeRecipe(containing: "results/baseline --current results/latest")
        let reported = try judge(reporting)
        #expect(reported.verdict == .informational && reported.reason.contains("reported only"), "\(reporting): \(reported.reason)")
    }

    @Test("a hop's count (strategy -) moves with the pool's threads: a stray call in 400 round trips is no change, +17% is a regression")
    func hopCountTolerance() throws {
        func verdict(_ old: Double, _ new: Double) throws -> Verdict {
            let base = RunResults(rows: [GateTests.row(RowKey.noStrategy, "releases", old)], samples: [], source: "a")
            let now = RunResults(rows: [GateTests.row(RowKey.noStrategy, "releases", new)], samples: [], source: "b")
            return try #require(RunComparison(baseline: base, current: now).comparisons.first).verdict
        }
        #expect(try verdict(3, 2.9975) == .unchanged)
        #expect(try verdict(0, 0.0025) == .unchanged, "the floor: a stray call where the baseline counted none")
        #expect(try verdict(3, 3.5) == .regression)
        // A synchronous strategy's count stays exact.
        let base = RunResults(rows: [GateTests.row("observable", "releases", 6)], samples: [], source: "a")
        let now = RunResults(rows: [GateTests.row("observable", "releases", 6.0025)], samples: [], source: "b")
        #expect(RunComparison(baseline: base, current: now).comparisons.first?.verdict == .regression)
    }

    @Test("run.json keeps each strategy's capabilities through a write and a read")
    func roundTrip() throws {
        let metadata = Self.metadata(.asynchronous)
        let read = try JSONDecoder().decode(RunMetadata.self, from: JSONEncoder().encode(metadata))
        #expect(read == metadata)
        #expect(read.descriptor(of: "my-store")?.capabilities.delivery == .asynchronous)
        #expect(read.descriptor(of: "observable")?.name == "observable", "built-in strategies are known without details")
        #expect(read.descriptor(of: "nobody") == nil)
    }
}
