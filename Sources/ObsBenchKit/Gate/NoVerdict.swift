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
        /// A side lacks a file the gate reads beside `results.csv` (`samples.csv`: each layout's
        /// and round's values; `run.json`: how the run was made).
        case fileMissing = "file-missing"
        /// A side of a same-machine gate could not be counted (no Valgrind, a binary missing, a
        /// run that wrote nothing).
        case sideNotCounted = "side-not-counted"
        /// The runs share no row the gate judges.
        case noRowJudged = "no-row-judged"

        /// One sentence, for `list` and the docs.
        public var meaning: String {
            switch self {
            case .baselineUnreadable: "the baseline is missing or unreadable"
            case .madeDifferently: "the runs were made differently (measure, toolchain, CPU model, Valgrind, allocator, --quick, rounds)"
            case .fileMissing: "a side has no samples.csv or run.json beside its results.csv"
            case .sideNotCounted: "a side of a same-machine gate could not be counted"
            case .noRowJudged: "the runs share no row the gate judges"
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
