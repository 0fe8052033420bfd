/// Every exit status obsbench ends with, named once (the `--help` text and the README list them).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything measured; no regression.
    case success = 0
    /// Some workers failed (their error rows are in the CSV), or another failure.
    case failure = 1
    /// `compare`/`gate`: a regression, or a judged baseline metric missing from the run.
    case regression = 2
    /// `compare`/`gate`: only improvements.
    case onlyImprovements = 4
    /// `compare`/`gate`: the baseline is missing or unreadable, or was made in a way the run
    /// cannot be compared with (another allocator, measure, toolchain, Valgrind, `--quick`).
    case baselineUnusable = 5
    /// Bad usage: unknown suite, strategy or format, bad sizes, conflicting options.
    case usage = 64
    /// `--measure instructions` without Valgrind (or built without its header): nothing is measured.
    case unavailable = 69
    /// The output folder cannot be written.
    case cannotWriteOutput = 73

    /// Interrupted by `signal` (SIGINT: 130, SIGTERM: 143).
    public static func interrupted(by signal: Int32) -> Int32 { 128 + signal }
}
