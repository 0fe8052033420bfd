import Foundation

/// Whether two runs were made alike enough for the gate to compare them: the facts in their
/// `run.json` that decide the numbers the comparison would judge. A difference is a refusal
/// (exit 5, `ExitStatus.baselineUnusable`) naming both sides, never a list of false regressions.
public enum RunCompatibility {
    /// The reasons `baseline` and `current` cannot be compared under `policy`; empty when they can
    /// (or when either run has no `run.json` to tell).
    public static func problems(baseline: RunResults, current: RunResults, policy: GatePolicy) -> [String] {
        let found = differences(baseline: baseline, current: current, policy: policy)
        return found.countingRule + found.madeDifferently
    }

    /// The reasons `baseline` and `current` cannot be compared, in two kinds:
    /// - `countingRule`: how obsbench itself counts instructions (the threads counted, Callgrind's
    ///   options, the workers' environment, the counted loops' lengths) differs. That is the
    ///   baseline going stale when obsbench changes: a run of the binary under test made the same
    ///   way on the same machine cannot compare with it either (``NoVerdict/Reason/baselineStale``).
    /// - `madeDifferently`: everything else (the toolchain, the CPU model, Valgrind, the measure,
    ///   the build, `--quick`, the allocator, the rounds): a baseline made elsewhere or otherwise.
    public static func differences(baseline: RunResults, current: RunResults, policy: GatePolicy) -> (countingRule: [String], madeDifferently: [String]) {
        guard let old = baseline.metadata, let new = current.metadata else { return ([], []) }
        var problems: [String] = []
        var countingRule: [String] = []
        func differ(_ what: String, _ a: String, _ b: String) {
            if a != b { problems.append("\(what): the baseline's is \(a), the run's is \(b)") }
        }
        func counts(_ what: String, _ a: String, _ b: String) {
            if a != b { countingRule.append("\(what): the baseline's is \(a), the run's is \(b)") }
        }
        let (judgesInstructions, judgesTimings, judgesCounts) = judges(baseline, current, policy: policy)

        let oldMeasures = Set(old.measuresOrDefault), newMeasures = Set(new.measuresOrDefault)
        if oldMeasures.isDisjoint(with: newMeasures) {
            differ("measure", list(old.measuresOrDefault), list(new.measuresOrDefault))
        }
        differ("build configuration", old.buildConfiguration, new.buildConfiguration)
        if judgesInstructions {
            // Instruction counts follow the compiled code exactly: another compiler, Valgrind or
            // counting set-up changes them without any change in the strategies.
            if let a = old.toolchain, let b = new.toolchain {
                differ("Swift toolchain", a, b)
            } else {
                differ("Swift version", old.swiftVersion, new.swiftVersion)
            }
            // glibc picks string and memory routines by the CPU's features, as Valgrind reports them.
            differ("CPU model", old.cpuModel, new.cpuModel)
            if let a = old.instructionCounting, let b = new.instructionCounting {
                differ("Valgrind", a.valgrindVersion, b.valgrindVersion)
                // Cache simulation adds estimates; it does not change what Ir counts.
                // How obsbench counts: a change here is obsbench's, and stales every baseline.
                counts("Callgrind options", countingOptions(a.options), countingOptions(b.options))
                counts("instruction-mode environment", a.environment.joined(separator: " "), b.environment.joined(separator: " "))
                counts(
                    "threads counted", a.countedThreads ?? InstructionFacts.everyThread, b.countedThreads ?? InstructionFacts.everyThread)
                counts("instruction loop lengths", lengths(a.settings), lengths(b.settings))
            }
        }
        if judgesCounts || judgesTimings {
            // --quick changes the sweeps and the sampling; counts and timings of the two differ by design.
            differ("--quick", String(old.quick), String(new.quick))
        }
        // The allocator decides every memory count: compared wherever either side's run.json or
        // the rows both runs share come from a suite that runs on it, so that a run cannot drop
        // the suite from its run.json to dodge the comparison.
        if judgesCounts, usesCountingAllocator(old) || usesCountingAllocator(new) || sharesCountingAllocatorRows(baseline, current) {
            differ("allocator", old.allocator, new.allocator)
        }
        if judgesTimings, let a = old.rounds, let b = new.rounds {
            for suite in Set(a.keys).intersection(b.keys).sorted() where a[suite] != b[suite] {
                differ("worker rounds of \(suite) (timings are tested across rounds)", String(a[suite]!), String(b[suite]!))
            }
        }
        return (countingRule, problems)
    }

    /// Why the gate refuses the pair before comparing a row, or nil: both sides are one run (the
    /// same folder, or the same run id: a stale `results/latest` given as the current run), or a
    /// side's `run.json` says it did not complete, or lacks a field a check of these runs needs
    /// (the toolchain and Valgrind's facts for instruction counts, the rounds for timings). A
    /// missing `run.json` is the comparison's to refuse (``NoVerdict/Reason/fileMissing``).
    /// `sameMachine`: the two sides of a same-machine gate, started together by the gate itself,
    /// whose run ids (their start time, to the second) may be one; their folders still differ.
    ///
    /// ```swift
    /// RunCompatibility.refusal(baseline: base, current: base, policy: GatePolicy())?.reason  // .sameRun
    /// ```
    public static func refusal(baseline: RunResults, current: RunResults, policy: GatePolicy, sameMachine: Bool = false) -> NoVerdict? {
        let paths = [baseline.source, current.source].map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
        if paths[0] == paths[1] {
            return NoVerdict(.sameRun, "the baseline and the current run are one file, \(paths[0]): a run judged against itself shows nothing")
        }
        if !sameMachine, let old = baseline.metadata, let new = current.metadata, old.runID == new.runID {
            return NoVerdict(
                .sameRun,
                "the baseline (\(baseline.source)) and the current run (\(current.source)) are one run, \(old.runID): a copy of the run the baseline was made from, such as a stale results/latest, shows nothing"
            )
        }
        let (judgesInstructions, judgesTimings, _) = judges(baseline, current, policy: policy)
        var problems: [String] = []
        var disagreements: [String] = []
        for (side, run) in [("the baseline", baseline), ("the current run", current)] {
            guard let metadata = run.metadata else { continue }
            // The current run's error rows fail the gate row by row (``Verdict/workerFailed``,
            // exit 2), naming what failed; a baseline with errors is no baseline.
            if metadata.status != .completed, !(side == "the current run" && metadata.status == .completedWithErrors) {
                let errors = run.rows.filter(\.isError)
                problems.append(
                    "\(side)'s run.json says its status is \(metadata.status.rawValue), not completed"
                        + (errors.isEmpty ? "" : " (\(errors.count) error row(s), e.g. \(errors[0].suite) · \(errors[0].strategy): \(errors[0].note))"))
            }
            // The suites a run's rows come from are the suites its run.json says it ran: a row of
            // another suite was not made as the run says (the allocator, rounds and --quick it
            // declares are its suites').
            let unlisted = Set(run.rows.map(\.suite)).subtracting(metadata.suites).sorted()
            if !unlisted.isEmpty {
                disagreements.append(
                    "\(side)'s results.csv has rows of \(unlisted.joined(separator: ", ")), which its run.json's suites (\(metadata.suites.joined(separator: ", "))) do not list")
            }
            var absent: [String] = []
            if judgesInstructions, metadata.toolchain == nil { absent.append("toolchain") }
            if judgesInstructions, metadata.instructionCounting == nil { absent.append("instruction_counting") }
            if judgesTimings, metadata.rounds == nil { absent.append("rounds") }
            if !absent.isEmpty {
                problems.append("\(side)'s run.json has no \(absent.joined(separator: " or ")), which the checks of these runs need")
            }
        }
        if !disagreements.isEmpty { return NoVerdict(.resultsDisagree, disagreements.joined(separator: "; ")) }
        guard !problems.isEmpty else { return nil }
        return NoVerdict(.runIncomplete, problems.joined(separator: "; "))
    }

    /// What kinds of metric a comparison of the two runs under `policy` would judge: instruction
    /// counts, timings (unless `policy` reports them), exact counts (of cost or behaviour).
    static func judges(_ baseline: RunResults, _ current: RunResults, policy: GatePolicy) -> (instructions: Bool, timings: Bool, counts: Bool) {
        let shared = sharedMetrics(baseline.rows, current.rows)
        return (
            shared.contains { $0.gate == .instructions }, policy.gatesTimings && shared.contains { $0.gate == .timing }, shared.contains { [.count, .behaviour].contains($0.gate) }
        )
    }

    static func sharedMetrics(_ a: [ResultRow], _ b: [ResultRow]) -> Set<Metric> {
        Set(a.filter { !$0.isError }.map(\.metric)).intersection(b.filter { !$0.isError }.map(\.metric))
    }

    /// Whether the run has a suite whose counts come from the allocator (memory).
    static func usesCountingAllocator(_ metadata: RunMetadata) -> Bool {
        metadata.suites.contains { SuiteRegistry.suite(named: $0)?.runsOnJemalloc == true }
    }

    /// Whether both runs have rows of a suite whose counts come from the allocator.
    static func sharesCountingAllocatorRows(_ a: RunResults, _ b: RunResults) -> Bool {
        let jemallocSuites = Set(SuiteRegistry.all.filter(\.runsOnJemalloc).map(\.name))
        let suites = { (run: RunResults) in Set(run.rows.filter { !$0.isError && jemallocSuites.contains($0.suite) }.map(\.suite)) }
        return !suites(a).isDisjoint(with: suites(b))
    }

    static func countingOptions(_ options: [String]) -> String {
        options.filter { !$0.hasPrefix("--cache-sim") && !CallgrindInvocation.cacheOptions.contains($0) }.joined(separator: " ")
    }

    static func list(_ measures: [CostMeasure]) -> String {
        measures.map(\.rawValue).joined(separator: " and ")
    }

    /// The counted loops' lengths, which decide what a loop's fixed costs add per operation, and
    /// the records a synchronous row is counted on, which decide what it is the mean of. Not the
    /// repeats or the layouts: they decide how a row's value is summarised, and the gate judges
    /// each side's layouts as they are (a base binary older than layouts counts one).
    static func lengths(_ settings: InstructionSettings) -> String {
        let loops =
            "\(settings.shortLength)/\(settings.longLength)"
            + (settings.pairInstructions > 0 ? ", costly operations on loops divided to pairs of about \(settings.pairInstructions) Ir" : "")
        guard settings.draws > 1 else { return loops }
        return loops + "; synchronous rows on \(settings.draws) records, \(settings.drawLength) ops each after \(settings.drawWarmUp)"
    }
}
