/// Why `compare` or `gate` ended without a verdict (exit 5, ``ExitStatus/baselineUnusable``).
///
/// The gate prints it as the headline, `NO VERDICT (<reason>): <detail>`, on standard output and
/// standard error. The reason is a fixed token, so a CI script can tell a baseline made on another
/// machine (refresh it) from a gate that judged nothing (a failure) without guessing:
///
/// ```sh
/// obsbench gate --baseline results/baseline-instructions --current run 2> gate.err || status=$?
/// grep -q 'NO VERDICT (made-differently)' gate.err && echo "another toolchain or CPU: not judged"
/// ```
public struct NoVerdict: Error, Sendable, Equatable, CustomStringConvertible {
    /// What stopped the judgement.
    public enum Reason: String, Sendable, CaseIterable, Codable {
        /// The baseline is missing or cannot be read.
        case baselineUnreadable = "baseline-unreadable"
        /// The two runs were made differently (measure, toolchain, CPU model, Valgrind, allocator,
        /// `--quick`, rounds): their differences would not be the code's.
        case madeDifferently = "made-differently"
        /// The baseline was counted by an obsbench that counts differently from the binary under
        /// test (the threads counted, Callgrind's options, the workers' environment, the loops'
        /// lengths): no run of this binary can compare with it, on any machine. Remake it
        /// (docs/gate.md, "Refreshing the baselines").
        case baselineStale = "baseline-stale"
        /// A side lacks a file the gate reads beside `results.csv` (`samples.csv`: each layout's
        /// and round's values; `run.json`: how the run was made).
        case fileMissing = "file-missing"
        /// A side of a same-machine gate could not be counted (no Valgrind, a binary missing, a
        /// run that wrote nothing).
        case sideNotCounted = "side-not-counted"
        /// The runs share no row the gate judges.
        case noRowJudged = "no-row-judged"
        /// Both sides are one run (the same folder, or the same run id: a stale `results/latest`
        /// that the baseline was made from).
        case sameRun = "same-run"
        /// A side's `run.json` says the run did not complete, or lacks a field a check needs.
        case runIncomplete = "run-incomplete"
        /// A row's figure in `results.csv` is not what its samples give (value, layouts, rounds), nor
        /// what its processes' rows in `rounds.csv` give, or the row's suite is not one `run.json`
        /// says the run ran.
        case resultsDisagree = "results-disagree"
        /// Gated rows lack the evidence to judge them: no samples on a side, samples that cannot
        /// be told to be theirs, a strategy the runs declare differently or not at all.
        case rowsWithoutEvidence = "rows-without-evidence"
        /// A strategy named with `--strategy` has no judged row.
        case strategyNotJudged = "strategy-not-judged"
        /// A timing moved beyond its threshold, and its rounds cannot tell that from noise (not
        /// significant, the baseline's rounds spread wider, or too few rounds).
        case changeNotJudgeable = "change-not-judgeable"

        /// One sentence, for `list` and the docs.
        public var meaning: String {
            switch self {
            case .baselineUnreadable: "the baseline is missing or unreadable"
            case .madeDifferently: "the runs were made differently (measure, toolchain, CPU model, Valgrind, allocator, --quick, rounds)"
            case .baselineStale: "the baseline was counted by an obsbench that counts differently: remake it"
            case .fileMissing: "a side has no samples.csv or run.json beside its results.csv"
            case .sideNotCounted: "a side of a same-machine gate could not be counted"
            case .noRowJudged: "the runs share no row the gate judges"
            case .sameRun: "both sides are the same run (one folder, or one run id)"
            case .runIncomplete: "a side's run.json says it did not complete, or lacks a field a check needs"
            case .resultsDisagree: "a row of results.csv disagrees with its samples.csv, rounds.csv or run.json"
            case .rowsWithoutEvidence: "gated rows lack samples or a declaration to be judged by"
            case .strategyNotJudged: "a strategy named with --strategy has no judged row"
            case .changeNotJudgeable: "a timing moved beyond its threshold where its rounds cannot tell that from noise"
            }
        }
    }

    public var reason: Reason
    /// What exactly, naming files and sides.
    public var detail: String

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The gate's headline for it.
    public var headline: String { "NO VERDICT (\(reason.rawValue)): \(detail)" }
    public var description: String { headline }
}
