import ArgumentParser
import Foundation
import ObsBenchKit
import ObservationStrategies

/// `obsbench run` (the default command): runs suites against strategies and writes the results.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run benchmark suites (the default command: `obsbench --suite all` is `obsbench run --suite all`)."
    )

    @Option(name: .customLong("suite"), help: ArgumentHelp(
        "A suite to run; repeatable. `all` runs every suite.",
        discussion: "Suites: all, \(SuiteRegistry.names.joined(separator: ", ")).",
        valueName: "name"))
    var suites: [String] = ["all"]

    @Option(name: .customLong("strategy"), help: ArgumentHelp(
        "Only run this strategy; repeatable. Default: every strategy.",
        discussion: "Strategies: \(Registered.names.joined(separator: ", ")). `plain` is always useful: ratios are to it.",
        valueName: "name"))
    var strategies: [String] = []

    @Flag(help: "Sized for CI: timing samples of about 0.1 s per measurement instead of 0.6 s; instruction loops of 200/600 operations instead of 500/1500.")
    var quick = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Records per store (1...1000000). Default: each suite's own (latency: 1000).", valueName: "n"))
    var objects: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The largest subscriber count of the scaling suite's sweep (1...100000). Default: 10000 (--quick: 1000).",
        discussion: "The sweep is 1, 10, 100… below it, then the count itself. With 10,000 views the GRDB strategies take minutes per topology.",
        valueName: "n"))
    var subscribers: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Worker rounds per strategy (1...20). Default: each suite's own (latency: 8).",
        discussion: "The strategies take turns round after round and each round's samples are pooled, so every strategy is measured across the whole run, not during one stretch of a shared machine's noise. Each round gets 1/rounds of the sampling budget.",
        valueName: "n"))
    var rounds: Int?

    @Option(name: .customLong("measure"), help: ArgumentHelp(
        "How to measure cost per operation: time (ns/op, the default) or instructions (Ir/op under Valgrind's Callgrind); repeatable for both.",
        discussion: "instructions: every workload that can count them (latency, and hops at 1 caller) runs in a worker under valgrind --tool=callgrind, counting only around the measured loop, at two fixed loop lengths; exact and repeatable on a shared machine, so a CI gate can judge a 1% change. It misses waiting, cache misses and contention, which time sees. Needs valgrind (Debian: apt-get install valgrind) when obsbench is built and run.",
        valueName: "time|instructions"))
    var measures: [CostMeasure] = [.time]

    @Flag(name: .customLong("cache-sim"), help: "With --measure instructions: Callgrind also simulates fixed caches and each row gets an estimated_cycles figure (an estimate).")
    var cacheSimulation = false

    @Option(help: ArgumentHelp("Folder for run folders and the `latest` link.", valueName: "dir"))
    var output = "results"

    @Option(help: ArgumentHelp("What to print on standard output at the end: table, csv, json or markdown.", valueName: "format"))
    var format: OutputFormat = .table

    @Option(name: .customLong("worker-timeout"), parsing: .unconditional, help: ArgumentHelp("Seconds before a worker (one suite × strategy) is stopped and recorded as an error.", valueName: "seconds"))
    var workerTimeout: Double = 900

    func validate() throws {
        _ = try Selection.suites(suites)
        _ = try Selection.strategies(strategies)
        try Selection.validateObjects(objects)
        try Selection.validateSubscribers(subscribers)
        try Selection.validateRounds(rounds)
        guard workerTimeout > 0, workerTimeout <= 86_400 else {
            throw ValidationError("--worker-timeout must be between 0 and 86400 seconds, got \(workerTimeout)")
        }
        if cacheSimulation, !measures.contains(.instructions) {
            throw ValidationError("--cache-sim needs --measure instructions: caches are simulated by Callgrind")
        }
        let plan = try makePlan()
        if plan.workerCount == 0 {
            throw ValidationError("nothing to measure: \(plan.suites.map(\.name).joined(separator: ", ")) cannot be measured in \(measures.map(\.rawValue).joined(separator: " and ")) (instructions: \(SuiteRegistry.all.filter { !$0.instructionWorkloads.isEmpty }.map(\.name).joined(separator: ", ")))")
        }
    }

    private func makePlan() throws -> RunPlan {
        RunPlan(
            suites: try Selection.suites(suites), strategies: try Selection.strategies(strategies),
            quick: quick, objects: objects, rounds: rounds, subscribers: subscribers, workerTimeoutSeconds: workerTimeout,
            measures: measures, instructionSettings: quick ? .quick(cacheSimulation: cacheSimulation) : .standard(cacheSimulation: cacheSimulation))
    }

    @MainActor
    func run() async throws {
        #if DEBUG
        ReleaseRedirect.handOffToReleaseBuild()
        #else
        try await runRelease()
        #endif
    }

    @MainActor
    private func runRelease() async throws {
        let plan = try makePlan()
        var callgrind: CallgrindInvocation?
        if plan.measures.contains(.instructions) {
            do {
                callgrind = try CallgrindInvocation.prepare(workerExecutable: ReleaseRedirect.currentExecutable, settings: plan.instructionSettings)
            } catch {
                ReleaseRedirect.warn("obsbench: \(error)")
                throw ExitStatus.unavailable.exitCode
            }
        }
        defer { callgrind?.cleanUp() }
        for suite in plan.suitesWithoutMeasures {
            ReleaseRedirect.warn("obsbench: skipping \(suite.name): none of its workloads can be measured in \(plan.measures.map(\.rawValue).joined(separator: " or ")) (--measure instructions counts the latency suite and hops at 1 caller)")
        }
        let startTime = Date()
        // Two runs started in the same second get -2, -3… rather than sharing a folder.
        var runID = Self.runID(for: startTime)
        var suffix = 1
        while FileManager.default.fileExists(atPath: URL(fileURLWithPath: output).appendingPathComponent(runID).path) {
            suffix += 1
            runID = Self.runID(for: startTime) + "-\(suffix)"
        }
        let directory: ResultsDirectory
        do {
            directory = try ResultsDirectory(output: output, runID: runID)
        } catch {
            ReleaseRedirect.warn("obsbench: \(error)")
            throw ExitStatus.cannotWriteOutput.exitCode
        }
        let run = BenchmarkRun(plan: plan, directory: directory, runID: runID, workerExecutable: ReleaseRedirect.currentExecutable, callgrind: callgrind)
        if let canary = Canary.current {
            ReleaseRedirect.warn("obsbench: \(Canary.variable) is set: \(canary.strategy)'s measured writes do \(SummaryTable.format(percent: canary.fraction)) extra work on purpose (a gate check). These numbers are not real.")
        }
        if plan.suites.contains(where: \.runsOnJemalloc), run.jemallocEnvironment == nil {
            ReleaseRedirect.warn("obsbench: jemalloc not found; the memory suite reads glibc's counters instead (no allocation counts). Install it: \(JemallocLibrary.installHint)")
        }
        var metadata = RunMetadata(
            runID: runID, time: ISO8601DateFormatter().string(from: startTime),
            gitRevision: HostFacts.gitRevision(in: FileManager.default.currentDirectoryPath),
            host: HostFacts.hostName, cpuModel: HostFacts.cpuModel, coreCount: HostFacts.coreCount,
            swiftVersion: HostFacts.swiftVersion, buildConfiguration: HostFacts.buildConfiguration,
            allocator: run.allocatorDescription, suites: plan.suites.filter { !plan.measures(of: $0).isEmpty }.map(\.name), strategies: plan.strategies.map(\.name),
            quick: quick, commandLine: CommandLine.arguments, status: .running, finishedTime: nil,
            clockResolutionNanoseconds: MonotonicClock.resolutionNanoseconds,
            clockCallCostNanoseconds: MonotonicClock.measureCallCost(),
            measures: plan.measures, instructionCounting: callgrind?.facts, toolchain: HostFacts.toolchain,
            rounds: Dictionary(uniqueKeysWithValues: plan.suites.filter { plan.measures(of: $0).contains(.time) }.map { ($0.name, plan.rounds(of: $0)) }),
            strategyDetails: plan.strategies.map(\.descriptor))
        try directory.writeMetadata(metadata)

        let interruptions = InterruptHandler { signal in
            run.launcher.terminateCurrentWorker()
            callgrind?.cleanUp()
            run.appendPooledRows()
            metadata.status = .interrupted
            metadata.finishedTime = ISO8601DateFormatter().string(from: Date())
            try? directory.writeMetadata(metadata)
            try? directory.markLatest()
            ReleaseRedirect.warn("\nobsbench: interrupted by signal \(signal); the rows of every worker that finished are in \(directory.resultsFile.path) (pooled), rounds.csv and samples.csv; run.json says interrupted")
            Foundation.exit(ExitStatus.interrupted(by: signal))
        }
        await run.execute()
        interruptions.cancel()

        metadata.status = run.failures.isEmpty ? .completed : .completedWithErrors
        metadata.finishedTime = ISO8601DateFormatter().string(from: Date())
        try directory.writeMetadata(metadata)
        try directory.markLatest()

        print(render(run.rows, plan: plan), terminator: "")
        ReleaseRedirect.warn("results: \(directory.resultsFile.path) (raw samples: samples.csv, run facts: run.json; \(output)/latest points here)")
        if !run.failures.isEmpty {
            ReleaseRedirect.warn("obsbench: \(run.failures.count) worker(s) failed; their error rows are in results.csv:")
            for failure in run.failures { ReleaseRedirect.warn("  \(failure)") }
            throw ExitStatus.failure.exitCode
        }
    }

    private func render(_ rows: [ResultRow], plan: RunPlan) -> String {
        let names = plan.strategies.map(\.name)
        switch format {
        case .table:
            var text = plan.suites.map { SummaryTable(suite: $0, rows: rows, strategies: names).text() }.joined(separator: "\n")
            if !names.contains("plain") { text += "(no ratios: `plain` was not run)\n" }
            return text
        case .markdown:
            return plan.suites.map { SummaryTable(suite: $0, rows: rows, strategies: names).markdown() }.joined(separator: "\n")
        case .csv:
            return CSV.line(ResultRow.columns) + rows.map { CSV.line($0.fields) }.joined()
        case .json:
            let objects = rows.map { row in
                Dictionary(uniqueKeysWithValues: zip(ResultRow.columns, row.fields))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return (try? String(decoding: encoder.encode(objects), as: UTF8.self) + "\n") ?? "[]\n"
        }
    }

    /// A sortable, filesystem-safe id from the start time, e.g. `2026-11-23T10-54-07Z`.
    static func runID(for date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date).replacingOccurrences(of: ":", with: "-")
    }
}

/// Turns SIGINT and SIGTERM into a callback on the main actor, so a run can stop its worker and
/// record that it was interrupted before exiting.
@MainActor
final class InterruptHandler {
    private var sources: [any DispatchSourceSignal] = []

    init(_ handler: @escaping @MainActor (Int32) -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { handler(signalNumber) }
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
    }
}
