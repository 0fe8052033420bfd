import ArgumentParser
import Foundation
import ObsBenchKit

/// The options `compare` and `gate` share: how to judge, and how to print.
struct GateOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A timing is a regression only if its median grows by more than this fraction (and the change is significant).", valueName: "fraction"))
    var threshold: Double = Self.defaultThreshold

    static let defaultThreshold = 0.05

    @Option(
        name: .customLong("metric-threshold"),
        help: ArgumentHelp(
            "A timing threshold for one metric, as METRIC=FRACTION or WORKLOAD/METRIC=FRACTION; repeatable.",
            valueName: "name=fraction"))
    var metricThresholds: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The chance of any false timing verdict in a run: timing changes beyond the threshold are tested on the logarithms of round medians (two-sided Yuen test: Welch's t on 20%-trimmed means) with Holm's correction over every timing judged.",
            valueName: "p"))
    var significance: Double = 0.05

    @Option(
        name: .customLong("async-count-tolerance"), parsing: .unconditional,
        help: ArgumentHelp(
            "How much an exact count of an asynchronous strategy may grow (their counts depend on thread timing). Synchronous strategies' counts may not grow at all.",
            valueName: "fraction"))
    var asyncCountTolerance: Double = 0.05

    @Option(
        name: .customLong("async-counts"),
        help: ArgumentHelp(
            "gate: judge the counts of an asynchronous strategy's rows that include its delivery within --async-count-tolerance, their instruction counts within --async-instruction-tolerance; report: list them, never fail on them (they move with thread timing). Rows with no asynchronous part, and pool rows (hops, stores), are judged either way.",
            valueName: "gate|report"))
    var asyncCounts: AsyncCounts = .report

    @Flag(
        name: .customLong("counts-only"),
        help: "Judge exact counts and instruction counts only, and report timings without judging them: the default (kept for scripts that say so).")
    var countsOnly = false

    @Flag(
        name: .customLong("judge-timings"),
        help: ArgumentHelp(
            "Judge timings too. By default they are reported, not judged: \(GatePolicy.separateInvocationTimings) Instruction counts, which do not drift, are the gate for speed (--measure instructions, or gate --base-binary)."
        ))
    var judgeTimings = false

    @Option(
        name: .customLong("instruction-tolerance"), parsing: .unconditional,
        help: ArgumentHelp(
            "How far a synchronous strategy's mean instruction count (Ir/op) may move either way before it is a regression or an improvement. A row whose memory layouts disagree is allowed more: \(Int(GatePolicy.layoutStandardErrors)) standard errors of the difference of the two layout means. A side counted in one layout gets at least \(NumberFormat.percent(GatePolicy.defaultSingleLayoutInstructionTolerance)) (another build's layout).",
            valueName: "fraction"))
    var instructionTolerance: Double = GatePolicy.defaultInstructionTolerance

    @Option(
        name: .customLong("async-instruction-tolerance"), parsing: .unconditional,
        help: ArgumentHelp(
            "The same for rows whose count includes other threads' timing: asynchronous strategies and actor hops (one layout: at least \(NumberFormat.percent(GatePolicy.defaultSingleLayoutAsynchronousInstructionTolerance))).",
            valueName: "fraction"))
    var asyncInstructionTolerance: Double = GatePolicy.defaultAsynchronousInstructionTolerance

    enum AsyncCounts: String, ExpressibleByArgument, CaseIterable {
        case gate, report
    }

    @Flag(name: .customLong("normalize-to-plain"), help: "Divide each timing by `plain`'s in the same run, so a slower machine is not a regression.")
    var normalizeToPlain = false

    @Option(help: ArgumentHelp("text or markdown.", valueName: "format"))
    var format: ReportFormat = .text

    @Option(
        name: .customLong("summary-file"),
        help: ArgumentHelp(
            "Also append the markdown report to this file (e.g. $GITHUB_STEP_SUMMARY).", valueName: "path"))
    var summaryFile: String?

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, markdown
    }

    @Flag(
        name: .customLong("full"),
        help:
            "Text: every row's whole key and the reason for its verdict, in the table (wider than 120 columns). By default the table fits 120 columns and the reasons follow it for the rows that fail, improve or have no verdict."
    )
    var full = false

    func validate() throws {
        for (name, value) in [
            ("--threshold", threshold), ("--significance", significance), ("--async-count-tolerance", asyncCountTolerance),
            ("--instruction-tolerance", instructionTolerance), ("--async-instruction-tolerance", asyncInstructionTolerance),
        ] {
            guard value.isFinite, value >= 0, value < 10 else { throw ValidationError("\(name) must be a fraction between 0 and 10, got \(value)") }
        }
        if countsOnly, normalizeToPlain {
            throw ValidationError("--counts-only and --normalize-to-plain conflict: with --counts-only no timing is judged, so none is normalised")
        }
        if countsOnly, judgeTimings {
            throw ValidationError("--counts-only and --judge-timings conflict")
        }
        if countsOnly, !metricThresholds.isEmpty {
            throw ValidationError("--counts-only and --metric-threshold conflict: with --counts-only no timing is judged")
        }
        _ = try policy()
        // Timings are judged only when asked for, so an option that says how to judge them asks.
        if !judgeTimings, normalizeToPlain || !metricThresholds.isEmpty || threshold != Self.defaultThreshold {
            throw ValidationError(
                "--normalize-to-plain, --metric-threshold and --threshold say how timings are judged, and timings are reported, not judged, unless --judge-timings is given")
        }
        _ = try policy()
    }

    func policy() throws -> GatePolicy {
        var thresholds: [String: Double] = [:]
        for entry in metricThresholds {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let value = Double(parts[1]), value.isFinite, value >= 0 else {
                throw ValidationError("--metric-threshold takes NAME=FRACTION, got '\(entry)'")
            }
            thresholds[parts[0]] = value
        }
        return GatePolicy(
            timingThreshold: threshold, significance: significance, timingThresholds: thresholds,
            asynchronousCountTolerance: asyncCountTolerance, normalizeToPlain: normalizeToPlain,
            gatesTimings: judgeTimings, gatesAsynchronousCounts: asyncCounts == .gate,
            instructionTolerance: instructionTolerance, asynchronousInstructionTolerance: asyncInstructionTolerance)
    }

    /// Loads both runs, compares, prints, and exits with the gate's status: 0 no regression,
    /// 2 regression or missing metric, 4 only improvements, 5 baseline missing or unreadable,
    /// 1 anything else.
    func compare(baseline: String, current: String, mode: GateMode = .committedBaseline, requiredStrategies: [String] = []) throws {
        let base: RunResults
        do {
            base = try RunResults.load(baseline)
        } catch {
            throw Self.refuse(NoVerdict(.baselineUnreadable, "baseline \(error)"))
        }
        let now: RunResults
        do {
            now = try RunResults.load(current)
        } catch {
            Console.error("current run \(error)")
            throw ExitStatus.failure.exitCode
        }
        // A lone shard lacks the other shards' strategies and rounds: judged as a whole run, what it
        // lacks would pass unseen (or fail as missing, with the wrong reason).
        if let problem = base.metadata?.partialRunProblem {
            throw Self.refuse(NoVerdict(.baselineUnreadable, "baseline \(base.source): \(problem)"))
        }
        if let problem = now.metadata?.partialRunProblem {
            Console.error("current run \(now.source): \(problem)")
            throw ExitStatus.failure.exitCode
        }
        var policy = try policy()
        policy.requiredStrategies = requiredStrategies
        if !judgeTimings, base.rows.contains(where: { $0.metric == .instructions }), now.rows.contains(where: { $0.metric == .instructions }) {
            policy.timingsNotJudgedBecause = "timing, reported only: both runs carry instruction counts, which are judged instead (--judge-timings)"
        } else if !judgeTimings {
            policy.timingsNotJudgedBecause = "timing, reported only: two invocations' timings are not judged unless --judge-timings (see gate --help)"
        }
        if let refusal = RunCompatibility.refusal(baseline: base, current: now, policy: policy, sameMachine: mode == .sameMachine) {
            throw Self.refuse(refusal)
        }
        let differences = RunCompatibility.differences(baseline: base, current: now, policy: policy)
        if !differences.countingRule.isEmpty {
            throw Self.refuse(
                NoVerdict(
                    .baselineStale,
                    "the baseline \(base.source) was counted by an obsbench that counts differently from the one that made \(now.source), so no run of this binary compares with it:\n"
                        + (differences.countingRule + differences.madeDifferently).map { "  - \($0)" }.joined(separator: "\n")
                        + "\nRemake the baseline with this binary (docs/gate.md, \"Refreshing the baselines\")."))
        }
        let problems = differences.madeDifferently
        guard problems.isEmpty else {
            throw Self.refuse(
                NoVerdict(
                    .madeDifferently,
                    "cannot compare \(now.source) with the baseline \(base.source): they were made differently, so their differences would not be the code's:\n"
                        + problems.map { "  - \($0)" }.joined(separator: "\n") + "\nMake a new baseline the way this run was made (README: \"The regression gate\")."))
        }
        let report = ComparisonReport(
            comparison: RunComparison(baseline: base, current: now, policy: policy), baselineSource: base.source, currentSource: now.source,
            profiles: (base.profiles, now.profiles), mode: mode)
        print(format == .markdown ? report.markdown() : report.text(full: full), terminator: "")
        if let summaryFile {
            do {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: summaryFile))
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(report.markdown().utf8))
            } catch {
                Console.error("cannot append to --summary-file \(summaryFile): \(error.localizedDescription)")
                throw ExitStatus.failure.exitCode
            }
        }
        // The headline alone on its line of standard error, where a CI script reads the reason.
        Console.standardError(report.headline + "\n")
        let status = report.comparison.exitStatus
        if status != .success { throw status.exitCode }
    }

    /// Says why there is no verdict, as the headline at the start of a line on standard output
    /// and on standard error (where `.ci/run` and the workflows match `^NO VERDICT (reason)`), and
    /// gives the status to end with (5).
    static func refuse(_ noVerdict: NoVerdict) -> ExitCode {
        print(noVerdict.headline)
        Console.standardError(noVerdict.headline + "\n")
        return ExitStatus.baselineUnusable.exitCode
    }
}

/// `obsbench compare BASE NEW`: every metric two runs share, with baseline, current, change and verdict.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs (run folders or results.csv files), metric by metric.",
        discussion: """
            Timings (ns/op) are reported unless --judge-timings; judged, they are a regression only \
            beyond the threshold and significant across worker rounds (each round's median from samples.csv beside results.csv; Yuen's trimmed t test on their logarithms, Holm over \
            the run's timings; fewer than 4 rounds a side: reported, not judged); exact counts (bytes, allocations, re-runs, torn \
            observations) may not grow (asynchronous strategies: within --async-count-tolerance). \
            Exit status: \(ExitStatus.helpText(ExitStatus.comparisonStatuses)).
            """
    )

    @Argument(help: ArgumentHelp("The baseline: a run folder or a results.csv.", valueName: "base"))
    var baseline: String

    @Argument(help: ArgumentHelp("The run to judge: a run folder or a results.csv.", valueName: "new"))
    var current: String

    @OptionGroup var options: GateOptions

    func run() throws {
        try options.compare(baseline: baseline, current: current)
    }
}

/// `obsbench gate`: the CI step. Against a committed baseline (`--baseline DIR`), or, with no
/// baseline at all, the base revision's binary against the head's, both counted on this machine
/// (`--base-binary A --current-binary B`).
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Judge a run against a committed baseline, or a base binary against the head's on this machine; exit 2 on a regression.",
        discussion: """
            Committed baseline: `obsbench --suite all --quick` then `obsbench gate --baseline results/baseline`. \
            Same machine (no baseline, any runner with Valgrind): `obsbench gate --base-binary BASE/obsbench \
            --current-binary .build/release/obsbench` counts instructions of both binaries here, suite by suite and \
            strategy by strategy, both sides of each at once, and judges head against base. A gate that could not judge (no \
            Valgrind, a binary missing, no row compared) exits 5 and says why, unless --no-verdict-ok. \
            Same judgement as `compare`: exact counts and instruction counts are judged, an asynchronous \
            strategy's delivering counts and every timing reported (--async-counts gate, --judge-timings). Exit status: \(ExitStatus.helpText(ExitStatus.comparisonStatuses)).
            """
    )

    @Option(help: ArgumentHelp("The baseline run folder or results.csv (committed-baseline mode).", valueName: "dir"))
    var baseline: String?

    @Option(help: ArgumentHelp("The run to judge (committed-baseline mode).", valueName: "dir"))
    var current = "results/latest"

    @Option(
        name: .customLong("base-binary"),
        help: ArgumentHelp("Same-machine mode: the obsbench binary built from the base revision (e.g. in a git worktree with its own --scratch-path).", valueName: "path"))
    var baseBinary: String?

    @Option(
        name: .customLong("current-binary"),
        help: ArgumentHelp("Same-machine mode: the binary built from the head (default: this one).", valueName: "path"))
    var currentBinary: String?

    @Option(
        name: .customLong("suite"),
        help: ArgumentHelp("Same-machine mode: a suite to count (repeatable; default: latency and hops, those --measure instructions counts).", valueName: "name"))
    var suites: [String] = []

    @Option(
        name: .customLong("strategy"),
        help: ArgumentHelp(
            "A strategy that must have judged rows (repeatable): the gate gives no verdict (5) when one has none, e.g. a store of one's own whose rows are all reported only. Same-machine mode: also the strategies counted (default: every strategy this binary has).",
            valueName: "name"))
    var strategies: [String] = []

    @Option(
        name: .customLong("workload"),
        help: ArgumentHelp(
            "Same-machine mode: only count this workload of the suites (repeatable; default: every one), as `run --workload` does. A base binary older than this option does not take it.",
            valueName: "name"))
    var workloads: [String] = []

    @Flag(name: .customLong("quick"), help: "Same-machine mode: count the --quick loop lengths.")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "Same-machine mode: memory layouts each row is counted in, on both sides (default: each binary's own default, \(InstructionSettings.defaultLayouts) for this one). A base binary older than layouts does not take this option.",
            valueName: "k"))
    var layouts: Int?

    @Option(help: ArgumentHelp("Same-machine mode: Callgrind workers at once, both sides together (default: the core count; each side gets half).", valueName: "n"))
    var jobs: Int?

    @Option(
        name: .customLong("work-dir"),
        help: ArgumentHelp("Same-machine mode: where both sides' runs are written (default: a new temporary folder, kept for inspection).", valueName: "dir"))
    var workDirectory: String?

    @Flag(name: .customLong("no-verdict-ok"), help: "Exit 0 (with a warning) instead of 5 when the gate could not judge: for runners that cannot count.")
    var noVerdictOK = false

    @OptionGroup var options: GateOptions

    func validate() throws {
        if baseline != nil, baseBinary != nil {
            throw ValidationError("--baseline and --base-binary conflict: judge against a committed run, or against a base binary counted here")
        }
        if baseline == nil, baseBinary == nil { throw ValidationError("give --baseline DIR (a committed run) or --base-binary PATH (count the base here)") }
        if baseBinary == nil, currentBinary != nil || !suites.isEmpty || !workloads.isEmpty || quick || jobs != nil || layouts != nil || workDirectory != nil {
            throw ValidationError("--current-binary, --suite, --workload, --quick, --layouts, --jobs and --work-dir belong to the same-machine mode (--base-binary)")
        }
        for name in suites where SuiteRegistry.suite(named: name) == nil {
            throw ValidationError("unknown suite '\(name)'; valid: \(SuiteRegistry.names.joined(separator: ", "))")
        }
        try Selection.validateWorkloads(workloads, in: namedSuites)
        if let layouts, !(1...16).contains(layouts) { throw ValidationError("--layouts must be between 1 and 16, got \(layouts)") }
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be between 1 and 64, got \(jobs)") }
    }

    func run() throws {
        do {
            if let baseline {
                try options.compare(baseline: baseline, current: current, requiredStrategies: strategies)
            } else {
                try sameMachine()
            }
        } catch let status as ExitCode where status.rawValue == ExitStatus.baselineUnusable.rawValue && noVerdictOK {
            Console.error("WARNING: the gate gave no verdict (exit 5 above), and --no-verdict-ok turns that into a pass")
        }
    }

    /// The suites the same-machine mode counts: those named, else latency and hops.
    private var namedSuites: [Suite] { (suites.isEmpty ? ["latency", "hops"] : suites).compactMap(SuiteRegistry.suite(named:)) }

    /// Those of ``namedSuites`` that keep a workload `--workload` names (all, without it).
    private var chosenSuites: [Suite] { namedSuites.map { $0.keeping(workloads: workloads) }.filter { !$0.workloads.isEmpty } }

    /// Counts both binaries here, interleaved, and judges the current against the base.
    private func sameMachine() throws {
        let work = URL(fileURLWithPath: workDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("obsbench-gate-\(UUID().uuidString)").path)
        let runs = InterleavedRuns(
            base: baseBinary!, current: currentBinary ?? ReleaseRedirect.currentExecutable,
            jobs: InterleavedRuns.jobs(suites: chosenSuites, strategies: strategies.isEmpty ? Registered.strategies.map(\.descriptor.name) : strategies),
            options: ["--measure", "instructions", "--jobs", String(max(1, (jobs ?? ProcessInfo.processInfo.activeProcessorCount) / 2))] + (quick ? ["--quick"] : [])
                + (layouts.map { ["--layouts", String($0)] } ?? []) + workloads.flatMap { ["--workload", $0] },
            workDirectory: work)
        let folders: (base: URL, current: URL)
        do {
            folders = try runs.run { Console.standardError($0 + "\n") }
        } catch let failure as InterleavedRuns.CannotJudge {
            throw GateOptions.refuse(NoVerdict(.sideNotCounted, "the gate cannot judge: \(failure)"))
        }
        Console.standardError("both sides counted: \(work.path)\n")
        try options.compare(baseline: folders.base.path, current: folders.current.path, mode: .sameMachine, requiredStrategies: strategies)
    }
}

extension ExitStatus {
    /// What `compare` and `gate` end with.
    static let comparisonStatuses: [ExitStatus] = [.success, .regression, .onlyImprovements, .baselineUnusable, .usage, .failure]
}
