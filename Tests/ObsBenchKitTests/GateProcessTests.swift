import Foundation
import Testing

@testable import ObsBenchKit

/// The gate judges every worker process, not the figure that pools them, and checks a run's files
/// against one another: changes written into copies of the committed runs, the way an audit wrote
/// them, each flagged or refused, never passed.
@Suite("Regression gate: every process counts")
struct GateProcessTests {
    init() { BuiltInStrategiesKnown.declare() }

    static let timings = GateTrustTests.timings
    static let instructions = GateTrustTests.instructions
    static let countsOnly = GatePolicy(gatesTimings: false, gatesAsynchronousCounts: false)
    static let statisticColumns = ["median", "mean", "min", "max", "p10", "p90", "p99", "ci95_low", "ci95_high"]

    /// `observable`'s re-runs per write (1 in each of its 8 rounds) set to `value` in the rounds
    /// `rounds` of rounds.csv, and results.csv's extremes updated as a run that measured it would
    /// (its median unchanged) when `consistent`.
    static func changeSomeRounds(_ copy: URL, rounds: Set<Int>, to value: Double, consistent: Bool) throws {
        func matches(_ record: [String: String]) -> Bool {
            record["workload"] == "write-observed" && record["strategy"] == "observable" && record["metric"] == "reruns_per_write"
        }
        var round = 0
        try TamperedRun.rewrite(copy.appendingPathComponent(ResultsDirectory.FileName.rounds)) { record in
            guard matches(record) else { return }
            round += 1
            guard rounds.contains(round) else { return }
            for column in statisticColumns { record[column] = String(value) }
        }
        guard consistent else { return }
        try TamperedRun.rewrite(copy.appendingPathComponent(ResultsDirectory.FileName.results)) { record in
            guard matches(record) else { return }
            if value > 1 { record["max"] = String(value) } else { record["min"] = String(value) }
        }
    }

    static let rerunsKey = "latency/write-observed/observable/reruns_per_write objects=1000 S=1 c=1"

    @Test("a behaviour count changed in 3 of 8 processes (the pooled median unchanged) is a changed behaviour, either way", arguments: [2.0, 0.0])
    func someProcessesChanged(value: Double) throws {
        try GateTrustTests.withCopy(Self.timings) { copy in
            try Self.changeSomeRounds(copy, rounds: [2, 5, 7], to: value, consistent: true)
            let comparison = try GateTrustTests.judge(Self.timings, copy, policy: Self.countsOnly)
            let judged = try GateTrustTests.item(comparison, Self.rerunsKey)
            #expect(judged.current == 1, "the pooled figure is unchanged")
            #expect(judged.verdict == .behaviourChanged, "\(judged.reason)")
            #expect(judged.reason.contains("a process of the current run gave \(NumberFormat.compared(value))"), "\(judged.reason)")
            #expect(comparison.exitStatus == .regression)
        }
    }

    @Test("rounds.csv that disagrees with results.csv for a row without samples: no verdict, naming the row")
    func roundsDisagree() throws {
        try GateTrustTests.withCopy(Self.timings) { copy in
            try Self.changeSomeRounds(copy, rounds: [2, 5, 7], to: 2, consistent: false)
            let comparison = try GateTrustTests.judge(Self.timings, copy, policy: Self.countsOnly)
            #expect(comparison.noVerdict?.reason == .resultsDisagree)
            #expect(comparison.noVerdict?.detail.contains("its processes in rounds.csv give 2") == true, "\(comparison.noVerdict?.detail ?? "")")
            #expect(GateTrustTests.gate(Self.timings, copy, GateTrustTests.countsRecipe) == ExitStatus.baselineUnusable.rawValue)
        }
    }

    @Test("a current run whose rows have fewer layouts than its run.json says gets no verdict for them, and fewer layouts never widen the allowance")
    func fewerLayoutsThanDeclared() throws {
        try GateTrustTests.withCopy(Self.instructions) { copy in
            // observable write-unobserved +1.0% in layout 1, its other layouts' samples dropped.
            let row = (workload: "write-unobserved", strategy: "observable")
            try TamperedRun.scale(copy, row, factors: [1.01, 1.01, 1.01, 1.01, 1.01])
            try TamperedRun.rewrite(copy.appendingPathComponent(ResultsDirectory.FileName.samples)) { record in
                guard record["workload"] == row.workload, record["strategy"] == row.strategy, record["metric"] == "instructions", record["round"] != "1" else { return }
                record["round"] = "drop"
            }
            try TamperedRun.dropRecords(copy.appendingPathComponent(ResultsDirectory.FileName.samples)) { $0["round"] == "drop" }
            try TamperedRun.rewrite(copy.appendingPathComponent(ResultsDirectory.FileName.results)) { record in
                guard record["workload"] == row.workload, record["strategy"] == row.strategy, record["metric"] == "instructions" else { return }
                record["rounds"] = "1"
            }
            let comparison = try GateTrustTests.judge(Self.instructions, copy)
            let judged = try #require(
                comparison.comparisons.first { $0.rowKey.workload == row.workload && $0.rowKey.strategy == row.strategy && $0.rowKey.metric == .instructions })
            #expect(judged.verdict == .noVerdict && judged.reason.contains("comes from 5 memory layouts; this one from 1"), "\(judged.reason)")
            #expect(comparison.exitStatus == .baselineUnusable && comparison.noVerdict?.reason == .rowsWithoutEvidence)
        }
        // The allowance is the baseline's whatever the current run's layouts.
        let base = [100.0, 104, 100, 102, 98]
        #expect(
            GatePolicy.layoutAllowance(baseline: base, currentLayouts: base.count) < GatePolicy.layoutAllowance(baseline: base, currentLayouts: 1),
            "the formula widens with fewer layouts; the gate uses the baseline's count")
    }

    @Test("a run.json whose suites do not list a suite results.csv has rows of is refused; the allocator is compared wherever memory rows are shared")
    func suitesAndAllocator() throws {
        try GateTrustTests.withCopy(Self.timings) { copy in
            let file = copy.appendingPathComponent(ResultsDirectory.FileName.metadata)
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            json["allocator"] = "timing suites: system allocator (glibc malloc); memory suite: system allocator"
            json["suites"] = (json["suites"] as? [String] ?? []).filter { $0 != "memory" }
            try JSONSerialization.data(withJSONObject: json).write(to: file)
            let now = try RunResults.load(copy.path), base = try RunResults.load(Self.timings.path)
            let refusal = RunCompatibility.refusal(baseline: base, current: now, policy: Self.countsOnly)
            #expect(refusal?.reason == .resultsDisagree && refusal?.detail.contains("rows of memory") == true, "\(refusal?.headline ?? "none")")
            let differences = RunCompatibility.differences(baseline: base, current: now, policy: Self.countsOnly)
            #expect(differences.madeDifferently.contains { $0.hasPrefix("allocator") }, "\(differences)")
            #expect(GateTrustTests.gate(Self.timings, copy, GateTrustTests.countsRecipe) == ExitStatus.baselineUnusable.rawValue)
        }
    }

    @Test("a baseline counted by an obsbench that counts otherwise is stale, not 'made differently'")
    func staleBaseline() throws {
        try GateTrustTests.withCopy(Self.instructions) { copy in
            let file = copy.appendingPathComponent(ResultsDirectory.FileName.metadata)
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            var counting = try #require(json["instruction_counting"] as? [String: Any])
            counting["counted_threads"] = "every thread, the way an older obsbench counted"
            json["instruction_counting"] = counting
            try JSONSerialization.data(withJSONObject: json).write(to: file)
            let differences = RunCompatibility.differences(baseline: try RunResults.load(copy.path), current: try RunResults.load(Self.instructions.path), policy: GatePolicy())
            #expect(differences.countingRule.count == 1 && differences.countingRule[0].hasPrefix("threads counted"), "\(differences)")
            #expect(differences.madeDifferently.isEmpty)
            #expect(GateTrustTests.gate(copy, Self.instructions) == ExitStatus.baselineUnusable.rawValue)
        }
    }
}
