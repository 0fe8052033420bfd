import ArgumentParser
import BuiltInStrategies
import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchCLI
@testable import ObsBenchKit

/// A run spread over a CI matrix: `--shard K/N` runs one part of the jobs, and `obsbench merge`
/// joins the parts into the run one machine would have made. Checked by rows and exact counts
/// (jemalloc's bytes and allocations, Callgrind's layouts), never by time. Each test starts
/// obsbench runs of its own (`--jobs 1`, each in a scratch folder of its own), so they may run
/// beside each other and beside other tests: neither a heap count nor an instruction count
/// depends on what else the machine runs.
@Suite("Shards and merge")
struct ShardMergeTests {
    init() { BuiltInStrategiesKnown.declare() }

    // MARK: The partition

    @Test("--shard takes K/N with 1 ≤ K ≤ N; anything else exits 64 naming the problem")
    func shardOption() throws {
        #expect(try RunShard(parsing: "2/3") == RunShard(index: 2, count: 3))
        #expect(try RunShard(parsing: "1/1").isPartial == false)
        let refused: [(value: String, message: String)] = [
            ("0/2", "1 ≤ K ≤ N, got 0/2"), ("3/2", "1 ≤ K ≤ N, got 3/2"), ("1/0", "1 ≤ N ≤ 256, got N = 0"), ("-1/2", "1 ≤ K ≤ N"),
            ("2", "takes K/N"), ("a/b", "takes K/N"), ("1/2/3", "takes K/N"), ("", "--shard"),
        ]
        for (value, fragment) in refused {
            do {
                var command = try ObsBenchCommand.parseAsRoot(["run", "--suite", "memory", "--shard=\(value)"])
                try command.validate()
                Issue.record("--shard \(value) was accepted")
            } catch {
                #expect(ObsBenchCommand.exitCode(for: error).rawValue == ExitStatus.usage.rawValue, "--shard \(value)")
                #expect(ObsBenchCommand.message(for: error).contains(fragment), "--shard \(value): \(ObsBenchCommand.message(for: error))")
            }
        }
    }

    @Test("every job of a plan is in exactly one of N shards, in the plan's order, for N from 1 to more shards than jobs")
    func everyJobInOneShard() throws {
        var plan = RunPlan(
            suites: SuiteRegistry.all, strategies: Array(StrategyRegistry.all.prefix(3)), quick: true, objects: nil, workerTimeoutSeconds: 60,
            measures: [.time, .instructions],
            instructionSettings: {
                var settings = InstructionSettings.quick(); settings.layouts = 3; return settings
            }())
        let jobs = plan.jobs
        #expect(jobs.count == plan.workerCount)
        #expect(Set(jobs).count == jobs.count, "a job listed twice")
        for count in [1, 2, 3, 4, 7, jobs.count + 2] {
            var dealt: [RunJob] = []
            for index in 1...count {
                plan.shard = try RunShard(index: index, count: count)
                let selected = plan.selectedJobs
                #expect(plan.workerCount == selected.count)
                // In the plan's order: the shard's jobs are a subsequence of the plan's.
                let positions = selected.map { jobs.firstIndex(of: $0)! }
                #expect(positions == positions.sorted(), "shard \(index)/\(count)")
                #expect(positions.allSatisfy { $0 % count == index - 1 }, "shard \(index)/\(count) is dealt round robin")
                dealt += selected
            }
            #expect(dealt.count == jobs.count && Set(dealt) == Set(jobs), "\(count) shards: every job once")
        }
        plan.shard = nil
        #expect(plan.selectedJobs == jobs)
    }

    // MARK: Merging real runs

    static var binary: String? { InstructionCountTests.releaseObsbench }

    @Test(
        "merged shards give one run's rows: the same keys in the same order, pooled over both shards' rounds, every exact count equal (memory suite, 2 rounds, 2 shards)",
        .enabled(if: binary != nil, "needs the release build: swift build -c release"))
    func mergedShardsEqualOneRun() throws {
        let scratch = try SameMachineGateTests.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let options = ["--suite", "memory", "--quick", "--rounds", "2", "--strategy", "plain", "--strategy", "observable", "--jobs", "1", "--no-heap-profiles"]
        let whole = try Self.run(options, output: scratch.appendingPathComponent("whole"))
        let shards = try (1...2).map { try Self.run(options + ["--shard", "\($0)/2"], output: scratch.appendingPathComponent("shard-\($0)")) }
        let merged = try Self.obsbench(["merge", shards[1].path, shards[0].path, "--output", scratch.appendingPathComponent("merged").path])
        #expect(merged.status == 0, "\(merged.errors)")
        let mergedRun = scratch.appendingPathComponent("merged").appendingPathComponent(ResultsDirectory.FileName.latest)

        let one = try Self.rows(whole), joined = try Self.rows(mergedRun)
        #expect(joined.map(RowKey.init) == one.map(RowKey.init), "the same rows, in the same order")
        #expect(joined.map(\.rounds) == one.map(\.rounds))
        #expect(joined.allSatisfy { $0.isError || $0.rounds == 2 }, "every row pools both shards' rounds")
        #expect(Set(joined.map(\.runID)).count == 1)
        // The strategies' counts are exact (jemalloc, one thread): every figure and note is the one
        // run's. Rows of no strategy (a queue-guarded store, an actor) move with thread timing.
        for (a, b) in zip(one, joined) where a.strategy != RowKey.noStrategy {
            var b = b
            b.runID = a.runID
            #expect(a == b, "\(RowKey(a))")
        }
        #expect(one.contains { $0.strategy == "observable" && $0.metric == .freshAllocationsPerObject })
        // Each worker's own rows and samples, once each.
        for file in [ResultsDirectory.FileName.rounds] {
            let a = try ResultsReader.read(file: whole.appendingPathComponent(file).path).map(RowKey.init)
            let b = try ResultsReader.read(file: mergedRun.appendingPathComponent(file).path).map(RowKey.init)
            #expect(a.count == b.count && Set(a) == Set(b), "\(file)")
        }
        func sampleKeys(_ run: URL) throws -> [String] {
            try SamplesReader.read(file: run.appendingPathComponent(ResultsDirectory.FileName.samples).path)
                .map { "\($0.workload)/\($0.strategy)/\($0.metric)/\($0.subscribers)/\($0.round)/\($0.index)" }.sorted()
        }
        #expect(try sampleKeys(whole) == sampleKeys(mergedRun))

        let metadata = try Self.metadata(mergedRun)
        #expect(metadata.shard == nil && metadata.jobs == nil)
        #expect(metadata.mergedShards == (try shards.map { try Self.metadata($0).runID }))
        #expect(metadata.status == .completed)
        #expect(!metadata.commandLine.contains("--shard"))
        #expect(!FileManager.default.fileExists(atPath: mergedRun.appendingPathComponent(ResultsDirectory.FileName.jobs).path))
        #expect(try Self.metadata(shards[0]).shard == RunShard(index: 1, count: 2))
    }

    @Test(
        "a lone shard is not a run: gate and compare refuse it on either side, export refuses it, report says so",
        .enabled(if: binary != nil, "needs the release build: swift build -c release"))
    func loneShardIsRefused() throws {
        let scratch = try SameMachineGateTests.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let options = ["--suite", "memory", "--quick", "--strategy", "plain", "--strategy", "observable", "--jobs", "1", "--no-heap-profiles"]
        let whole = try Self.run(options, output: scratch.appendingPathComponent("whole"))
        let shard = try Self.run(options + ["--shard", "1/2"], output: scratch.appendingPathComponent("shard"))
        // The shard lacks observable's rows: judged as a run, they would be missing or unseen.
        #expect(try Self.rows(shard).allSatisfy { $0.strategy != "observable" })
        let asCurrent = try Self.obsbench(["gate", "--baseline", whole.path, "--current", shard.path, "--counts-only"])
        #expect(asCurrent.status == ExitStatus.failure.rawValue)
        #expect(asCurrent.errors.contains("shard 1 of 2"), "\(asCurrent.errors)")
        let asBaseline = try Self.obsbench(["compare", shard.path, whole.path, "--counts-only"])
        #expect(asBaseline.status == ExitStatus.baselineUnusable.rawValue)
        #expect(asBaseline.errors.contains("NO VERDICT (baseline-unreadable)") && asBaseline.errors.contains("obsbench merge"), "\(asBaseline.errors)")
        let export = try Self.obsbench(["export", shard.path, "--format", "bmf"])
        #expect(export.status == ExitStatus.failure.rawValue)
        let report = try Self.obsbench(["report", shard.path, "--no-charts", "--no-claims"])
        #expect(report.status == 0)
        #expect(try String(contentsOf: shard.appendingPathComponent(ResultsDirectory.FileName.reportMarkdown), encoding: .utf8).contains("Only part of a run"))
    }

    @Test(
        "merge refuses, naming why and writing nothing: a shard missing, a shard twice, shards made with other options or at another revision, an interrupted shard, a whole run",
        .enabled(if: binary != nil, "needs the release build: swift build -c release"))
    func refusals() throws {
        let scratch = try SameMachineGateTests.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let options = ["--suite", "memory", "--quick", "--strategy", "plain", "--strategy", "observable", "--jobs", "1", "--no-heap-profiles"]
        let first = try Self.run(options + ["--shard", "1/2"], output: scratch.appendingPathComponent("first"))
        let second = try Self.run(options + ["--shard", "2/2"], output: scratch.appendingPathComponent("second"))
        let otherOptions = try Self.run(options + ["--rounds", "2", "--shard", "2/2"], output: scratch.appendingPathComponent("other-options"))
        let whole = try Self.run(options, output: scratch.appendingPathComponent("whole"))
        func edited(_ name: String, _ change: (inout RunMetadata) -> Void) throws -> URL {
            let copy = scratch.appendingPathComponent(name)
            try FileManager.default.copyItem(at: second, to: copy)
            var metadata = try Self.metadata(copy)
            change(&metadata)
            let encoder = JSONEncoder()
            try encoder.encode(metadata).write(to: copy.appendingPathComponent(ResultsDirectory.FileName.metadata))
            return copy
        }
        let otherRevision = try edited("other-revision") { $0.gitRevision = "0123456789ab" }
        let interrupted = try edited("interrupted") { $0.status = .interrupted }

        let cases: [(shards: [URL], message: String)] = [
            ([first], "shard 2/2 missing"),
            ([first, first, second], "shard 1/2 given 2 times"),
            ([first, otherOptions], "made differently: command line"),
            ([first, otherRevision], "made differently: git revision"),
            ([first, interrupted], "did not finish: run.json says interrupted"),
            ([first, whole], "is not a shard"),
        ]
        for (index, (shards, fragment)) in cases.enumerated() {
            let output = scratch.appendingPathComponent("merged-\(index)")
            let merge = try Self.obsbench(["merge"] + shards.map(\.path) + ["--output", output.path])
            #expect(merge.status == ExitStatus.usage.rawValue, "\(fragment): \(merge.errors)")
            #expect(merge.errors.contains(fragment), "\(merge.errors)")
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(fragment): nothing is written")
        }
        // The two that belong together merge.
        #expect(try Self.obsbench(["merge", first.path, second.path, "--output", scratch.appendingPathComponent("merged").path]).status == 0)
    }

    @Test(
        "instruction rows of merged shards are means over both shards' layouts, each profile one mean with no function twice, and the rows are one run's (latency, 2 layouts, 2 shards)",
        .enabled(if: InstructionCountTests.canCount, "needs valgrind"), .enabled(if: binary != nil, "needs the release build: swift build -c release"))
    func mergedLayouts() throws {
        let scratch = try SameMachineGateTests.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let options = [
            "--suite", "latency", "--measure", "instructions", "--quick", "--layouts", "2", "--draws", "2", "--strategy", "plain", "--strategy", "observable", "--jobs", "1",
            // A drawn row (write-observed), rows counted in full, and observable's concrete loops.
            "--workload", "write-observed", "--workload", "write-unobserved", "--workload", "read-untracked", "--workload", "concrete-reference",
        ]
        // Jobs are numbered plain 1, plain 2, observable 1, observable 2: shard 1 counts layout 1
        // of each strategy, shard 2 layout 2.
        let shards = try (1...2).map { try Self.run(options + ["--shard", "\($0)/2"], output: scratch.appendingPathComponent("shard-\($0)")) }
        let whole = try Self.run(options, output: scratch.appendingPathComponent("whole"))
        let merge = try Self.obsbench(["merge", shards[0].path, shards[1].path, "--output", scratch.appendingPathComponent("merged").path])
        #expect(merge.status == 0, "\(merge.errors)")
        let merged = scratch.appendingPathComponent("merged").appendingPathComponent(ResultsDirectory.FileName.latest)

        let joined = try Self.rows(merged)
        #expect(joined.map(RowKey.init) == (try Self.rows(whole).map(RowKey.init)), "one run's rows, in its order")
        let layouts = try shards.map { try ResultsReader.read(file: $0.appendingPathComponent(ResultsDirectory.FileName.rounds).path) }
        let counted = joined.filter { $0.metric == .instructions }
        #expect(counted.count >= 8)
        for row in counted {
            // Layout 1 from shard 1, layout 2 from shard 2; their mean, as RoundMerger takes it.
            let values = try layouts.map { rows in try #require(rows.first { RowKey($0) == RowKey(row) }?.statistics?.median) }
            #expect(row.rounds == 2 && row.isMeanOverLayouts, "\(RowKey(row))")
            #expect(row.value == Statistics(values)?.mean, "\(RowKey(row)): \(String(describing: row.value)) from \(values)")
            #expect(row.note.contains("mean of 2 memory layouts"))
        }
        // One profile per counted row, the layouts' mean: a function named by both shards (the
        // worker's stripped copy lies in a scratch folder of each shard's own) is listed once.
        let profiles = try ProfileRow.read(file: merged.appendingPathComponent(ResultsDirectory.profileFileName).path)
        #expect(Set(profiles.map(\.key)) == Set(counted.map(RowKey.init)))
        for (key, functions) in Dictionary(grouping: profiles, by: \.key) {
            let names = functions.map { "\($0.object) \($0.function)" }
            #expect(Set(names).count == names.count, "\(key): a function listed twice")
            let total = functions.compactMap(\.selfPerOperation).reduce(0, +)
            let value = try #require(counted.first { RowKey($0) == key }?.value)
            #expect(abs(total - value) <= max(0.5, abs(value) * 0.001), "\(key): profile \(total), row \(value)")
        }
    }

    // MARK: Helpers

    /// Runs `obsbench run ARGUMENTS --output OUTPUT` and returns the run folder it wrote.
    static func run(_ arguments: [String], output: URL) throws -> URL {
        let result = try obsbench(["run"] + arguments + ["--output", output.path, "--format", "csv"])
        #expect(result.status == 0, "obsbench run \(arguments.joined(separator: " ")): \(result.errors)")
        return output.appendingPathComponent(ResultsDirectory.FileName.latest).resolvingSymlinksInPath()
    }

    /// Runs the release `obsbench` with `arguments`: its exit status and standard error.
    static func obsbench(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(binary))
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    static func rows(_ run: URL) throws -> [ResultRow] {
        try ResultsReader.read(file: run.appendingPathComponent(ResultsDirectory.FileName.results).path)
    }

    static func metadata(_ run: URL) throws -> RunMetadata {
        try JSONDecoder().decode(RunMetadata.self, from: Data(contentsOf: run.appendingPathComponent(ResultsDirectory.FileName.metadata)))
    }
}
