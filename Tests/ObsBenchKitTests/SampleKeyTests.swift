import Foundation
import Testing

@testable import ObsBenchKit

/// Samples carry their row's full key (`samples.csv`'s `executor`, `objects` and `concurrency`
/// columns), so rows that differ only there keep their samples apart; runs written before the
/// columns existed still load, and the gate's verdicts on them are the ones it gave before.
@Suite("Samples keyed by their row")
struct SampleKeyTests {
    init() { BuiltInStrategiesKnown.declare() }

    /// `samples.csv`'s header before samples carried the full key.
    static let oldColumns = ["run_id", "suite", "workload", "strategy", "metric", "unit", "sample", "value", "round", "subscribers"]

    /// A hops latency row: strategy `-`, the isolation kind in `executor`, the callers in
    /// `concurrency`, no subscribers.
    static func hop(_ executor: String, callers: Int, value: Double = 100) -> ResultRow {
        ResultRow(
            runID: "r", suite: "hops", workload: "round-trip", strategy: RowKey.noStrategy, executor: executor, objects: 0, subscribers: 0,
            concurrency: callers, metric: .latency, unit: Metric.latency.unit, statistics: Statistics(exact: value), rounds: 8)
    }

    /// Eight rounds of four samples of `row`, each round's around `value`.
    static func samples(of row: ResultRow, around value: Double) -> [SampleRow] {
        (0..<32).map { SampleRow(runID: "r", key: RowKey(row), index: $0, value: value + Double($0 % 4), round: 1 + $0 / 4) }
    }

    /// The sample as a file without the full key held it: a strategy-less row's callers in
    /// `subscribers` (``WorkloadOutput/labelAsHop(executor:callers:)`` put them there).
    static func withoutFullKey(_ sample: SampleRow) -> SampleRow {
        var old = sample
        if old.strategy == RowKey.noStrategy { old.subscribers = old.concurrency ?? 0 }
        old.rowKey = nil
        return old
    }

    static func text(_ samples: [SampleRow], columns: [String] = SampleRow.columns) -> String {
        CSV.line(columns) + samples.map { CSV.line(Array($0.fields.prefix(columns.count))) }.joined()
    }

    @Test("samples.csv's new columns come last, after every column an older file has")
    func columnsOnlyAdded() {
        #expect(Array(SampleRow.columns.prefix(Self.oldColumns.count)) == Self.oldColumns)
        #expect(SampleRow.columns.suffix(3) == ["executor", "objects", "concurrency"])
        #expect(SampleRow.partialKeyColumns == Self.oldColumns.count)
    }

    @Test("a new run's samples.csv, written as a run writes it, reads back with every sample's full key")
    func newFileRoundTrips() throws {
        let rows = [Self.hop("actor", callers: 1), Self.hop("actor", callers: 4), Self.hop("mutex", callers: 1)]
        let samples = rows.flatMap { Self.samples(of: $0, around: 100) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-sample-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let directory = try ResultsDirectory(output: output.path, runID: "r")
        try directory.append(rounds: rows, samples: samples)
        let text = try String(contentsOf: directory.samplesFile, encoding: .utf8)
        #expect(text.hasPrefix(CSV.line(SampleRow.columns)))
        let read = try SamplesReader.read(file: directory.samplesFile.path)
        #expect(read == samples)
        #expect(read.allSatisfy { $0.rowKey != nil })
        #expect(Set(read.compactMap(\.rowKey)) == Set(rows.map(RowKey.init)))
    }

    @Test("an old samples.csv (10, 9 or 8 columns) still loads, its samples with a partial key")
    func oldFileLoads() throws {
        let samples = Self.samples(of: Self.hop("actor", callers: 4), around: 100).map(Self.withoutFullKey)
        let read = try SamplesReader.parse(Self.text(samples, columns: Self.oldColumns))
        #expect(read == samples)
        #expect(read.allSatisfy { $0.rowKey == nil && $0.executor == nil && $0.objects == nil && $0.concurrency == nil })
        #expect(read.first?.subscribers == 4, "a hop's callers, where the old file put them")
        // Before `round` and `subscribers`: round 1, subscribers 0.
        let oldest = try SamplesReader.parse(Self.text(samples, columns: Array(Self.oldColumns.prefix(8))))
        #expect(oldest.count == samples.count && oldest.allSatisfy { $0.round == 1 && $0.subscribers == 0 && $0.rowKey == nil })
        // A partial key written in the new header (a shard of an older run, merged) stays partial.
        #expect(try SamplesReader.parse(Self.text(samples)) == samples)
    }

    @Test("a header with only some of the key's columns, or a key half given, is refused with its line")
    func halfKeysAreRefused() throws {
        let sample = Self.samples(of: Self.hop("actor", callers: 4), around: 100)[0]
        do {
            _ = try SamplesReader.parse(Self.text([sample], columns: Array(SampleRow.columns.prefix(11))))
            Issue.record("an 11-column header was read")
        } catch {
            #expect(error.line == 1)
        }
        var fields = sample.fields
        fields[11] = ""
        do {
            _ = try SamplesReader.parse(CSV.line(SampleRow.columns) + CSV.line(fields))
            Issue.record("a key without objects was read")
        } catch {
            #expect(error.line == 2 && error.reason.contains("objects"), "\(error)")
        }
    }

    @Test("two hops rows that differ only in concurrency get their own samples from a new file, and are judged on them")
    func hopsRowsByConcurrency() throws {
        // Labelled as the hops workloads label their output: each sample takes its row's executor
        // and callers, and keeps its row's subscribers (0), where old files put the callers.
        func labelled(callers: Int, around value: Double) -> WorkloadOutput {
            let row = ResultRow(
                runID: "r", suite: "hops", workload: "round-trip", strategy: "plain", executor: RowKey.mainActor, objects: 0, subscribers: 0,
                concurrency: 1, metric: .latency, unit: Metric.latency.unit, statistics: Statistics(exact: value), rounds: 8)
            var output = WorkloadOutput(rows: [row], samples: Self.samples(of: row, around: value))
            output.labelAsHop(executor: "actor", callers: callers)
            return output
        }
        let (first, second) = (labelled(callers: 1, around: 100), labelled(callers: 4, around: 400))
        let (one, four) = (first.rows[0], second.rows[0])
        #expect(RowKey(one) != RowKey(four) && one.subscribers == four.subscribers)
        let read = try SamplesReader.parse(Self.text(first.samples + second.samples))
        #expect(read.allSatisfy { $0.subscribers == 0 && $0.executor == "actor" })
        let attribution = SampleAttribution(rows: [RowKey(one), RowKey(four)], samples: read)
        #expect(attribution.unattributable.isEmpty)
        #expect(attribution.samples[RowKey(one)]?.map(\.value).max() == 103)
        #expect(attribution.samples[RowKey(four)]?.map(\.value).min() == 400)

        let run = RunResults(rows: [one, four], samples: read, source: "new")
        let comparison = RunComparison(baseline: run, current: run)
        #expect(comparison.comparisons.count == 2)
        for item in comparison.comparisons {
            #expect(item.verdict == .unchanged && item.reason.contains("within"), "\(item.key): \(item.reason)")
        }
        let index = RunComparison.index(run, policy: GatePolicy()).rows
        #expect(index[RowKey(one)]?.roundMedians == Array(repeating: 101.5, count: 8))
        #expect(index[RowKey(four)]?.roundMedians == Array(repeating: 401.5, count: 8))
    }

    @Test("an old file's samples go to the one row their partial key matches; rows it cannot tell apart get none and are not judged, saying why")
    func oldFilesAttributeOnlyUniqueMatches() throws {
        // Hops at 1 and 4 callers: told apart by the callers in `subscribers`. Two isolation
        // kinds at 4 callers: not, as the old file has no executor column.
        let rows = [Self.hop("actor", callers: 1, value: 100), Self.hop("actor", callers: 4, value: 400), Self.hop("mutex", callers: 4, value: 500)]
        let samples = zip(rows, [100.0, 400, 500]).flatMap { Self.samples(of: $0, around: $1) }.map(Self.withoutFullKey)
        let read = try SamplesReader.parse(Self.text(samples, columns: Self.oldColumns))
        let attribution = SampleAttribution(rows: rows.map(RowKey.init), samples: read)
        #expect(attribution.samples[RowKey(rows[0])]?.count == 32)
        #expect(attribution.samples[RowKey(rows[1])] == nil && attribution.samples[RowKey(rows[2])] == nil)
        #expect(attribution.unattributable == [RowKey(rows[1]), RowKey(rows[2])])

        let run = RunResults(rows: rows, samples: read, source: "old")
        let comparison = RunComparison(baseline: run, current: run)
        let verdicts = Dictionary(uniqueKeysWithValues: comparison.comparisons.map { ($0.rowKey, $0) })
        #expect(verdicts[RowKey(rows[0])]?.verdict == .unchanged)
        for row in rows.dropFirst() {
            let item = try #require(verdicts[RowKey(row)])
            #expect(item.verdict == .noVerdict, "\(item.key)")
            #expect(item.reason.hasPrefix("no verdict: each run's samples.csv predates"), "\(item.reason)")
        }

        // A new run against such a baseline: the baseline's side still cannot be told apart.
        let new = RunResults(rows: rows, samples: zip(rows, [100.0, 400, 500]).flatMap { Self.samples(of: $0, around: $1) }, source: "new")
        let againstOld = Dictionary(uniqueKeysWithValues: RunComparison(baseline: run, current: new).comparisons.map { ($0.rowKey, $0) })
        #expect(againstOld[RowKey(rows[0])]?.verdict == .unchanged)
        #expect(againstOld[RowKey(rows[2])]?.verdict == .noVerdict)
        #expect(againstOld[RowKey(rows[2])]?.reason.contains("the baseline's samples.csv predates") == true)
    }

    // MARK: committed runs

    /// The timing baseline as it was committed until 2026-11-27 (a quick run of 2026-11-26, before
    /// samples carried the full key), kept as a fixture when `results/baseline` was remade: the
    /// verdicts pinned below, and the gate's trust tests, are about a run of that kind.
    static let timingBaselineBeforeFullKey = "Tests/Fixtures/timing-baseline-2026-11-26"

    /// Every committed run written before samples carried the full key: the folders under
    /// `results/` with a `results.csv`, but the remade `results/baseline`, and the timing baseline
    /// they were gated against (``timingBaselineBeforeFullKey``).
    static let committedRuns = [
        timingBaselineBeforeFullKey,
        "results/baseline-instructions",
        "results/reference/all-2026-11-23T14-36-44Z",
        "results/reference/all-2026-11-23T16-24-31Z",
        "results/reference/all-2026-11-24T06-03-26Z",
        "results/reference/all-2026-11-24T08-42-57Z",
        "results/reference/all-2026-11-25T04-07-52Z",
        "results/reference/all-2026-11-26T20-38-09Z",
        "results/reference/gate-builds-2026-11-25/cobs-a",
        "results/reference/gate-builds-2026-11-25/cobs-b",
        "results/reference/gate-builds-2026-11-25/cpub-a",
        "results/reference/gate-builds-2026-11-25/cpub-b",
        "results/reference/gate-builds-2026-11-25/v0",
        "results/reference/gate-builds-2026-11-25/v1",
        "results/reference/gate-builds-2026-11-25/v2",
        "results/reference/gate-builds-2026-11-25/v3",
        "results/reference/gate-builds-2026-11-25/v4",
        "results/reference/hops-2026-11-23",
        "results/reference/memory-2026-11-27T01-37-02Z",
    ]

    /// The comparisons whose verdicts are pinned: every committed run against itself; the timing
    /// baseline against each reference run (and, normalised to `plain`, against the newest); the
    /// instruction baseline and gate-builds' `v0` either way; and the builds GateBuildsTests compares.
    static let comparisons: [(baseline: String, current: String, normalized: Bool)] = {
        let builds = "results/reference/gate-builds-2026-11-25/"
        var pairs = committedRuns.map { (baseline: $0, current: $0, normalized: false) }
        for reference in committedRuns where reference.hasPrefix("results/reference/") && !reference.hasPrefix(builds) {
            pairs.append((timingBaselineBeforeFullKey, reference, false))
        }
        pairs.append((timingBaselineBeforeFullKey, "results/reference/all-2026-11-26T20-38-09Z", true))
        pairs.append(("results/baseline-instructions", builds + "v0", false))
        pairs.append((builds + "v0", "results/baseline-instructions", false))
        for build in ["v4", "cobs-a", "cobs-b", "cpub-a", "cpub-b"] {
            pairs.append((builds + "v0", builds + build, false))
        }
        return pairs
    }()

    /// The expected outcome of each comparison, one line each (``outcome(_:)``): recorded at
    /// 51d4308, before samples carried the full key. The three lines of `results/baseline-instructions`
    /// were recorded again when it was remade after the change (at 4a9e045; every other line the same).
    static let expectationFile = ExportTests.root.appendingPathComponent("Tests/Expectations/committed-run-verdicts.tsv")
    /// Set to a path, the test writes the outcomes it finds there instead of checking them (to
    /// record new expectations when committed runs are added or remade).
    static let recordVariable = "OBSBENCH_RECORD_VERDICTS"

    /// A comparison's outcome: its exit status, rows judged, layouts per row, how many rows got
    /// each verdict, and a digest (FNV-1a, 64 bits) of every row's verdict and key, so that no
    /// row's verdict can change unseen.
    static func outcome(_ comparison: RunComparison) -> String {
        let counts = Dictionary(grouping: comparison.comparisons, by: \.verdict).mapValues(\.count)
        let kinds: [Verdict] = [
            .regression, .behaviourChanged, .implausible, .noVerdict, .spread, .improvement, .unchanged, .notJudged, .informational, .missing, .added,
        ]
        let perRow = comparison.comparisons.map { "\($0.verdict.rawValue) \($0.key)" }.sorted().joined(separator: "\n")
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in perRow.utf8 {
            digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "exit \(comparison.exitStatus.rawValue), judged \(comparison.judgedCount), layouts "
            + (comparison.layoutsPerRow.map { "\($0.baseline)/\($0.current)" } ?? "none") + ", "
            + kinds.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ") + ", rows " + String(digest, radix: 16)
    }

    static func label(_ pair: (baseline: String, current: String, normalized: Bool)) -> String {
        "\(pair.baseline) → \(pair.current)" + (pair.normalized ? " normalized" : "")
    }

    /// The committed runs made after samples carried the full key (remade since).
    static let fullKeyRuns: Set<String> = ["results/baseline-instructions"]

    @Test("every committed run loads, its samples with the key its samples.csv has: partial in runs made before the full key, full in those made since")
    func committedRunsLoad() throws {
        for path in Self.committedRuns {
            let run = try RunResults.load(ExportTests.root.appendingPathComponent(path).path)
            #expect(!run.rows.isEmpty, "\(path)")
            #expect(run.absentFiles.isEmpty, "\(path): \(run.absentFiles)")
            let full = Self.fullKeyRuns.contains(path)
            #expect(run.samples.allSatisfy { ($0.rowKey != nil) == full }, "\(path)")
            if full { #expect(!run.samples.isEmpty, "\(path)") }
        }
    }

    @Test("the gate's verdicts on committed runs are the ones it gave before samples carried the full key, row by row")
    func committedVerdictsUnchanged() throws {
        var runs: [String: RunResults] = [:]
        for path in Self.committedRuns {
            runs[path] = try RunResults.load(ExportTests.root.appendingPathComponent(path).path)
        }
        var lines: [String] = []
        for pair in Self.comparisons {
            let baseline = try #require(runs[pair.baseline]), current = try #require(runs[pair.current])
            let comparison = RunComparison(baseline: baseline, current: current, policy: GatePolicy(normalizeToPlain: pair.normalized))
            lines.append("\(Self.label(pair))\t\(Self.outcome(comparison))")
        }
        if let path = ProcessInfo.processInfo.environment[Self.recordVariable], !path.isEmpty {
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let expected = try String(contentsOf: Self.expectationFile, encoding: .utf8).split(separator: "\n").map(String.init)
        let expectedByLabel = Dictionary(expected.map { line in (String(line.prefix { $0 != "\t" }), line) }, uniquingKeysWith: { first, _ in first })
        #expect(expected.count == lines.count)
        for line in lines {
            let label = String(line.prefix { $0 != "\t" })
            #expect(expectedByLabel[label] == line, "\(label)")
        }
    }

    @Test("the committed timing baseline's store-isolation and pool rows that share a partial key are not judged, and say their samples.csv predates the full key")
    func committedSharedRowsSayWhy() throws {
        let run = try RunResults.load(ExportTests.root.appendingPathComponent(Self.timingBaselineBeforeFullKey).path)
        let comparison = RunComparison(baseline: run, current: run)
        let unattributed = comparison.comparisons.filter { $0.reason.contains("samples.csv predates") }
        #expect(Set(unattributed.map(\.rowKey.workload)) == ["store-write-to-view", "store-read-main", "store-read-background", "main-actor-batching"])
        #expect(unattributed.count == 11)
        // Judged with timings (the default), they have no verdict: no evidence of their own.
        #expect(unattributed.allSatisfy { $0.verdict == .noVerdict })
    }
}
