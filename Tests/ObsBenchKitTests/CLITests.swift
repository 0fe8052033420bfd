import ArgumentParser
import BuiltInStrategies
import Foundation
import ObservationStrategies
import Testing

@testable import ObsBenchCLI
@testable import ObsBenchKit

/// Bad input on the command line: a clear message naming the problem and exit status 64 (usage),
/// before anything is measured.
@Suite("Command line")
struct CLITests {
    init() { BuiltInStrategiesKnown.declare() }

    /// Parses `arguments` as the root command would and returns the exit code and message of the failure.
    func failure(_ arguments: [String]) -> (code: Int32, message: String)? {
        do {
            var command = try ObsBenchCommand.parseAsRoot(arguments)
            try command.validate()
            return nil
        } catch {
            return (ObsBenchCommand.exitCode(for: error).rawValue, ObsBenchCommand.message(for: error))
        }
    }

    @Test("an unknown suite exits 64 and lists the valid suites")
    func unknownSuite() throws {
        let result = try #require(failure(["--suite", "latencyy"]))
        #expect(result.code == 64)
        #expect(result.message.contains("The value 'latencyy' is invalid for '--suite <name>'"))
        #expect(result.message.contains((["all"] + SuiteRegistry.names).map { "  - \($0)" }.joined(separator: "\n")))
    }

    @Test("an unknown strategy exits 64 and lists the valid strategies")
    func unknownStrategy() throws {
        let result = try #require(failure(["--suite", "latency", "--strategy", "observable", "--strategy", "mobx"]))
        #expect(result.code == 64)
        #expect(result.message.contains("The value 'mobx' is invalid for '--strategy <name>'"))
        #expect(result.message.contains(StrategyRegistry.names.map { "  - \($0)" }.joined(separator: "\n")))
    }

    @Test("an unknown format exits 64 and names the formats")
    func unknownFormat() throws {
        let result = try #require(failure(["--format", "xml"]))
        #expect(result.code == 64)
        #expect(result.message.contains("xml"))
    }

    @Test(
        "absurd sizes exit 64 with the allowed range",
        arguments: [["--objects", "0"], ["--objects", "-5"], ["--objects", "10000000000"], ["--objects", "many"], ["--worker-timeout", "0"]])
    func badSizes(arguments: [String]) throws {
        let result = try #require(failure(arguments))
        #expect(result.code == 64, "\(arguments): \(result.message)")
    }

    @Test(
        "filters, --quick and formats combine",
        arguments: [
            ["--suite", "all", "--quick"],
            ["run", "--suite", "latency", "--strategy", "plain", "--strategy", "grdb-pool", "--quick", "--format", "markdown"],
            ["--strategy", "published", "--objects", "100", "--format", "csv", "--output", "/tmp/x"],
            ["list"],
        ])
    func validCombinations(arguments: [String]) {
        #expect(failure(arguments) == nil)
    }

    @Test("strategies run in registry order, each once, whatever order they were named in")
    func strategyOrder() throws {
        let named = try ["grdb-pool", "plain", "grdb-pool"].map { try #require(StrategyEntry(argument: $0)) }
        #expect(Selection.strategies(named).map(\.name) == ["plain", "grdb-pool"])
        let suites = try ["all", "latency"].map { try #require(SuiteChoice(argument: $0)) }
        #expect(Selection.suites(suites).map(\.name) == SuiteRegistry.names)
        #expect(Selection.suites([try #require(SuiteChoice(argument: "pool")), try #require(SuiteChoice(argument: "latency"))]).map(\.name) == ["latency", "pool"])
        #expect(StrategyEntry(argument: "mobx") == nil && SuiteChoice(argument: "latencyy") == nil)
    }

    @Test("an output path that is a file, or cannot be created, fails before any measuring")
    func unwritableOutput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ResultsDirectory.SetupError.self) { try ResultsDirectory(output: file.path, runID: "r") }
        #expect(throws: ResultsDirectory.SetupError.self) { try ResultsDirectory(output: "/proc/obsbench-cannot-write", runID: "r") }
    }

    @Test("a run folder keeps appended rows, writes run.json whole, and points latest at itself")
    func resultsDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-results-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try ResultsDirectory(output: root.path, runID: "run-1")
        let row = ResultRow.error(runID: "run-1", suite: "latency", strategy: "plain", message: "boom, \"quoted\"")
        try directory.append(results: [row])
        try directory.append(
            rounds: [row], samples: [SampleRow(runID: "run-1", suite: "latency", workload: "w", strategy: "plain", metric: .latency, unit: "ns/op", index: 0, value: 1, round: 2)])
        try directory.append(results: [row])
        #expect(try ResultsReader.read(file: directory.resultsFile.path) == [row, row])
        #expect(try ResultsReader.read(file: directory.roundsFile.path) == [row])
        #expect(try SamplesReader.read(file: directory.samplesFile.path).map(\.round) == [2])
        #expect(try SamplesReader.read(file: directory.samplesFile.path).count == 1)
        try directory.markLatest()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("latest").path) == "run-1")
        let metadata = RunMetadata(
            runID: "run-1", time: "t", gitRevision: "g", host: "h", cpuModel: "c", coreCount: 2, swiftVersion: "6.3", buildConfiguration: "release", allocator: "system",
            suites: ["latency"], strategies: ["plain"], quick: true, commandLine: ["obsbench"], status: .interrupted, finishedTime: nil, clockResolutionNanoseconds: 1,
            clockCallCostNanoseconds: 20.5)
        try directory.writeMetadata(metadata)
        let decoded = try JSONDecoder().decode(RunMetadata.self, from: Data(contentsOf: directory.metadataFile))
        #expect(decoded == metadata)
    }
}

/// `list --format json`: what plot-scripts/ and .ci/run read instead of repeating names.
@Suite("list --format json")
struct ListJSONTests {
    init() { BuiltInStrategiesKnown.declare() }

    @Test("every suite with its chart and whether it measures strategies, every strategy, every metric")
    func catalog() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ListCommand.Catalog().json().utf8)) as? [String: Any])
        let suites = try #require(json["suites"] as? [[String: Any]])
        #expect(suites.compactMap { $0["name"] as? String } == SuiteRegistry.names)
        #expect(suites.compactMap { $0["chart"] as? String } == SuiteRegistry.names.map { "plots/\($0).svg" })
        let independent = suites.filter { ($0["measures_strategies"] as? Bool) == false }.compactMap { $0["name"] as? String }
        #expect(independent == ["hops", "store-isolation", "pool"])
        let strategies = try #require(json["strategies"] as? [[String: Any]])
        #expect(strategies.compactMap { $0["name"] as? String } == StrategyRegistry.names)
        #expect(strategies.allSatisfy { ($0["capabilities"] as? [String: Any])?["delivery"] is String })
        let metrics = try #require(json["metrics"] as? [[String: Any]])
        #expect(metrics.contains { $0["name"] as? String == "latency" && $0["gate"] as? String == "timing" && $0["unit"] as? String == "ns/op" })
        #expect(metrics.contains { $0["gate"] as? String == "informational" && $0["reason"] is String })
        #expect(metrics.contains { $0["name"] as? String == "fresh_bytes_per_object" && $0["gate"] as? String == "count" })
    }
}

/// What a run plan starts: one worker per strategy for a strategy suite, one with none otherwise.
@Suite("Run plan")
struct RunPlanTests {
    init() { BuiltInStrategiesKnown.declare() }

    @Test("a suite that measures no strategy gets one worker a round, whose job names none; a job is one JSON value that the worker decodes unchanged")
    func workersPerSuite() throws {
        let strategies = Array(StrategyRegistry.all.prefix(3))
        let plan = RunPlan(suites: [.latency, .hops], strategies: strategies, quick: true, objects: nil, workerTimeoutSeconds: 60)
        #expect(plan.strategies(of: .latency).map { $0?.name } == strategies.map(\.name))
        #expect(plan.strategies(of: .hops).count == 1 && plan.strategies(of: .hops)[0] == nil)
        let hops = plan.workerJob(suite: .hops, strategy: nil, runID: "r")
        #expect(hops == WorkerJob(suite: "hops", strategy: nil, runID: "r", quick: true, rounds: Suite.hops.defaultRounds))
        let latency = plan.workerJob(suite: .latency, strategy: strategies[1], runID: "r", round: 2)
        #expect(latency.strategy == strategies[1].name && latency.round == 2 && latency.rounds == 8 && latency.quick && latency.instructionSettings == nil)
        // Counted: the plan's own instruction settings (its layouts, draws and cache simulation), and the layout as the round.
        var counted = plan
        counted.instructionSettings = .quick(cacheSimulation: true)
        counted.instructionSettings.draws = 7
        let job = counted.workerJob(suite: .latency, strategy: strategies[0], runID: "r", round: 3, measure: .instructions)
        #expect(job.instructionSettings == counted.instructionSettings && job.rounds == InstructionSettings.defaultLayouts && job.round == 3)
        // What the worker decodes is what the plan built, and names what it runs.
        let decoded = try WorkerJob(json: job.json)
        #expect(decoded == job)
        let resolved = try decoded.resolve(strategies: strategies)
        #expect(resolved.suite.name == "latency" && resolved.strategy?.name == strategies[0].name)
        #expect(WorkerJob.arguments(job) == ["worker", "--job", job.json])
        // latency: 8 rounds × 3 strategies; hops: one worker a round, its rounds' own.
        #expect(plan.workerCount == 8 * 3 + Suite.hops.defaultRounds)
    }

    @Test("workers side by side start untimed strategies first, in the plan's order, then the one whose last worker took longest")
    func longestFirst() {
        func job(_ strategy: String, _ round: Int) -> RunJob { RunJob(suite: "latency", measure: .instructions, strategy: strategy, round: round, rounds: 5) }
        let pending = [job("plain", 2), job("observable", 2), job("published", 1), job("grdb-queue", 1)]
        #expect(BenchmarkRun.nextJob(pending, seconds: [:]) == 0)
        let timed = [BenchmarkRun.durationKey(job("plain", 1)): 6.7, BenchmarkRun.durationKey(job("observable", 1)): 13.0]
        #expect(BenchmarkRun.nextJob(pending, seconds: timed) == 2, "published has no time yet")
        #expect(BenchmarkRun.nextJob(Array(pending.prefix(2)), seconds: timed) == 1, "observable's last worker took longer")
    }

    @Test("--workload keeps the workloads it names, by their own names or their rows', in the suite's order; a suite left with none is not run; the worker runs what its job names")
    func workloadsChosen() throws {
        let strategies = Array(StrategyRegistry.all.prefix(2))
        // A row's name (a concrete loop's) picks the workload that writes it.
        let names = ["write-observed", "read-untracked-concrete", "read-untracked"]
        let plan = RunPlan(suites: [.latency, .hops, .derived], strategies: strategies, quick: true, objects: nil, workerTimeoutSeconds: 60, workloads: names)
        #expect(plan.suites.map(\.name) == ["latency"])
        #expect(plan.suites[0].workloads.map(\.name) == ["read-untracked", "write-observed", "concrete-reference"])
        #expect(plan.workerCount == 8 * 2)
        let job = plan.workerJob(suite: plan.suites[0], strategy: strategies[0], runID: "r")
        #expect(job.workloads == names)
        let resolved = try WorkerJob(json: job.json).resolve(strategies: strategies)
        #expect(resolved.suite.workloads.map(\.name) == ["read-untracked", "write-observed", "concrete-reference"])
        // Without --workload: every workload, and the job's JSON has no such key (older workers read it).
        let whole = RunPlan(suites: [.latency], strategies: strategies, quick: true, objects: nil, workerTimeoutSeconds: 60)
        let wholeJob = whole.workerJob(suite: .latency, strategy: strategies[0], runID: "r")
        #expect(wholeJob.workloads == nil && !wholeJob.json.contains("workloads"))
        #expect(try wholeJob.resolve(strategies: strategies).suite.workloads.count == Suite.latency.workloads.count)
    }
}
