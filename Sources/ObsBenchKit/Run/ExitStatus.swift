/// Every exit status obsbench ends with, named once (the `--help` text and the README list them).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything measured; no regression.
    case success = 0
    /// Some workers failed (their error rows are in the CSV), or another failure.
    case failure = 1
    /// `compare`/`gate`: a regression, or a judged baseline metric missing from the run.
    case regression = 2
    /// `report`: written, but no claim was judged (the claims file is missing, or no claim's rows
    /// are in the run): a report whose claims check is empty is not a success.
    case noClaimsJudged = 3
    /// `compare`/`gate`: only improvements.
    case onlyImprovements = 4
    /// `compare`/`gate`: no verdict. The baseline is missing or unreadable, or was made in a way
    /// the run cannot be compared with (another allocator, measure, toolchain, Valgrind,
    /// `--quick`); a side of a same-machine gate could not be counted; or no row was judged.
    case baselineUnusable = 5
    /// Bad usage: unknown suite, strategy or format, bad sizes, conflicting options; `merge`:
    /// shards that do not make one run.
    case usage = 64
    /// `--measure instructions` without Valgrind (or built without its header): nothing is measured.
    case unavailable = 69
    /// The output folder cannot be written.
    case cannotWriteOutput = 73

    /// What the status means, for `--help` and the README.
    public var meaning: String {
        switch self {
        case .success: "everything measured; compare/gate: no regression; report/export/merge: written"
        case .failure: "some workers failed (their error rows are in the CSV), a run cannot be read, or another failure"
        case .regression: "compare/gate: a regression, or a judged baseline metric missing from the run"
        case .noClaimsJudged: "report: written, but no claim was judged (no claims file, or no claim's rows in the run; --no-claims for a report without them)"
        case .onlyImprovements: "compare/gate: only improvements"
        case .baselineUnusable:
            "compare/gate: no verdict: the baseline is missing, unreadable or made differently (another measure, allocator, toolchain, Valgrind, CPU model, --quick), a side of a same-machine gate could not be counted, or no row was judged"
        case .usage: "bad usage (unknown suite, strategy or format; bad sizes; conflicting options; merge: shards missing, repeated or made differently)"
        case .unavailable: "--measure instructions without Valgrind (nothing measured)"
        case .cannotWriteOutput: "the output folder cannot be written"
        }
    }

    /// Every status with its meaning, one sentence, for `--help`.
    public static var helpText: String {
        helpText(allCases) + "; 130/143 interrupted by SIGINT/SIGTERM (the rows of every finished worker are kept)."
    }

    /// The statuses one command can end with, with their meanings, for its `--help`.
    public static func helpText(_ statuses: [ExitStatus]) -> String {
        statuses.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")
    }

    /// Interrupted by `signal` (SIGINT: 130, SIGTERM: 143).
    public static func interrupted(by signal: Int32) -> Int32 { 128 + signal }
}
