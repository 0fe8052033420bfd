import Foundation
import Testing

@testable import ObsBenchKit

/// Runs that change what they say about themselves, on copies of the committed baselines: how a
/// row is judged comes from its workload, the baseline and the tool, so each such case ends with
/// a failure (2) or no verdict (5), never 0 or 4; an untouched copy still passes.
@Suite("Regression gate: verdicts the run under test cannot shape")
struct GateTrustTests {
    init() { BuiltInStrategiesKnown.declare() }

    static let instructions = GateAdversarialTests.baseline
    static let timings = ExportTests.root.appendingPathComponent(SampleKeyTests.timingBaselineBeforeFullKey)
    /// The CI recipe's flags for the timing baseline (exact counts judged, timings and other
    /// threads' counts reported).
    static let countsRecipe = ["--counts-only", "--async-counts", "report"]

    static func gate(_ base: URL, _ current: URL, _ options: [String] = []) -> Int32 {
        obsbenchExitStatus(["gate", "--baseline", base.path, "--current", current.path] + options)
    }

    static func judge(_ base: URL, _ current: URL, policy: GatePolicy = GatePolicy()) throws -> RunComparison {
        RunComparison(baseline: try RunResults.load(base.path), current: try RunResults.load(current.path), policy: policy)
    }

    static func item(_ comparison: RunComparison, _ key: String) throws -> MetricComparison {
        try #require(comparison.comparisons.first { $0.key == key }, "no row \(key)")
    }

    /// A copy of a run, removed when `body` ends.
    static func withCopy<T>(_ run: URL, keepingRunID: Bool = false, _ body: (URL) throws -> T) throws -> T {
        let copy = try TamperedRun.copy(run, keepingRunID: keepingRunID)
        defer { TamperedRun.remove(copy) }
        return try body(copy)
    }

    /// Keeps only the rows of `suites` in a run's results.csv (samples.csv keeps them all: a
    /// sample no row claims is not read).
    static func keepSuites(_ run: URL, _ suites: Set<String>) throws {
        let file = run.appendingPathComponent(ResultsDirectory.FileName.results)
        let parsed = try CSV.parse(String(decoding: try Data(contentsOf: file), as: UTF8.self))
        guard let header = parsed.first?.fields, let column = header.firstIndex(of: "suite") else { return }
        let kept = parsed.dropFirst().filter { suites.contains($0.fields[column]) }
        try Data(([CSV.line(header)] + kept.map { CSV.line($0.fields) }).joined().utf8).write(to: file)
    }

    @Test("untouched copies pass: the instruction baseline by default, the timing baseline under the CI recipe")
    func untouchedCopiesPass() throws {
        try Self.withCopy(Self.instructions) { copy in
            #expect(Self.gate(Self.instructions, copy) == 0)
        }
        try Self.withCopy(Self.timings) { copy in
            #expect(Self.gate(Self.timings, copy, Self.countsRecipe) == 0)
        }
    }

    @Test("a current run that declares a synchronous strategy asynchronous gets no verdict for its rows, not the asynchronous tolerance")
    func redeclaredStrategyHasNoVerdict() throws {
        try Self.withCopy(Self.instructions) { copy in
            try TamperedRun.declare(copy, strategy: "observable", "delivery", "asynchronous")
            try TamperedRun.scale(copy, GateAdversarialTests.row, factors: [1.02, 1.02, 1.02, 1.02, 1.02])
            let comparison = try Self.judge(Self.instructions, copy)
            let judged = try Self.item(comparison, GateAdversarialTests.rowKey)
            #expect(judged.verdict == .noVerdict, "\(judged.reason)")
            #expect(judged.reason.contains("the runs declare observable differently"), "\(judged.reason)")
            #expect(comparison.noVerdict?.reason == .rowsWithoutEvidence)
            #expect(comparison.exitStatus == .baselineUnusable)
            #expect(Self.gate(Self.instructions, copy) == ExitStatus.baselineUnusable.rawValue)
        }
    }

    @Test("a row with no asynchronous part is judged exactly whatever the strategy declares; a row that delivers gets the asynchronous tolerance")
    func rowClassComesFromTheWorkload() throws {
        let base = try TamperedRun.copy(Self.instructions)
        let current = try TamperedRun.copy(Self.instructions)
        defer {
            TamperedRun.remove(base)
            TamperedRun.remove(current)
        }
        // Both runs declare observable asynchronous: the declaration is the baseline's, and agreed.
        for run in [base, current] { try TamperedRun.declare(run, strategy: "observable", "delivery", "asynchronous") }
        try TamperedRun.scale(current, GateAdversarialTests.row, factors: [1.02, 1.02, 1.02, 1.02, 1.02])
        try TamperedRun.scale(current, (workload: "write-observed", strategy: "observable"), factors: [1.02, 1.02, 1.02, 1.02, 1.02])
        let comparison = try Self.judge(base, current)
        let unobserved = try Self.item(comparison, GateAdversarialTests.rowKey)
        #expect(unobserved.verdict == .regression, "write-unobserved delivers nothing: 0.5% holds. \(unobserved.reason)")
        #expect(unobserved.reason.contains("synchronous: no other thread"), "\(unobserved.reason)")
        let observed = try Self.item(comparison, "latency/write-observed/observable/instructions objects=1000 S=1 c=1")
        #expect(observed.verdict == .unchanged, "write-observed delivers: the asynchronous 3%. \(observed.reason)")
        #expect(observed.reason.contains("asynchronous delivery"), "\(observed.reason)")
        #expect(WriteUnobservedWorkload().measuredThreads == .callingThread && WriteObservedWorkload().measuredThreads == .strategyDelivery)
        #expect(SuiteRegistry.workload(suite: "latency", rowWorkload: "write-unobserved-concrete")?.measuredThreads == .callingThread)
        #expect(SuiteRegistry.workload(suite: "hops", rowWorkload: "hop-mutex")?.measuredThreads == .poolThreads)
    }

    @Test("a samples.csv of its header alone, or one without a row's samples: no verdict, never the single-layout tolerance")
    func missingSamplesHaveNoVerdict() throws {
        try Self.withCopy(Self.instructions) { copy in
            try TamperedRun.scale(copy, GateAdversarialTests.row, factors: [1.04, 1.04, 1.04, 1.04, 1.04])
            let samples = copy.appendingPathComponent(ResultsDirectory.FileName.samples)
            let header = try String(contentsOf: samples, encoding: .utf8).split(separator: "\n")[0]
            try Data((header + "\n").utf8).write(to: samples)
            let comparison = try Self.judge(Self.instructions, copy)
            #expect(comparison.noVerdict?.reason == .fileMissing, "\(comparison.noVerdict?.headline ?? "")")
            #expect(comparison.noVerdict?.detail.contains("holds none") == true)
            #expect(Self.gate(Self.instructions, copy) == ExitStatus.baselineUnusable.rawValue)
        }
        try Self.withCopy(Self.instructions) { copy in
            // The row's samples gone from samples.csv, its figure still in results.csv.
            let samples = copy.appendingPathComponent(ResultsDirectory.FileName.samples)
            let parsed = try CSV.parse(String(decoding: try Data(contentsOf: samples), as: UTF8.self))
            let header = try #require(parsed.first?.fields)
            let kept = parsed.dropFirst().filter { record in
                let fields = Dictionary(uniqueKeysWithValues: zip(header, record.fields))
                return !(fields["workload"] == "write-unobserved" && fields["strategy"] == "observable" && fields["metric"] == "instructions")
            }
            #expect(kept.count < parsed.count - 1)
            try Data(([CSV.line(header)] + kept.map { CSV.line($0.fields) }).joined().utf8).write(to: samples)
            let comparison = try Self.judge(Self.instructions, copy)
            let judged = try Self.item(comparison, GateAdversarialTests.rowKey)
            #expect(judged.verdict == .noVerdict && judged.reason.contains("the current run has no samples of this row"), "\(judged.reason)")
            #expect(comparison.noVerdict?.reason == .rowsWithoutEvidence)
            #expect(comparison.exitStatus == .baselineUnusable)
        }
    }

    @Test("a row whose results.csv figure or rounds are not what its samples give is refused")
    func figuresAreRecomputedFromSamples() throws {
        try Self.withCopy(Self.instructions) { copy in
            // The row's figure edited, its samples not.
            try TamperedRun.rewrite(copy.appendingPathComponent(ResultsDirectory.FileName.results)) { record in
                if record["workload"] == "write-unobserved", record["strategy"] == "observable", record["metric"] == "instructions",
                    let mean = Double(record["mean"] ?? "")
                {
                    record["mean"] = String(mean * 0.9)
                }
            }
            let comparison = try Self.judge(Self.instructions, copy)
            #expect(comparison.noVerdict?.reason == .resultsDisagree, "\(comparison.noVerdict?.headline ?? "")")
            #expect(comparison.noVerdict?.detail.contains(GateAdversarialTests.rowKey) == true)
            #expect(Self.gate(Self.instructions, copy) == ExitStatus.baselineUnusable.rawValue)
        }
        try Self.withCopy(Self.instructions) { copy in
            // One layout: its rounds column would make the row a median rather than a mean.
            try TamperedRun.rewrite(copy.appendingPathComponent(ResultsDirectory.FileName.results)) { record in
                if record["workload"] == "write-unobserved", record["strategy"] == "observable", record["metric"] == "instructions" { record["rounds"] = "1" }
            }
            #expect(try Self.judge(Self.instructions, copy).noVerdict?.reason == .resultsDisagree)
        }
    }

    @Test("the same folder on both sides, or a copy of the baseline's own run, is refused")
    func sameRunIsRefused() throws {
        #expect(Self.gate(Self.instructions, Self.instructions) == ExitStatus.baselineUnusable.rawValue)
        let run = try RunResults.load(Self.instructions.path)
        #expect(RunCompatibility.refusal(baseline: run, current: run, policy: GatePolicy())?.reason == .sameRun)
        try Self.withCopy(Self.timings, keepingRunID: true) { stale in
            let refusal = RunCompatibility.refusal(baseline: try RunResults.load(Self.timings.path), current: try RunResults.load(stale.path), policy: GatePolicy())
            #expect(refusal?.reason == .sameRun && refusal?.detail.contains("stale results/latest") == true, "\(refusal?.headline ?? "none")")
            #expect(Self.gate(Self.timings, stale, Self.countsRecipe) == ExitStatus.baselineUnusable.rawValue)
        }
    }

    @Test("a run.json that says interrupted, or lacks what an instruction gate needs, is refused, not judged without that check")
    func incompleteRunIsRefused() throws {
        try Self.withCopy(Self.instructions) { copy in
            try TamperedRun.editMetadata(copy) { $0["status"] = "interrupted" }
            #expect(Self.gate(Self.instructions, copy) == ExitStatus.baselineUnusable.rawValue)
        }
        for field in ["toolchain", "instruction_counting"] {
            try Self.withCopy(Self.instructions) { copy in
                try TamperedRun.editMetadata(copy) { $0[field] = nil }
                let refusal = RunCompatibility.refusal(baseline: try RunResults.load(Self.instructions.path), current: try RunResults.load(copy.path), policy: GatePolicy())
                #expect(refusal?.reason == .runIncomplete && refusal?.detail.contains(field) == true, "\(field): \(refusal?.headline ?? "none")")
                #expect(Self.gate(Self.instructions, copy) == ExitStatus.baselineUnusable.rawValue)
            }
        }
    }

    @Test("views that stop re-running are a change of behaviour that fails, as re-running more does, under the CI recipe")
    func behaviourIsJudgedBothWays() throws {
        for value in ["0", "2"] {
            try Self.withCopy(Self.timings) { copy in
                // Every process's row and the pooled one alike, as a run that measured it would write.
                for file in [ResultsDirectory.FileName.results, ResultsDirectory.FileName.rounds] {
                    try TamperedRun.rewrite(copy.appendingPathComponent(file)) { record in
                        guard record["workload"] == "write-observed", record["strategy"] == "observable", record["metric"] == "reruns_per_write" else { return }
                        for column in ["median", "mean", "min", "max", "p10", "p90", "p99", "ci95_low", "ci95_high"] { record[column] = value }
                    }
                }
                let comparison = try Self.judge(Self.timings, copy, policy: GatePolicy(gatesTimings: false, gatesAsynchronousCounts: false))
                let judged = try Self.item(comparison, "latency/write-observed/observable/reruns_per_write objects=1000 S=1 c=1")
                #expect(judged.verdict == .behaviourChanged && judged.reason.hasPrefix("behaviour changed: 1 → \(value)"), "\(judged.reason)")
                #expect(comparison.exitStatus == .regression)
                #expect(Self.gate(Self.timings, copy, Self.countsRecipe) == ExitStatus.regression.rawValue)
            }
        }
    }

    @Test("an instruction count that falls 99% is implausible and fails until the baseline is remade")
    func implausibleFallFails() throws {
        try Self.withCopy(Self.instructions) { copy in
            try TamperedRun.scale(copy, GateAdversarialTests.row, factors: [0.01, 0.01, 0.01, 0.01, 0.01])
            let comparison = try Self.judge(Self.instructions, copy)
            let judged = try Self.item(comparison, GateAdversarialTests.rowKey)
            #expect(judged.verdict == .implausible && judged.reason.contains("remake the baseline"), "\(judged.reason)")
            #expect(Self.gate(Self.instructions, copy) == ExitStatus.regression.rawValue)
        }
        // A fall within the bound is an improvement (4), as before.
        try Self.withCopy(Self.instructions) { copy in
            try TamperedRun.scale(copy, GateAdversarialTests.row, factors: [0.9, 0.9, 0.9, 0.9, 0.9])
            #expect(try Self.item(try Self.judge(Self.instructions, copy), GateAdversarialTests.rowKey).verdict == .improvement)
        }
    }

    @Test("a timing ×2 on a baseline whose rounds spread wider is not judged, says what it could see, and the gate gives no verdict")
    func blindTimingIsNotUnchanged() throws {
        let key = "latency/write-observed/observable/latency objects=1000 S=1 c=1"
        // The store-isolation and pool rows of this baseline share a partial sample key (a
        // samples.csv older than the full key): with timings judged they have no verdict of their
        // own, so they are left out here.
        let base = try TamperedRun.copy(Self.timings)
        defer { TamperedRun.remove(base) }
        try Self.keepSuites(base, ["latency", "memory", "consistency"])
        try Self.withCopy(base) { untouched in
            let comparison = try Self.judge(base, untouched)
            #expect(comparison.exitStatus == .success, "\(comparison.noVerdict?.headline ?? "")")
            #expect(try Self.item(comparison, key).verdict == .notJudged)
        }
        try Self.withCopy(base) { doubled in
            try TamperedRun.rewrite(doubled.appendingPathComponent(ResultsDirectory.FileName.samples)) { record in
                if record["workload"] == "write-observed", record["strategy"] == "observable", record["metric"] == "latency", let value = Double(record["value"] ?? "") {
                    record["value"] = String(value * 2)
                }
            }
            try TamperedRun.rewrite(doubled.appendingPathComponent(ResultsDirectory.FileName.results)) { record in
                guard record["workload"] == "write-observed", record["strategy"] == "observable", record["metric"] == "latency" else { return }
                for column in ["median", "mean", "min", "max", "p10", "p90", "p99", "ci95_low", "ci95_high"] {
                    if let value = Double(record[column] ?? "") { record[column] = String(value * 2) }
                }
            }
            let comparison = try Self.judge(base, doubled)
            let row = try Self.item(comparison, key)
            #expect(row.verdict == .notJudged, "\(row.reason)")
            #expect(row.seesCell == "nothing" || row.seesCell.hasPrefix("≥ "), "\(row.seesCell)")
            #expect(comparison.noVerdict?.reason == .changeNotJudgeable, "\(comparison.noVerdict?.headline ?? "")")
            #expect(comparison.noVerdict?.detail.contains(key) == true)
            #expect(Self.gate(base, doubled, ["--judge-timings"]) == ExitStatus.baselineUnusable.rawValue)
            // By default timings are reported, not judged: the doubled one among them, said so.
            #expect(Self.gate(base, doubled) == 0)
        }
    }

    @Test("a timing whose baseline rounds agree within the threshold can be unchanged; one whose rounds spread wider says it could see only that much")
    func sensitivityComesFromTheBaselinesRounds() throws {
        let steady = GateTests.timing("plain", (0..<80).map { 100 + Double($0 % 8) * 0.1 })
        // Rounds 100, 110, …, 170 ns: a change smaller than about 27% is within what such rounds
        // give by chance at the 0.05 level of one timing (Yuen's test on their logarithms).
        let noisy = GateTests.timing("plain", (0..<80).map { 100 + Double($0 % 8) * 10 })
        for (timing, blind) in [(steady, false), (noisy, true)] {
            let run = GateTests.run([timing.0], timing.1)
            let row = try #require(RunComparison(baseline: run, current: run).comparisons.first)
            if blind {
                #expect(row.verdict == .notJudged && row.seesCell == "≥ 27%", "\(row.seesCell) \(row.reason)")
                #expect(row.reason.hasPrefix("not judged: could see only ≥ 27% (the smallest change its test finds significant"), "\(row.reason)")
            } else {
                #expect(row.verdict == .unchanged && row.seesCell == "±5%", "\(row.seesCell) \(row.reason)")
            }
        }
    }

    @Test("a count whose rounds differ is not called exact: it is judged on the range its baseline's rounds gave; one whose rounds agree stays exact")
    func countOverRoundsIsExactOnlyWhereTheyAgree() throws {
        func row(_ values: [Double]) -> ResultRow {
            ResultRow(
                runID: "r", suite: "latency", workload: "write-observed", strategy: "observable", executor: RowKey.mainActor, objects: 1_000, subscribers: 1,
                concurrency: 1, metric: .rerunsPerWrite, unit: Metric.rerunsPerWrite.unit, statistics: Statistics(values), rounds: values.count)
        }
        func judge(_ base: [Double], _ current: [Double]) throws -> MetricComparison {
            try #require(RunComparison(baseline: GateTests.run([row(base)]), current: GateTests.run([row(current)])).comparisons.first)
        }
        let spread = [1.0, 1, 1, 1, 1, 1.5, 2, 1]
        let within = try judge(spread, [1, 1, 1, 1, 1.5, 1.5, 1, 1])
        #expect(within.verdict == .unchanged && within.reason.hasPrefix("behaviour count not exact: the baseline's 8 rounds gave 1–2"), "\(within.reason)")
        #expect(within.seesCell != "any")
        #expect(try judge(spread, Array(repeating: 3, count: 8)).verdict == .behaviourChanged)
        let agreed = try judge(Array(repeating: 1, count: 8), Array(repeating: 1, count: 8))
        #expect(agreed.verdict == .unchanged && agreed.reason.hasPrefix("exact behaviour count") && agreed.seesCell == "any", "\(agreed.reason)")
    }

    @Test("the summary counts judged rows by strategy; a strategy named with --strategy that has none gives no verdict")
    func requiredStrategyMustBeJudged() throws {
        try Self.withCopy(Self.timings) { copy in
            // Under the CI recipe an asynchronous strategy's counts are reported only, and its
            // timings too: none of grdb-pool's rows is judged.
            let policy = GatePolicy(gatesTimings: false, gatesAsynchronousCounts: false)
            let comparison = try Self.judge(Self.timings, copy, policy: policy)
            let grdb = try #require(comparison.byStrategy.first { $0.strategy == "grdb-pool" })
            #expect(grdb.judged == 0 && grdb.rows > 0)
            let observable = try #require(comparison.byStrategy.first { $0.strategy == "observable" })
            #expect(observable.judged > 0)
            let report = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b")
            #expect(report.byStrategy.contains("grdb-pool:") && report.byStrategy.contains(" 0 of \(grdb.rows) rows judged"), "\(report.byStrategy)")
            var required = policy
            required.requiredStrategies = ["observable", "grdb-pool"]
            let strict = try Self.judge(Self.timings, copy, policy: required)
            #expect(strict.noVerdict?.reason == .strategyNotJudged && strict.noVerdict?.detail.hasPrefix("grdb-pool: 0 of") == true, "\(strict.noVerdict?.headline ?? "")")
            #expect(Self.gate(Self.timings, copy, Self.countsRecipe + ["--strategy", "grdb-pool"]) == ExitStatus.baselineUnusable.rawValue)
            #expect(Self.gate(Self.timings, copy, Self.countsRecipe + ["--strategy", "observable"]) == 0)
        }
    }

    @Test("the gate's text fits 120 columns on the committed baselines, with a regression and its movers; --full gives every reason")
    func textFitsTheTerminal() throws {
        for (baseline, policy) in [(Self.instructions, GatePolicy()), (Self.timings, GatePolicy(gatesTimings: false, gatesAsynchronousCounts: false))] {
            try Self.withCopy(baseline) { copy in
                if baseline == Self.instructions {
                    try TamperedRun.scale(copy, GateAdversarialTests.row, factors: [1.1, 1.1, 1.1, 1.1, 1.1])
                }
                let base = try RunResults.load(baseline.path), current = try RunResults.load(copy.path)
                let report = ComparisonReport(
                    comparison: RunComparison(baseline: base, current: current, policy: policy), baselineSource: base.source, currentSource: current.source,
                    profiles: (base.profiles, current.profiles))
                let text = report.text()
                let widest = text.split(separator: "\n").map(\.count).max() ?? 0
                #expect(widest <= SummaryTable.width, "\(text.split(separator: "\n").filter { $0.count > SummaryTable.width }.prefix(3))")
                #expect(text.contains("rows judged, by strategy:\n"))
                if baseline == Self.instructions {
                    #expect(text.contains("why:\nregression \(GateAdversarialTests.rowKey): instructions"), "\(text.prefix(2_000))")
                }
                if baseline == Self.instructions {
                    #expect(report.text(full: true).contains("allowed ±"))
                }
            }
        }
    }

    @Test(
        "the NO VERDICT headline starts a line of standard error, as .ci/run and the workflows match it (the release binary on a made-differently baseline)",
        .enabled(if: InstructionCountTests.releaseObsbench != nil, "needs the release build: swift build -c release (.ci/run builds it first)"))
    func noVerdictLineMatchesTheScripts() throws {
        let binary = try #require(InstructionCountTests.releaseObsbench)
        try Self.withCopy(Self.instructions) { copy in
            try TamperedRun.editMetadata(copy) { $0["cpu_model"] = "another CPU" }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["gate", "--baseline", Self.instructions.path, "--current", copy.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == ExitStatus.baselineUnusable.rawValue)
            // What the scripts grep: `grep -q '^NO VERDICT (made-differently)' gate.err`.
            let pattern = "^NO VERDICT (made-differently)"
            #expect(text.split(separator: "\n").contains { $0.hasPrefix(pattern.dropFirst()) }, "standard error:\n\(text)")
            for script in [".ci/run", ".github/workflows/benchmarks.yml", ".github/workflows/sharded.yml"] {
                let source = try String(contentsOf: ExportTests.root.appendingPathComponent(script), encoding: .utf8)
                #expect(source.contains("grep -q '\(pattern)'"), "\(script) does not match the headline as the gate prints it")
            }
        }
    }
}
