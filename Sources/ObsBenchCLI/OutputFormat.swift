import ArgumentParser
import ObsBenchKit

/// What the run prints on standard output: tables suite by suite, as each suite is done; the
/// rows (csv, json) at the end.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned summary tables, each suite's as soon as it is done.
    case table
    /// The rows of results.csv, at the end.
    case csv
    /// The rows as a JSON array of objects keyed by column name, at the end (one document).
    case json
    /// Summary tables in GitHub-flavoured markdown, each suite's as soon as it is done.
    case markdown
}

extension CostMeasure: ExpressibleByArgument {}

extension ExitStatus {
    /// The status as swift-argument-parser's `ExitCode`, to throw from a command.
    var exitCode: ExitCode { ExitCode(rawValue) }
}
