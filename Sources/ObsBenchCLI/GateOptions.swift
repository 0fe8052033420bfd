import ArgumentParser
import Foundation
import ObsBenchKit

/// The options `compare` and `gate` share: how to judge, and how to print.
struct GateOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A timing is a regression only if its median grows by more than this fraction (and the change is significant).", valueName: "fraction"))
    var threshold: Double = 0.05

    @Option(
        name: .customLong("metric-threshold"),
        help: ArgumentHelp(
            "A timing threshold for one metric, as METRIC=FRACTION or WORKLOAD/METRIC=FRACTION; repeatable.",
            valueName: "name=fraction"))
    var metricThresholds: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The chance of any false timing verdict in a run: timing changes beyond the threshold are tested on round medians (two-sided exact Mann-Whitney U) with Holm's correction over every timing judged.",
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
            "gate: judge asynchronous strategies' counts within --async-count-tolerance; report: list them, never fail on them (their re-run and byte counts move with thread timing).",
            valueName: "gate|report"))
    var asyncCounts: AsyncCounts = .gate

    @Flag(
        name: .customLong("counts-only"), help: "Judge exact counts and instruction counts only; report timings without judging them (a gate that stays quiet on a noisy machine).")
    var countsOnly = false

    @Flag(name: .customLong("judge-timings"), help: "When both runs carry instruction counts, judge their timings too (by default they are then reported, not judged).")
    var judgeTimings = false

    @Option(
        name: .customLong("instruction-tolerance"), parsing: .unconditional,
        help: ArgumentHelp(
            "How far a synchronous strategy's instruction count (Ir/op) may move either way before it is a regression or an improvement. The default allows for another build's heap layout; 0.005 suits runs of one binary.",
            valueName: "fraction"))
    var instructionTolerance: Double = GatePolicy.defaultInstructionTolerance

    @Option(
        name: .customLong("async-instruction-tolerance"), parsing: .unconditional,
        help: ArgumentHelp(
            "The same for rows whose count includes other threads' timing: asynchronous strategies and actor hops.",
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
            gatesTimings: !countsOnly, gatesAsynchronousCounts: asyncCounts == .gate,
            instructionTolerance: instructionTolerance, asynchronousInstructionTolerance: asyncInstructionTolerance)
    }

    /// Loads both runs, compares, prints, and exits with the gate's status: 0 no regression,
    /// 2 regression or missing metric, 4 only improvements, 5 baseline missing or unreadable,
    /// 1 anything else.
    func compare(baseline: String, current: String) throws {
        let base: RunResults
        do {
            base = try RunResults.load(baseline)
        } catch {
            Console.error("baseline \(error)")
            throw ExitStatus.baselineUnusable.exitCode
        }
        let now: RunResults
        do {
            now = try RunResults.load(current)
        } catch {
            Console.error("current run \(error)")
            throw ExitStatus.failure.exitCode
        }
        var policy = try policy()
        let instructions = Metric.instructions.name
        if !judgeTimings, base.rows.contains(where: { $0.metric == instructions }), now.rows.contains(where: { $0.metric == instructions }) {
            policy.gatesTimings = false
            policy.timingsNotJudgedBecause = "timing, reported only: both runs carry instruction counts, which are judged instead (--judge-timings)"
        }
        let problems = RunCompatibility.problems(baseline: base, current: now, policy: policy)
        guard problems.isEmpty else {
            Console.error(
                "cannot compare \(now.source) with the baseline \(base.source): they were made differently, so their differences would not be the code's:\n"
                    + problems.map { "  - \($0)" }.joined(separator: "\n") + "\nMake a new baseline the way this run was made (README: \"The regression gate\").")
            throw ExitStatus.baselineUnusable.exitCode
        }
        let report = ComparisonReport(
            comparison: RunComparison(baseline: base, current: now, policy: policy), baselineSource: base.source, currentSource: now.source,
            profiles: (base.profiles, now.profiles))
        print(format == .markdown ? report.markdown() : report.text(), terminator: "")
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
        Console.error("\(report.headline)")
        let status = report.comparison.exitStatus
        if status != .success { throw status.exitCode }
    }
}

/// `obsbench compare BASE NEW`: every metric two runs share, with baseline, current, change and verdict.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs (run folders or results.csv files), metric by metric.",
        discussion: """
            Timings (ns/op) are a regression only beyond the threshold and significant across worker \
            rounds (each round's median from samples.csv beside results.csv; exact Mann-Whitney, Holm over \
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

/// `obsbench gate --baseline DIR`: the CI step: judges the newest run against a committed baseline.
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Judge a run (default: results/latest) against a committed baseline; exit 2 on a regression.",
        discussion: """
            In CI: `obsbench --suite all --quick` then `obsbench gate --baseline results/baseline`. \
            Same judgement as `compare`. Exit status: \(ExitStatus.helpText(ExitStatus.comparisonStatuses)).
            """
    )

    @Option(help: ArgumentHelp("The baseline run folder or results.csv.", valueName: "dir"))
    var baseline: String

    @Option(help: ArgumentHelp("The run to judge.", valueName: "dir"))
    var current = "results/latest"

    @OptionGroup var options: GateOptions

    func run() throws {
        try options.compare(baseline: baseline, current: current)
    }
}

extension ExitStatus {
    /// What `compare` and `gate` end with.
    static let comparisonStatuses: [ExitStatus] = [.success, .regression, .onlyImprovements, .baselineUnusable, .usage, .failure]
}
