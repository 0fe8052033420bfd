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

    @Option(
        name: .customLong("suite"),
        help: ArgumentHelp(
            "A suite to run; repeatable. `all` runs every suite.",
            discussion: "Suites: all, \(SuiteRegistry.names.joined(separator: ", ")).",
            valueName: "name"))
    var suites: [SuiteChoice] = [.all]

    @Option(
        name: .customLong("strategy"),
        help: ArgumentHelp(
            "Only run this strategy; repeatable. Default: every strategy.",
            discussion: "Strategies: \(Registered.names.joined(separator: ", ")). `plain` is always useful: ratios are to it.",
            valueName: "name"))
    var strategies: [StrategyEntry] = []

    @Option(
        name: .customLong("workload"),
        help: ArgumentHelp(
            "Only run this workload of the chosen suites; repeatable. Default: every workload.",
            discussion:
                "A workload's name as `obsbench list` shows it (write-observed, scaling-shared, fan-out), or the name of rows it writes (membership-cached, read-untracked-concrete). Suites left without a workload are not run. run.json records the choice; a gate against a baseline of every workload finds the others missing.",
            valueName: "name"))
    var workloads: [String] = []

    @Flag(
        help:
            "Sized for CI: timing samples of about 0.1 s per measurement instead of 0.5 s; instruction loops of 200/600 operations instead of 500/1500 (divided for an operation so costly that a pair would hold over 20 M Ir, not 50 M)."
    )
    var quick = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Records per store (1...1000000). Default: each suite's own (latency: 1000; its view-scope at most \(ViewScopeWorkload.storeSize)).",
            valueName: "n"))
    var objects: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The largest subscriber count of the scaling suite's sweep (1...100000). Default: 10000 (--quick: 1000).",
            discussion: "The sweep is 1, 10, 100… below it, then the count itself. With 10,000 views the GRDB strategies take minutes per topology.",
            valueName: "n"))
    var subscribers: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Worker rounds per strategy (1...20). Default: each suite's own (latency: 8).",
            discussion:
                "The strategies take turns round after round and each round's samples are pooled, so every strategy is measured across the whole run, not during one stretch of a shared machine's noise. Each round gets 1/rounds of the sampling budget.",
            valueName: "n"))
    var rounds: Int?

    @Option(
        name: .customLong("measure"),
        help: ArgumentHelp(
            "How to measure cost per operation: time (ns/op, the default) or instructions (Ir/op under Valgrind's Callgrind); repeatable for both.",
            discussion:
                "instructions: every workload that can count them (latency, scaling, and hops at 1 caller) runs in a worker under valgrind --tool=callgrind, counting only around the measured loop, at two fixed loop lengths; exact and repeatable on a shared machine, so a CI gate can judge a 1% change. It misses waiting, cache misses and contention, which time sees. Needs valgrind (Debian: apt-get install valgrind) when obsbench is built and run.",
            valueName: "time|instructions"))
    var measures: [CostMeasure] = [.time]

    @Option(
        help: ArgumentHelp(
            "How many workers of exact counts run at once (default: the core count): Callgrind workers (--measure instructions) and the memory suite's. Counts do not depend on it; timing workers always run one at a time.",
            valueName: "n"))
    var jobs: Int?

    @Flag(
        name: .customLong("no-heap-profiles"),
        help: "Skip the memory suite's heap profiles by allocation site (memprofile.csv: a second memory worker per strategy, on jemalloc with profiling on).")
    var noHeapProfiles = false

    @Flag(
        name: .customLong("cache-sim"),
        help:
            "With --measure instructions: Callgrind also simulates fixed caches; each row gets l1_misses and ll_misses per op and an estimated_cycles figure (an estimate), and the scans (scan-all) are counted."
    )
    var cacheSimulation = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --measure instructions: memory layouts each row is counted in (1...16), one worker each. Default: \(InstructionSettings.defaultLayouts).",
            discussion:
                "Each layout maps the executable, its libraries and the heap at a seeded address (Valgrind's --aspace-minaddr, the worker started through the dynamic loader), pads the heap and moves the main thread's stack (OBSBENCH_LAYOUT) before the measured code runs. Rows whose code hashes addresses move between layouts as they move between builds; a row's value is the layouts' mean and their spread its uncertainty (docs/gate.md).",
            valueName: "n"))
    var layouts: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --measure instructions: records a synchronous strategy's read-in-view, write-observed and transaction-2-fields rows are counted on in each layout (1...400). Default: \(InstructionSettings.defaultDraws).",
            discussion:
                "Which entries of a hash table collide depends on where the table lies, so an operation that looks up observers by key path costs one of a few amounts on a given record (docs/gate.md, \"Draws\"). The row's value in a layout is the mean over records 1...n, each counted after its own warm-up; 1 counts record 1 alone, as asynchronous strategies are (3 repeats, their median).",
            valueName: "n"))
    var draws: Int?

    @Option(
        help: ArgumentHelp(
            "Run only the K-th of N parts of the run's jobs (1 ≤ K ≤ N), for a CI matrix; join the N shards' folders with `obsbench merge`.",
            discussion:
                "The jobs (suite × measure × strategy × round or memory layout, one worker each) are numbered in that order from 0 and dealt round robin: shard K runs those whose number leaves K − 1 over when divided by N, so each suite's jobs and each strategy's rounds are spread over the shards. Give every shard the same other options. A shard's run.json says which part it is; compare, gate and export refuse a lone shard (docs/results-format.md, \"Shards\").",
            valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Folder for run folders and the `latest` link.", valueName: "dir"))
    var output = "results"

    @Option(
        help: ArgumentHelp(
            "What to print on standard output: table, csv, json or markdown. Tables (table, markdown) come suite by suite, each as soon as its suite is done; csv and json at the end.",
            valueName: "format"))
    var format: OutputFormat = .table

    @Option(
        name: .customLong("worker-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Seconds before a worker (one suite × strategy) is stopped and recorded as an error.", valueName: "seconds"))
    var workerTimeout: Double = 900

    func validate() throws {
        try Selection.validateObjects(objects)
        try Selection.validateSubscribers(subscribers)
        try Selection.validateRounds(rounds)
        guard workerTimeout > 0, workerTimeout <= 86_400 else {
            throw ValidationError("--worker-timeout must be between 0 and 86400 seconds, got \(workerTimeout)")
        }
        if let jobs, !(1...64).contains(jobs) {
            throw ValidationError("--jobs must be between 1 and 64, got \(jobs)")
        }
        if cacheSimulation, !measures.contains(.instructions) {
            throw ValidationError("--cache-sim needs --measure instructions: caches are simulated by Callgrind")
        }
        if let layouts {
            guard (1...16).contains(layouts) else { throw ValidationError("--layouts must be between 1 and 16, got \(layouts)") }
            guard measures.contains(.instructions) else { throw ValidationError("--layouts needs --measure instructions: layouts are what instruction counts are averaged over") }
        }
        if let draws {
            guard (1...400).contains(draws) else { throw ValidationError("--draws must be between 1 and 400, got \(draws)") }
            guard measures.contains(.instructions) else { throw ValidationError("--draws needs --measure instructions: draws are what instruction counts are averaged over") }
        }
        try Selection.validateWorkloads(workloads, in: Selection.suites(suites))
        let plan = try makePlan()
        if plan.jobs.isEmpty {
            throw ValidationError(
                "nothing to measure: \(plan.suites.map(\.name).joined(separator: ", ")) cannot be measured in \(measures.map(\.rawValue).joined(separator: " and ")) (instructions: \(SuiteRegistry.all.filter { !$0.instructionWorkloads.isEmpty }.map(\.name).joined(separator: ", ")))"
            )
        }
    }

    private var instructionSettings: InstructionSettings {
        var settings = quick ? InstructionSettings.quick(cacheSimulation: cacheSimulation) : .standard(cacheSimulation: cacheSimulation)
        if let layouts { settings.layouts = layouts }
        if let draws { settings.draws = draws }
        return settings
    }

    private func makePlan() throws -> RunPlan {
        var part: RunShard?
        if let shard {
            do {
                part = try RunShard(parsing: shard)
            } catch {
                throw ValidationError(error.description)
            }
        }
        return RunPlan(
            suites: Selection.suites(suites), strategies: Selection.strategies(strategies),
            quick: quick, objects: objects, rounds: rounds, subscribers: subscribers, workerTimeoutSeconds: workerTimeout,
            measures: measures, instructionSettings: instructionSettings,
            instructionJobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, shard: part, heapProfiles: !noHeapProfiles, workloads: workloads)
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
        let names = plan.strategies.map(\.name)
        // Tables are printed suite by suite as each is done (what the run would print at its end,
        // only sooner); csv and json are one document of the whole run's rows, printed at the end.
        var stream: SummaryStream? =
            switch format {
            case .table: SummaryStream(style: .text, strategies: names, descriptors: plan.strategies.map(\.descriptor))
            case .markdown: SummaryStream(style: .markdown, strategies: names, descriptors: plan.strategies.map(\.descriptor))
            case .csv, .json: nil
            }
        let suiteDone: @MainActor (Suite, [ResultRow]) -> Void = { suite, rows in
            guard let text = stream?.text(of: suite, rows: rows), !text.isEmpty else { return }
            Console.print(text)
            Console.flush()
        }
        let outcome: RunSession.Outcome
        do {
            outcome = try await RunSession.run(plan, output: output, workerExecutable: ReleaseRedirect.currentExecutable, suiteDone: suiteDone)
        } catch {
            Console.error("\(error)")
            throw error.status.exitCode
        }
        Console.print(stream?.ending ?? render(outcome.rows))
        Console.standardError("results: \(outcome.directory.resultsFile.path) (raw samples: samples.csv, run facts: run.json; \(output)/latest points here)\n")
        if let shard = plan.shard, shard.isPartial {
            Console.standardError(
                "this is shard \(shard) (\(plan.selectedJobs.count) of the run's \(plan.jobs.count) jobs): join all \(shard.count) with obsbench merge SHARD_DIR... --output DIR\n")
        }
        if !outcome.failures.isEmpty {
            Console.error("\(outcome.failures.count) worker(s) failed; their error rows are in results.csv:")
            for failure in outcome.failures { Console.standardError("  \(failure)\n") }
            throw ExitStatus.failure.exitCode
        }
    }

    /// The whole run's rows in a format that needs all of them (csv, json); the tables' formats
    /// are printed suite by suite (``SummaryStream``) and print nothing here.
    private func render(_ rows: [ResultRow]) -> String {
        switch format {
        case .table, .markdown:
            return ""
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
}
