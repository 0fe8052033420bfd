import Foundation
import Testing

@testable import ObsBenchKit

/// Regressions written into copies of the committed instruction baseline, the way a change would
/// show in its files: every one must be flagged (exit 2) or refused (exit 5), never passed, and an
/// untouched copy must pass. The allowance comes from the baseline alone, so a change that hits
/// one layout harder than the others cannot widen it.
@Suite("Regression gate: injected regressions")
struct GateAdversarialTests {
    init() { BuiltInStrategiesKnown.declare() }

    static let baseline = ExportTests.root.appendingPathComponent("results/baseline-instructions")
    /// `observable` write-unobserved: five identical layouts in the baseline (614 Ir/op since the
    /// harness change of 385f453, 658 before).
    static let row = (workload: "write-unobserved", strategy: "observable")
    static let rowKey = "latency/write-unobserved/observable/instructions objects=1000 S=0 c=1"

    /// The gate's judgement of `current` against the committed baseline (or `base`).
    static func judge(_ current: URL, base: URL = baseline) throws -> RunComparison {
        RunComparison(baseline: try RunResults.load(base.path), current: try RunResults.load(current.path))
    }

    static func verdict(_ comparison: RunComparison) throws -> MetricComparison {
        try #require(comparison.comparisons.first { $0.key == rowKey })
    }

    @Test("an untouched copy passes, with rows judged")
    func untouchedCopyPasses() throws {
        let copy = try TamperedRun.copy(Self.baseline)
        defer { TamperedRun.remove(copy) }
        let comparison = try Self.judge(copy)
        #expect(comparison.exitStatus == .success)
        #expect(comparison.judgedCount > 50)
        #expect(comparison.noVerdict == nil)
    }

    @Test("one layout ×1.5 (the mean +10%): a regression that names the layout, not 'unchanged' on an allowance it widened")
    func oneLayoutCannotWidenItsAllowance() throws {
        let copy = try TamperedRun.copy(Self.baseline)
        defer { TamperedRun.remove(copy) }
        try TamperedRun.scale(copy, Self.row, factors: [1, 1, 1, 1, 1.5])
        let comparison = try Self.judge(copy)
        let judged = try Self.verdict(comparison)
        // The baseline's five layouts agree (every one at the row's value), so the mean moves by a
        // tenth and layout 5 counts 1.5 times the value; the allowance is the fixed 0.5%.
        let base = try #require(judged.baseline)
        #expect(judged.verdict == .regression, "\(judged.reason)")
        #expect(abs((judged.current ?? 0) - base * 1.1) < 0.1)
        #expect(judged.reason.contains("layout 5 counted \(NumberFormat.irPerOperation(base * 1.5))"), "\(judged.reason)")
        #expect(judged.reason.contains("allowed ±\(NumberFormat.irPerOperation(base * 0.005)) Ir/op (0.50%)"), "\(judged.reason)")
        #expect(comparison.exitStatus == .regression)
    }

    @Test("a change spread unevenly over several layouts (+0 to +3%, the mean +1.2%) is a regression")
    func unevenChangeIsCaught() throws {
        let copy = try TamperedRun.copy(Self.baseline)
        defer { TamperedRun.remove(copy) }
        try TamperedRun.scale(copy, Self.row, factors: [1, 1.01, 1.03, 1, 1.02])
        let comparison = try Self.judge(copy)
        #expect(try Self.verdict(comparison).verdict == .regression)
        #expect(comparison.exitStatus == .regression)
    }

    @Test("a uniform +1% on a row whose layouts are identical is a regression")
    func uniformOnePercentIsCaught() throws {
        let copy = try TamperedRun.copy(Self.baseline)
        defer { TamperedRun.remove(copy) }
        try TamperedRun.scale(copy, Self.row, factors: [1.01, 1.01, 1.01, 1.01, 1.01])
        let comparison = try Self.judge(copy)
        #expect(try Self.verdict(comparison).verdict == .regression)
        #expect(comparison.exitStatus == .regression)
    }

    @Test("one layout +2%, which the mean (+0.4%) hides within 0.5%: the layout is named (spread), never passed as unchanged, and does not fail the gate")
    func hiddenLayoutIsNamed() throws {
        let copy = try TamperedRun.copy(Self.baseline)
        defer { TamperedRun.remove(copy) }
        try TamperedRun.scale(copy, Self.row, factors: [1, 1, 1.02, 1, 1])
        let comparison = try Self.judge(copy)
        let judged = try Self.verdict(comparison)
        #expect(judged.verdict == .spread, "\(judged.reason)")
        #expect(judged.reason.contains("layout 3 counted"), "\(judged.reason)")
        // Named, not failed: runs of one binary spread this far now and then (observable-context
        // view-scope, one layout +2.2% against a baseline whose layouts agreed by chance).
        #expect(comparison.exitStatus == .success)
        let headline = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b").headline
        #expect(headline.hasPrefix("no regression (a layout strayed") && headline.contains("1 spread"), "\(headline)")
    }

    @Test(
        "a file missing on either side beside a +3% change: no verdict (samples.csv, run.json) or the regression (rounds.csv, which the gate does not read), never a pass",
        arguments: [ResultsDirectory.FileName.samples, ResultsDirectory.FileName.rounds, ResultsDirectory.FileName.metadata], [false, true])
    func missingFileNeverPasses(file: String, onBaselineSide: Bool) throws {
        let base = try TamperedRun.copy(Self.baseline)
        let current = try TamperedRun.copy(Self.baseline)
        defer {
            TamperedRun.remove(base)
            TamperedRun.remove(current)
        }
        try TamperedRun.scale(current, Self.row, factors: [1.03, 1.03, 1.03, 1.03, 1.03])
        try FileManager.default.removeItem(at: (onBaselineSide ? base : current).appendingPathComponent(file))
        let comparison = try Self.judge(current, base: base)
        if file == ResultsDirectory.FileName.rounds {
            #expect(comparison.exitStatus == .regression)
            #expect(try Self.verdict(comparison).verdict == .regression)
        } else {
            #expect(comparison.exitStatus == .baselineUnusable)
            #expect(comparison.noVerdict?.reason == .fileMissing)
            #expect(comparison.noVerdict?.detail.contains("no \(file)") == true, "\(comparison.noVerdict?.detail ?? "")")
            let headline = ComparisonReport(comparison: comparison, baselineSource: "a", currentSource: "b").headline
            #expect(headline.hasPrefix("NO VERDICT (file-missing)"), "\(headline)")
        }
        // The command line ends the same way: 2 or 5, never 0.
        let status = obsbenchExitStatus(["gate", "--baseline", base.path, "--current", current.path])
        #expect(status == (file == ResultsDirectory.FileName.rounds ? ExitStatus.regression : .baselineUnusable).rawValue)
    }

    @Test("the layout allowance is the baseline's: a current run that spreads cannot widen it")
    func allowanceIsTheBaselines() {
        #expect(GatePolicy.layoutAllowance(baseline: [658, 658, 658, 658, 658], currentLayouts: 5) == 0)
        #expect(abs(GatePolicy.layoutAllowance(baseline: [100, 104, 100], currentLayouts: 3) - 7.54) < 0.01)
        #expect(GatePolicy.layoutAllowance(baseline: [100], currentLayouts: 5) == 0, "one layout has no spread")
        #expect(abs(GatePolicy.layoutSpreadLimit(baseline: [658, 658, 658, 658, 658], fixed: 3.29) - 9.87) < 1e-9)
        #expect(GatePolicy.layoutSpreadLimit(baseline: [100, 104, 100], fixed: 1) == 15)
    }
}

/// A copy of a committed run in a scratch folder, with a regression written into its files.
enum TamperedRun {
    /// The run's files the gate judges by (`results.csv`, `samples.csv`, `rounds.csv`, `run.json`),
    /// under a run id of its own unless `keepRunID` (the baseline's own run again, as a stale
    /// `results/latest` is).
    /// `profile.csv`, which the gate reads only to name the functions under a regression (3.7 MB,
    /// seconds to parse in a debug build), and the charts are left out.
    static func copy(_ run: URL, keepingRunID keepRunID: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-tampered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in [ResultsDirectory.FileName.results, ResultsDirectory.FileName.samples, ResultsDirectory.FileName.rounds, ResultsDirectory.FileName.metadata] {
            try FileManager.default.copyItem(at: run.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        if keepRunID { return folder }
        // Another run with the same figures (an A/A that repeated exactly): the gate refuses one
        // run on both sides, which a copy that kept its run id is.
        let id = UUID().uuidString.prefix(8)
        try editMetadata(folder) { $0["run_id"] = "\($0["run_id"] ?? "run")-copy-\(id)" }
        return folder
    }

    /// Edits the run's `run.json` as a JSON object.
    static func editMetadata(_ run: URL, _ change: (inout [String: Any]) -> Void) throws {
        let file = run.appendingPathComponent(ResultsDirectory.FileName.metadata)
        guard var object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }

    /// Sets one declared capability of `strategy` in the run's `run.json`.
    static func declare(_ run: URL, strategy: String, _ capability: String, _ value: Any) throws {
        try editMetadata(run) { object in
            guard var details = object["strategy_details"] as? [[String: Any]] else { return }
            for index in details.indices where details[index]["name"] as? String == strategy {
                var capabilities = details[index]["capabilities"] as? [String: Any] ?? [:]
                capabilities[capability] = value
                details[index]["capabilities"] = capabilities
            }
            object["strategy_details"] = details
        }
    }

    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Multiplies one instruction row's layout `i` by `factors[i - 1]`: every repeat of it in
    /// `samples.csv`, its per-layout rows in `rounds.csv`, and the row's mean, median, minimum and
    /// maximum in `results.csv` (the mean of the layouts' medians, as the run writes it).
    static func scale(_ run: URL, _ row: (workload: String, strategy: String), factors: [Double]) throws {
        func matches(_ record: [String: String]) -> Bool {
            record["workload"] == row.workload && record["strategy"] == row.strategy && record["metric"] == Metric.instructions.name
        }
        var layouts: [Int: [Double]] = [:]
        try rewrite(run.appendingPathComponent(ResultsDirectory.FileName.samples)) { record in
            guard matches(record), let round = Int(record["round"] ?? ""), let value = Double(record["value"] ?? "") else { return }
            let scaled = value * factors[round - 1]
            record["value"] = String(scaled)
            layouts[round, default: []].append(scaled)
        }
        let medians = layouts.keys.sorted().map { Statistics.percentile(layouts[$0]!.sorted(), 0.5) }
        let mean = medians.reduce(0, +) / Double(medians.count)
        try rewrite(run.appendingPathComponent(ResultsDirectory.FileName.results)) { record in
            guard matches(record) else { return }
            record["mean"] = String(mean)
            // A row over layouts keeps their statistics (its value is their mean).
            record["median"] = String(Statistics.percentile(medians.sorted(), 0.5))
            record["min"] = String(medians.min()!)
            record["max"] = String(medians.max()!)
        }
        var layout = 0
        try rewrite(run.appendingPathComponent(ResultsDirectory.FileName.rounds)) { record in
            guard matches(record), record["rounds"] == "1", layout < factors.count else { return }
            for column in ["median", "mean", "min", "max", "p10", "p90", "p99", "ci95_low", "ci95_high"] {
                if let value = Double(record[column] ?? "") { record[column] = String(value * factors[layout]) }
            }
            layout += 1
        }
    }

    /// Removes the records of a CSV file that `drop` says to.
    static func dropRecords(_ file: URL, _ drop: ([String: String]) -> Bool) throws {
        let parsed = try CSV.parse(String(decoding: try Data(contentsOf: file), as: UTF8.self))
        guard let header = parsed.first?.fields else { return }
        let kept = parsed.dropFirst().filter { !drop(Dictionary(uniqueKeysWithValues: zip(header, $0.fields))) }
        try Data(([CSV.line(header)] + kept.map { CSV.line($0.fields) }).joined().utf8).write(to: file)
    }

    /// Rewrites a CSV file record by record, by column name.
    static func rewrite(_ file: URL, _ change: (inout [String: String]) -> Void) throws {
        let parsed = try CSV.parse(String(decoding: try Data(contentsOf: file), as: UTF8.self))
        guard let header = parsed.first?.fields else { return }
        var lines = [CSV.line(header)]
        for (_, fields) in parsed.dropFirst() {
            var record = Dictionary(uniqueKeysWithValues: zip(header, fields))
            change(&record)
            lines.append(CSV.line(header.map { record[$0] ?? "" }))
        }
        try Data(lines.joined().utf8).write(to: file)
    }
}
